// The CLI tests' shared steps (test/support/cli-accounts.ts): a new database from `tempDb` is a copy
// of one the binary migrated, and an account made in such a database may be a copy of the file the
// binary left the first time (docs/testing.md, "How fast"). Never when the database holds anything else.
import { describe, expect, it } from 'vitest';
import { cli, createAccountWithCli, emailsIn, tempDb } from '../support/cli-accounts.js';
import { onPostgres } from '../support/database.js';

describe.skipIf(onPostgres)('createAccountWithCli on SQLite', () => {
  it('adds to a database that holds other accounts, never puts a kept file in its place', async () => {
    const first = tempDb();
    await createAccountWithCli(first, 'ann@example.com');
    await createAccountWithCli(tempDb(), 'bob@example.com');

    const db = tempDb();
    await createAccountWithCli(db, 'ann@example.com');
    await createAccountWithCli(db, 'bob@example.com');
    expect(emailsIn(db)).toEqual(['ann@example.com', 'bob@example.com']);
  });

  it('gives each new database its own account, with the username asked for', async () => {
    for (const db of [tempDb(), tempDb()]) {
      await createAccountWithCli(db, 'carla@example.com', ['--username', 'carla']);
      const result = await cli(db, ['--json', 'user', 'show', 'carla']);
      expect(result.exitCode).toBe(0);
      expect(JSON.parse(result.stdout as string)).toMatchObject({ user: { email: 'carla@example.com', username: 'carla' } });
    }
  });
});
