// The deployment walked as an operator does it: the settings in an env file (TIMETRACK_DB pointing to
// the service's folder), admin commands run from some other folder, all acting on that one database.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeTempDir, PASSWORD } from '../support/app.js';
import { runCli } from '../support/cli.js';
import { expectFailure } from '../support/cli-accounts.js';
import { runCliInProcessFrom } from '../support/cli-in-process-from.js';
import { startServer } from '../support/server.js';
import { databaseLine, databaseSettingLines } from '../support/database.js';

function envFile(dir: string, lines: string[]): string {
  const file = path.join(dir, 'timetrack.env');
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

describe('deployment as an operator', () => {
  it('commands run from another folder act on the database the env file names', async () => {
    const stateDir = makeTempDir('timetrack-state-');
    const configDir = makeTempDir('timetrack-etc-');
    const elsewhere = makeTempDir('timetrack-cwd-');
    const db = path.join(stateDir, 'timetrack.db');
    const env = envFile(configDir, [...databaseSettingLines(db), 'REGISTRATION=closed']);

    const migrated = await runCli(['--env-file', env, 'migrate'], { cwd: elsewhere });
    expect(migrated.stdout).toContain(databaseLine(db));
    const created = await runCli(['--env-file', env, 'user', 'create', '--email', 'admin@example.com', '--name', 'Admin', '--password-stdin'], {
      cwd: elsewhere,
      input: `${PASSWORD}\n`,
    });
    expect(created.stderr).toBe('');
    expect(created.stdout).toMatch(new RegExp(`^created account admin@example\\.com \\(id 1\\)\\n${databaseLine(db).replace(/[.*]/g, '\\$&')}$`));
    // Every admin command names the database it acted on. The first through the binary, the others
    // through the same bundle in process, from the same folder (docs/testing.md, "How fast").
    for (const [index, args] of [
      ['user', 'list'],
      ['user', 'show', 'admin@example.com'],
      ['user', 'unlock', 'admin@example.com'],
      ['token', 'list', '--user', 'admin@example.com'],
      ['token', 'revoke', '--user', 'admin@example.com'],
      ['audit', 'list'],
      ['migrate', '--status'],
    ].entries()) {
      const result =
        index === 0 ? await runCli(['--env-file', env, ...args], { cwd: elsewhere }) : await runCliInProcessFrom(elsewhere, ['--env-file', env, ...args]);
      expect(result.exitCode, `${args.join(' ')}: ${result.stderr}`).toBe(0);
      expect(String(result.stdout).trimEnd().split('\n').at(-1), args.join(' ')).toBe(databaseLine(db));
    }
    // Nothing was made in the folder the command ran from.
    expect(fs.readdirSync(elsewhere)).toEqual([]);

    const server = await startServer(db);
    try {
      const login = await fetch(`${server.baseUrl}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'admin@example.com', password: PASSWORD }),
      });
      expect(login.status).toBe(200);
    } finally {
      await server.stop();
    }
  });

  it('a command other than serve and migrate refuses a database that does not exist, and creates none', async () => {
    const configDir = makeTempDir('timetrack-etc-');
    const elsewhere = makeTempDir('timetrack-cwd-');
    const missing = path.join(makeTempDir('timetrack-state-'), 'timetrack.db');
    const env = envFile(configDir, [`TIMETRACK_DB=${missing}`]);
    // The first through the binary, the others through the same bundle in process, from the same folder (docs/testing.md, "How fast").
    for (const [index, args] of [
      ['user', 'list'],
      ['user', 'show', 'ann@example.com'],
      ['user', 'unlock', 'ann'],
      ['token', 'revoke', '--all'],
      ['reset', 'issue', 'ann@example.com'],
    ].entries()) {
      const result =
        index === 0 ? await runCli(['--env-file', env, ...args], { cwd: elsewhere }) : await runCliInProcessFrom(elsewhere, ['--env-file', env, ...args]);
      expectFailure(result, 1, new RegExp(`^timetrack: no database at ${missing.replace(/[.]/g, '\\.')}; is TIMETRACK_DB right\\?$`));
    }
    // Without any setting: the default ./data/timetrack.db of this folder, which is not made either.
    expectFailure(await runCli(['user', 'list'], { cwd: elsewhere }), 1, /no database at .*\/data\/timetrack\.db; is TIMETRACK_DB right\?/);
    expect(fs.existsSync(missing)).toBe(false);
    expect(fs.readdirSync(elsewhere)).toEqual([]);
  });

  it('the example env file sets TIMETRACK_DB as an absolute path, and the unit sets no setting of its own', () => {
    const example = fs.readFileSync(path.join(__dirname, '../../config/timetrack.example.env'), 'utf8');
    expect(example).toMatch(/^TIMETRACK_DB=\/var\/lib\/timetrack\/timetrack\.db$/m);
    const unit = fs.readFileSync(path.join(__dirname, '../../config/timetrack.service'), 'utf8');
    expect(unit).not.toMatch(/^Environment=/m);
    expect(unit).toMatch(/^EnvironmentFile=\/etc\/timetrack\/timetrack\.env$/m);
  });
});
