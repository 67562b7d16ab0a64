// A command given no settings source reads the service's env file (/etc/timetrack/timetrack.env, here
// TIMETRACK_ENV_FILE in its place), so an operator's `timetrack user list` at a shell acts on the
// service's database, and says so in one stderr line (docs/operations.md, docs/cli.md). Through the
// built binary.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeTempDir } from '../support/app.js';
import { runCli } from '../support/cli.js';
import { createAccountWithCli, expectFailure, tempDb } from '../support/cli-accounts.js';
import { databaseLine, databaseSettingLines } from '../support/database.js';

function envFile(lines: string[]): string {
  const file = path.join(makeTempDir('timetrack-etc-'), 'timetrack.env');
  fs.writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

describe("settings: the service's env file when none is given", () => {
  it('user list without --env-file acts on the database the env file names, and one stderr line names the file', async () => {
    const db = tempDb();
    await createAccountWithCli(db, 'ann@example.com');
    const file = envFile(databaseSettingLines(db));
    const elsewhere = makeTempDir('timetrack-cwd-');

    const listed = await runCli(['user', 'list'], { cwd: elsewhere, env: { TIMETRACK_ENV_FILE: file } });
    expect(listed.exitCode).toBe(0);
    expect(listed.stdout).toContain('ann@example.com');
    expect(listed.stdout).toContain(databaseLine(db));
    expect(listed.stderr).toBe(`timetrack: settings from ${file} (no --env-file given, and neither TIMETRACK_DB nor DATABASE_URL is set)`);

    // --version and help run no command: nothing read, nothing said.
    for (const args of [['--version'], ['user'], ['--help']]) {
      const quiet = await runCli(args, { cwd: elsewhere, env: { TIMETRACK_ENV_FILE: file } });
      expect(quiet.exitCode).toBe(0);
      expect(quiet.stderr).toBe('');
    }
  });

  it('is not read when a database is named otherwise, nor when it cannot be read', async () => {
    const served = tempDb();
    await createAccountWithCli(served, 'ann@example.com');
    const other = tempDb();
    const file = envFile(databaseSettingLines(served));
    const elsewhere = makeTempDir('timetrack-cwd-');

    // --db (or TIMETRACK_DB) names the database: the env file is not read.
    const named = await runCli(['--db', other, 'user', 'list'], { cwd: elsewhere, env: { TIMETRACK_ENV_FILE: file } });
    expect(named.exitCode).toBe(0);
    expect(named.stdout).not.toContain('ann@example.com');
    expect(named.stderr).toBe('');
    const inEnvironment = await runCli(['user', 'list'], { cwd: elsewhere, env: { TIMETRACK_ENV_FILE: file, TIMETRACK_DB: other } });
    expect(inEnvironment.stdout).not.toContain('ann@example.com');
    expect(inEnvironment.stderr).toBe('');
    // Under the unit (STATE_DIRECTORY set) systemd has given the command the file already.
    const underTheUnit = await runCli(['user', 'list'], { cwd: elsewhere, env: { TIMETRACK_ENV_FILE: file, STATE_DIRECTORY: elsewhere } });
    expect(underTheUnit.stderr).not.toContain('settings from');
    expect(underTheUnit.stdout).not.toContain('ann@example.com');

    // No file there: as before, the default path, which holds no database.
    const missing = await runCli(['user', 'list'], { cwd: elsewhere, env: { TIMETRACK_ENV_FILE: path.join(elsewhere, 'none.env') } });
    expectFailure(missing, 1, /^timetrack: no database at .*data\/timetrack\.db; is TIMETRACK_DB right\?$/);
  });
});
