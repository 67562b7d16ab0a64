// The env file means the same to systemd and to --env-file; names that are not settings are refused
// (in the file) or warned about (in the environment); every bad setting is reported at once;
// `timetrack config` shows what is in effect and where it came from.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeTempDir } from '../support/app.js';
import { PROJECT_ROOT, runCli } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { expectFailure, tempDb } from '../support/cli-accounts.js';

function envFile(lines: string[]): string {
  const file = path.join(makeTempDir('timetrack-env-'), 'timetrack.env');
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

describe('settings', () => {
  it('refuses names in the env file that are not settings, with a suggestion, all at once', async () => {
    const file = envFile(['# a comment', 'REGISTRATON=closed', 'LOKOUT_ATTEMPTS=3', 'COMPLETELY_UNRELATED=1']);
    const result = await runCli(['--env-file', file, 'user', 'list']);
    expectFailure(
      result,
      1,
      /line 2: REGISTRATON is not a setting; did you mean REGISTRATION\?.*line 3: LOKOUT_ATTEMPTS is not a setting; did you mean LOCKOUT_ATTEMPTS\?.*line 4: COMPLETELY_UNRELATED is not a setting \(docs\/configuration\.md lists them\)/,
    );
    expect(String(result.stderr).split('\n')).toHaveLength(1);
  });

  it('refuses lines that systemd and --env-file would read differently', async () => {
    const cases: Array<[string, RegExp]> = [
      ['PORT=8080 # the default', /comment to --env-file but part of the value to systemd/],
      ['export PORT=8080', /"export" is not understood by systemd/],
      ['; PORT=8080', /systemd reads a line starting with ";" as a comment/],
      ['PORT = 8080', /is not NAME=value/],
      ['SMTP_FROM="a\\"b"', /backslashes in quotes/],
      ['PUBLIC_URL=https://a.example\\', /joins a line ending in "\\"/],
    ];
    // The first through the binary, the others through the same bundle in process (docs/testing.md, "How fast").
    for (const [index, [line, message]] of cases.entries()) {
      expectFailure(await (index === 0 ? runCli : runCliInProcess)(['--env-file', envFile([line]), 'config']), 1, message);
    }
  });

  it('warns about a misspelt setting in the environment, and reports every bad value at once', async () => {
    const db = tempDb();
    const warned = await runCli(['--db', db, 'user', 'list'], { env: { REGISTRATON: 'closed' } });
    expect(warned.exitCode).toBe(0);
    expect(warned.stderr).toBe('timetrack: warning: REGISTRATON in the environment is not a setting; did you mean REGISTRATION?');

    const bad = await runCli(['--db', db, 'user', 'list'], { env: { PORT: 'eighty', LOG_LEVEL: 'loud', REGISTRATION: 'maybe' } });
    expectFailure(bad, 1, /PORT: "eighty" is not a whole number; REGISTRATION: "maybe" is not one of open, closed, invite; LOG_LEVEL: "loud" is not one of/);
  });

  it('the example env file is accepted as it ships', async () => {
    const result = await runCli(['--env-file', path.join(PROJECT_ROOT, 'config/timetrack.example.env'), 'config']);
    expect(result.stderr).toBe('');
    expect(result.stdout).toMatch(/TIMETRACK_DB\s+\/var\/lib\/timetrack\/timetrack\.db\s+file/);
  });

  it('timetrack config prints each setting with its source, secrets masked', async () => {
    const secret = 'f3a9c1e07b5d4a2e9c8b7a6f5e4d3c2b1a0f9e8d';
    const file = envFile([
      'TIMETRACK_DB=/srv/tt/timetrack.db',
      `JWT_SECRET=${secret}`,
      'REGISTRATION=closed',
      'SMTP_HOST=smtp.example.org',
      'SMTP_FROM=tt@example.org',
      'SMTP_USER=tt',
      'SMTP_PASSWORD=hunter2hunter2',
    ]);
    const result = await runCli(['--env-file', file, '--json', 'config'], { env: { LOG_LEVEL: 'debug' } });
    expect(result.stderr).toBe('');
    expect(result.stdout).not.toContain(secret);
    expect(result.stdout).not.toContain('hunter2');
    const settings = new Map(
      (JSON.parse(result.stdout as string) as { settings: Array<{ name: string; value: string; source: string }> }).settings.map((s) => [s.name, s]),
    );
    expect(settings.get('TIMETRACK_DB')).toEqual({ name: 'TIMETRACK_DB', value: '/srv/tt/timetrack.db', source: 'file' });
    expect(settings.get('JWT_SECRET')).toEqual({ name: 'JWT_SECRET', value: '******** (set)', source: 'file' });
    expect(settings.get('SMTP_PASSWORD')?.value).toBe('******** (set)');
    expect(settings.get('LOG_LEVEL')).toEqual({ name: 'LOG_LEVEL', value: 'debug', source: 'environment' });
    expect(settings.get('PORT')).toEqual({ name: 'PORT', value: '8080', source: 'default' });
    expect(settings.get('REGISTRATION')).toEqual({ name: 'REGISTRATION', value: 'closed', source: 'file' });
  });
});
