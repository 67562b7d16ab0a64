// `user set-password` and `user update`, and the username accepted wherever an e-mail address is.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD } from '../support/app.js';
import { cli, createAccountWithCli, expectFailure, tempDb } from '../support/cli-accounts.js';
import { cliInProcess } from '../support/cli-in-process.js';
import { startServer, type RunningServer } from '../support/server.js';
import { databaseLine } from '../support/database.js';

const NEW_PASSWORD = 'a brand new passphrase';
let db: string;
let server: RunningServer;

beforeAll(async () => {
  db = tempDb();
  await createAccountWithCli(db, 'ann@example.com', ['--username', 'ann']);
  await createAccountWithCli(db, 'bob@example.com', ['--username', 'bob']);
  server = await startServer(db, { LOCKOUT_ATTEMPTS: '2' });
});

afterAll(async () => {
  await server?.stop();
});

async function post(path: string, body: unknown) {
  const response = await fetch(`${server.baseUrl}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function me(token: string): Promise<number> {
  return (await fetch(`${server.baseUrl}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } })).status;
}

describe('timetrack user set-password', () => {
  it('sets the password by username, revokes sessions and pending reset tokens, clears the lock', async () => {
    const session = (await post('/api/auth/login', { email: 'ann@example.com', password: PASSWORD })).body.token as string;
    const reset = JSON.parse((await cliInProcess(db, ['--json', 'reset', 'issue', 'ann'])).stdout as string) as { reset_token: string };
    for (let i = 0; i < 2; i++) await post('/api/auth/login', { email: 'ann@example.com', password: 'wrong password!' });
    expect((await post('/api/auth/login', { email: 'ann@example.com', password: PASSWORD })).status).toBe(423);

    const result = await cli(db, ['user', 'set-password', 'ann', '--password-stdin'], { input: `${NEW_PASSWORD}\n` });
    expect(result.stderr).toBe('');
    expect(result.stdout).toBe(`set the password of ann@example.com; revoked 1 session(s) and any pending reset token; lock cleared\n${databaseLine(db)}`);

    expect(await me(session)).toBe(401);
    expect((await post('/api/auth/reset-password', { token: reset.reset_token, new_password: 'yet another passphrase' })).status).toBe(400);
    expect((await post('/api/auth/login', { email: 'ann@example.com', password: PASSWORD })).status).toBe(401);
    expect((await post('/api/auth/login', { email: 'ann@example.com', password: NEW_PASSWORD })).status).toBe(200);
  });

  it('applies the password rules and refuses to wait for a terminal that is not there', async () => {
    expectFailure(await cli(db, ['user', 'set-password', 'bob', '--password-stdin'], { input: 'short\n' }), 1, /password/i);
    expectFailure(await cli(db, ['user', 'set-password', 'bob']), 2, /not a terminal.*--password-stdin/);
    expectFailure(
      await cliInProcess(db, ['user', 'set-password', 'nobody', '--password-stdin'], { input: `${NEW_PASSWORD}\n` }),
      3,
      /no account with the username nobody/,
    );
  });
});

describe('timetrack user update', () => {
  it('changes e-mail, name and username with the checks of registration', async () => {
    const updated = await cli(db, ['--json', 'user', 'update', 'bob', '--email', 'Robert@Example.com', '--name', 'Robert', '--username', 'robert']);
    expect(updated.stderr).toBe('');
    expect(JSON.parse(updated.stdout as string)).toEqual({
      user: expect.objectContaining({ email: 'robert@example.com', full_name: 'Robert', username: 'robert' }),
    });
    expect((await post('/api/auth/login', { email: 'robert', password: PASSWORD })).status).toBe(200);

    expectFailure(await cli(db, ['user', 'update', 'robert', '--email', 'ann@example.com']), 1, /e-mail address already exists/);
    // The first refusal through the binary, the others through the same bundle in process (docs/testing.md, "How fast").
    expectFailure(await cliInProcess(db, ['user', 'update', 'robert', '--username', 'ANN']), 1, /username is already taken/);
    expectFailure(await cliInProcess(db, ['user', 'update', 'robert', '--email', 'not-an-address']), 1, /email must be an e-mail address/);
    expectFailure(await cliInProcess(db, ['user', 'update', 'robert', '--username', 'a b']), 1, /username must be/);
    expectFailure(await cliInProcess(db, ['user', 'update', 'robert']), 2, /at least one of --email, --name, --username/);

    const removed = JSON.parse((await cliInProcess(db, ['--json', 'user', 'update', 'robert@example.com', '--username', ''])).stdout as string) as {
      user: { username: string | null };
    };
    expect(removed.user.username).toBeNull();
  });
});
