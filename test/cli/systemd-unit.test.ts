// The shipped systemd unit runs serve as a dedicated user with the hardening docs/operations.md promises.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../support/cli.js';

const unit = fs.readFileSync(path.join(PROJECT_ROOT, 'config/timetrack.service'), 'utf8');
const settings = new Map<string, string[]>();
for (const line of unit.split('\n')) {
  const match = /^([A-Za-z]+)=(.*)$/.exec(line.trim());
  if (match) settings.set(match[1]!, [...(settings.get(match[1]!) ?? []), match[2]!]);
}
const value = (key: string) => settings.get(key)?.at(-1);

describe('config/timetrack.service', () => {
  it('runs timetrack serve as a dedicated user with an environment file', () => {
    expect(value('ExecStart')).toMatch(/\/timetrack serve$/);
    expect(value('Type')).toBe('exec');
    expect(value('StateDirectory')).toBe('timetrack');
    expect(value('ConfigurationDirectory')).toBe('timetrack');
    // One source of truth: every setting (TIMETRACK_DB above all) comes from the env file the admin commands read too.
    expect(settings.has('Environment')).toBe(false);
    expect(value('User')).toBe('timetrack');
    expect(value('EnvironmentFile')).toBe('/etc/timetrack/timetrack.env');
    expect(value('KillSignal')).toBe('SIGTERM');
  });

  it('confines the process: no new privileges, read-only system, writable data folder only', () => {
    expect(value('NoNewPrivileges')).toBe('yes');
    expect(value('ProtectSystem')).toBe('strict');
    expect(value('ReadWritePaths')).toBe('/var/lib/timetrack');
    expect(value('ProtectHome')).toBe('yes');
    expect(value('PrivateTmp')).toBe('yes');
    expect(value('UMask')).toBe('0077');
    expect(value('CapabilityBoundingSet')).toBe('');
    // V8 needs W+X memory: this option would kill node at start.
    expect(settings.has('MemoryDenyWriteExecute')).toBe(false);
  });
});

describe('config/timetrack@.service, the template for several processes on one host', () => {
  const template = fs.readFileSync(path.join(PROJECT_ROOT, 'config/timetrack@.service'), 'utf8');
  const service = (text: string) => text.slice(text.indexOf('[Service]'));
  it("reads the shared env file, then the instance's own", () => {
    const files = [...template.matchAll(/^EnvironmentFile=(.*)$/gm)].map((match) => match[1]);
    expect(files).toEqual(['/etc/timetrack/timetrack.env', '/etc/timetrack/%i.env']);
  });
  it('is the single unit in every other line of its service: the same user, hardening and stop', () => {
    const withoutInstanceFile = service(template)
      .split('\n')
      .filter((line) => !line.includes('%i.env') && !line.startsWith('# Read after the shared file'));
    expect(withoutInstanceFile).toEqual(service(unit).split('\n'));
  });
});
