import { describe, expect, it } from 'vitest';
import { PASSWORD } from '../support/app.js';
import { runCli } from '../support/cli.js';
import { cli, createAccountWithCli, expectFailure, tempDb } from '../support/cli-accounts.js';
import { cliInProcess, runCliInProcess } from '../support/cli-in-process.js';
import { databaseLine, queryRows, TABLES_OF_NO_ACCOUNT, tableNames } from '../support/database.js';

describe('timetrack user create', () => {
  it('creates an account from flags and a password on stdin, with the same rules as registration', async () => {
    const db = tempDb();
    const created = await cli(db, ['--json', 'user', 'create', '--email', ' Ann@Example.COM ', '--name', 'Ann', '--username', 'ann', '--password-stdin'], {
      input: `${PASSWORD}\n`,
    });
    expect(created.exitCode).toBe(0);
    const body = JSON.parse(created.stdout as string) as { user: Record<string, unknown> };
    expect(body.user).toMatchObject({ id: 1, email: 'ann@example.com', full_name: 'Ann', username: 'ann' });
    expect(created.stdout).not.toMatch(/argon2|password/i);

    const [row] = await queryRows<{ password_hash: string }>(db, 'select password_hash from auth_info where user_id = 1');
    expect(row!.password_hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
  });

  it('refuses a duplicate e-mail, a taken username, a weak password and a bad e-mail with exit 1 and one line', async () => {
    const db = tempDb();
    await createAccountWithCli(db, 'ann@example.com', ['--username', 'ann']);
    // The first refusal through the binary, the others through the same bundle in process (docs/testing.md, "How fast").
    expectFailure(
      await cli(db, ['user', 'create', '--email', 'ANN@example.com', '--name', 'A', '--password-stdin'], { input: PASSWORD }),
      1,
      /^timetrack: An account with this e-mail address already exists$/,
    );
    expectFailure(
      await cliInProcess(db, ['user', 'create', '--email', 'b@example.com', '--name', 'B', '--username', 'ANN', '--password-stdin'], { input: PASSWORD }),
      1,
      /username is already taken/,
    );
    expectFailure(
      await cliInProcess(db, ['user', 'create', '--email', 'c@example.com', '--name', 'C', '--password-stdin'], { input: 'password123\n' }),
      1,
      /too common/,
    );
    expectFailure(
      await cliInProcess(db, ['user', 'create', '--email', 'd@example.com', '--name', 'D', '--password-stdin'], { input: 'short\n' }),
      1,
      /8 to 256 characters/,
    );
    expectFailure(
      await cliInProcess(db, ['user', 'create', '--email', 'not-an-email', '--name', 'E', '--password-stdin'], { input: PASSWORD }),
      1,
      /e-mail address/,
    );
    const list = await cliInProcess(db, ['--json', 'user', 'list']);
    expect((JSON.parse(list.stdout as string) as { users: unknown[] }).users).toHaveLength(1);
  });

  it('fails at once without a terminal when the password is missing (never waits for input)', async () => {
    const db = tempDb();
    // stdin is /dev/null-like ('ignore'): a prompt would hang until the test timeout.
    const result = await runCli(['--db', db, 'user', 'create', '--email', 'ann@example.com', '--name', 'Ann']);
    expectFailure(result, 2, /not a terminal.*--password-stdin/);
    const missingEmail = await runCli(['--db', db, 'user', 'create', '--password-stdin'], { input: PASSWORD });
    expectFailure(missingEmail, 2, /--email, --name/);
  });
});

describe('timetrack user list, show, unlock, disable, enable, delete', () => {
  it('lists accounts as a table and as JSON, with status, failed attempts, lock end and sessions', async () => {
    const db = tempDb();
    await createAccountWithCli(db, 'ann@example.com');
    await createAccountWithCli(db, 'bob@example.com');
    const table = await cli(db, ['user', 'list']);
    expect(table.exitCode).toBe(0);
    const lines = (table.stdout as string).split('\n');
    expect(lines[0]).toMatch(/^email\s+name\s+role\s+status\s+failed attempts\s+locked until\s+active sessions\s+two-factor$/);
    expect(lines[1]).toMatch(/^ann@example\.com\s+Test Person\s+member\s+active\s+0\s+-\s+0\s+off$/);
    expect(lines[2]).toMatch(/^bob@example\.com/);

    const json = JSON.parse((await cliInProcess(db, ['user', 'list', '--json'])).stdout as string) as { users: Array<Record<string, unknown>> };
    expect(json.users[0]).toEqual({
      id: 1,
      email: 'ann@example.com',
      full_name: 'Test Person',
      username: null,
      created_at: expect.any(String),
      role: 'member',
      status: 'active',
      failed_attempts: 0,
      locked_until: null,
      active_sessions: 0,
      two_factor: false,
    });
    const show = JSON.parse((await cliInProcess(db, ['--json', 'user', 'show', 'BOB@example.com'])).stdout as string) as { user: Record<string, unknown> };
    expect(show.user).toMatchObject({ email: 'bob@example.com', role: 'member', status: 'active' });
    expect(JSON.stringify(json)).not.toMatch(/hash|argon/);
  });

  it('answers exit 3 (not found) and one line for an unknown account in every command that takes one', async () => {
    const db = tempDb();
    await createAccountWithCli(db, 'ann@example.com');
    // The first through the binary, the others through the same bundle in process (docs/testing.md, "How fast").
    for (const [index, args] of [
      ['user', 'show'],
      ['user', 'unlock'],
      ['user', 'disable'],
      ['user', 'enable'],
      ['reset', 'issue'],
    ].entries()) {
      const run = index === 0 ? cli : cliInProcess;
      expectFailure(await run(db, [...args, 'nobody@example.com']), 3, /^timetrack: no account with the e-mail address nobody@example\.com$/);
    }
    expectFailure(await cliInProcess(db, ['user', 'delete', 'nobody@example.com', '--yes']), 3, /no account/);
    expectFailure(await cliInProcess(db, ['token', 'list', '--user', 'nobody@example.com']), 3, /no account/);
    expectFailure(await cliInProcess(db, ['token', 'revoke', '--user', 'nobody@example.com']), 3, /no account/);
  });

  it('disables and enables an account', async () => {
    const db = tempDb();
    await createAccountWithCli(db, 'ann@example.com');
    const disabled = await cli(db, ['user', 'disable', 'ann@example.com']);
    expect(disabled.stdout).toBe(`disabled ann@example.com; revoked 0 session(s)\n${databaseLine(db)}`);
    expect(JSON.parse((await cliInProcess(db, ['--json', 'user', 'show', 'ann@example.com'])).stdout as string).user.status).toBe('disabled');
    const enabled = JSON.parse((await cliInProcess(db, ['--json', 'user', 'enable', 'ann@example.com'])).stdout as string) as { user: { status: string } };
    expect(enabled.user.status).toBe('active');
  });

  it('deletes only with --yes, and then removes every row of the account in every table', async () => {
    const db = tempDb();
    await createAccountWithCli(db, 'ann@example.com');
    await createAccountWithCli(db, 'bob@example.com');
    expectFailure(await cli(db, ['user', 'delete', 'ann@example.com']), 2, /without --yes/);

    // Give Ann a reset token, time entries and an absence, so every kind of row exists.
    expect((await cliInProcess(db, ['reset', 'issue', 'ann@example.com'])).exitCode).toBe(0);
    const now = new Date().toISOString();
    await queryRows(db, 'insert into auth_tokens (user_id, token_hash, created_at, expires_at) values (1, ?, ?, ?)', [
      'a'.repeat(64),
      now,
      '2999-01-01T00:00:00.000Z',
    ]);
    await queryRows(
      db,
      "insert into time_entries (user_id, start_at, end_at, note, created_at, updated_at) values (1, '2026-01-05T08:00:00.000Z', '2026-01-05T12:00:00.000Z', '', ?, ?)",
      [now, now],
    );
    await queryRows(db, "insert into absences (user_id, date, type, note, created_at) values (1, '2026-01-06', 'vacation', '', ?)", [now]);

    const deleted = await cliInProcess(db, ['--json', 'user', 'delete', 'ann@example.com', '--yes']);
    expect(deleted.exitCode).toBe(0);
    expect(JSON.parse(deleted.stdout as string).deleted.email).toBe('ann@example.com');

    // Of no account: users itself and TABLES_OF_NO_ACCOUNT.
    const tables = (await tableNames(db)).filter((name) => !['users', ...TABLES_OF_NO_ACCOUNT].includes(name) && !name.startsWith('kysely_'));
    expect(tables).toEqual(expect.arrayContaining(['auth_info', 'auth_tokens', 'reset_tokens', 'time_entries', 'absences', 'daily_totals', 'user_settings']));
    // The audit trail is the exception: who created, changed and deleted the account outlives it.
    for (const name of tables.filter((table) => table !== 'audit_events')) {
      expect((await queryRows<{ n: number }>(db, `select count(*) as n from ${name} where user_id = 1`))[0]!.n, name).toBe(0);
    }
    expect((await queryRows<{ n: number }>(db, 'select count(*) as n from users'))[0]!.n).toBe(1);
  });
});

describe('usage errors', () => {
  it('answers 2 for an unknown command, an unknown option and a missing argument', async () => {
    const db = tempDb();
    // The first through the binary, the others through the same bundle in process (docs/testing.md, "How fast").
    expect((await cli(db, ['frobnicate'])).exitCode).toBe(2);
    expect((await cliInProcess(db, ['user', 'frobnicate'])).exitCode).toBe(2);
    expect((await cliInProcess(db, ['user', 'list', '--bogus'])).exitCode).toBe(2);
    expect((await cliInProcess(db, ['user', 'show'])).exitCode).toBe(2);
    expect((await cliInProcess(db, ['token', 'list'])).exitCode).toBe(2);
    expectFailure(await cli(db, ['token', 'revoke']), 2, /exactly one of/);
    expectFailure(await cliInProcess(db, ['token', 'revoke', '--all', '--user', 'a@example.com']), 2, /exactly one of/);
  });

  it('prints help and the version with exit 0', async () => {
    const help = await runCli(['--help']);
    expect(help.exitCode).toBe(0);
    for (const command of ['serve', 'migrate', 'user', 'token', 'reset', 'entries']) expect(help.stdout).toContain(command);
    const userHelp = await runCliInProcess(['user', 'create', '--help']);
    expect(userHelp.stdout).toContain('--password-stdin');
    expect((await runCliInProcess(['--version'])).stdout).toMatch(/^0\.2\.0 \(commit ([0-9a-f]{12}(\+dirty)?|unknown)\)$/);
  });

  it('stops with exit 1 and one line naming the setting when a setting is bad', async () => {
    const db = tempDb();
    expectFailure(await cli(db, ['user', 'list'], { env: { LOCKOUT_DURATION: 'soon' } }), 1, /^timetrack: LOCKOUT_DURATION: /);
  });
});
