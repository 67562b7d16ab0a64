// Roles from the shell, with the built binary (docs/cli.md, docs/teams.md): `user create --role`,
// `user role`, a role that does not exist, and the warning of `timetrack check` while no account is an
// active admin (serve's notice and setup link: test/teams/first-admin-setup-link.process.test.ts).
import { describe, expect, it } from 'vitest';
import { cli, createAccountWithCli, expectFailure, tempDb } from '../support/cli-accounts.js';
import { cliInProcess } from '../support/cli-in-process.js';

const NO_ADMIN = /no active admin: make one with `timetrack user role <account> admin`/;

describe('roles from the shell', () => {
  it('check warns while no active admin exists, and passes; user role makes one; an unknown role is refused', { timeout: 60_000 }, async () => {
    const db = tempDb();
    await createAccountWithCli(db, 'ann@example.com');
    // The first of each command through the binary, the other steps through the same bundle in process
    // (docs/testing.md, "How fast").
    const before = await cli(db, ['check']);
    expect(before.exitCode).toBe(0);
    expect(String(before.stdout)).toMatch(new RegExp(`^WARNING admin: ${NO_ADMIN.source}`, 'm'));
    expectFailure(await cli(db, ['user', 'role', 'ann@example.com', 'boss']), 1, /role must be one of admin, lead, member/);
    expectFailure(await cliInProcess(db, ['user', 'role', 'nobody@example.com', 'admin']), 3, /no account/);
    const made = await cli(db, ['--json', 'user', 'role', 'ann@example.com', 'admin']);
    expect(JSON.parse(String(made.stdout))).toMatchObject({ user: { email: 'ann@example.com', role: 'admin' }, from: 'member' });
    expect(String((await cliInProcess(db, ['check'])).stdout)).not.toMatch(NO_ADMIN);
    // A disabled admin is no active admin.
    expect(
      (
        await cliInProcess(db, ['user', 'create', '--email', 'bob@example.com', '--name', 'Bob', '--role', 'admin', '--password-stdin'], {
          input: 'correct horse battery staple\n',
        })
      ).exitCode,
    ).toBe(0);
    expect((await cliInProcess(db, ['user', 'disable', 'ann@example.com'])).exitCode).toBe(0);
    expectFailure(await cli(db, ['user', 'disable', 'bob@example.com']), 1, /last active admin/);
    expectFailure(
      await cliInProcess(db, ['user', 'create', '--email', 'cid@example.com', '--name', 'Cid', '--role', 'boss', '--password-stdin'], { input: 'x\n' }),
      1,
      /role must be one of/,
    );
  });
});
