// Every admin command acts on the database of a running `timetrack serve`, and the server's next
// request sees the change (WAL + busy timeout; no cache of accounts or sessions in the server).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD } from '../support/app.js';
import { startServer, type RunningServer } from '../support/server.js';
import { cli, createAccountWithCli, tempDb } from '../support/cli-accounts.js';
import { cliInProcess } from '../support/cli-in-process.js';
import { databaseLine } from '../support/database.js';

let db: string;
let server: RunningServer;

beforeAll(async () => {
  db = tempDb();
  for (const email of ['locked@example.com', 'revoke@example.com', 'reset@example.com', 'disable@example.com']) {
    await createAccountWithCli(db, email);
  }
  server = await startServer(db, { LOCKOUT_ATTEMPTS: '3' });
});

afterAll(async () => {
  await server?.stop();
});

async function post(path: string, body: unknown, token?: string) {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function login(email: string, password = PASSWORD) {
  return post('/api/auth/login', { email, password });
}

async function me(token: string): Promise<number> {
  return (await fetch(`${server.baseUrl}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } })).status;
}

async function tokenOf(email: string): Promise<string> {
  const response = await login(email);
  expect(response.status).toBe(200);
  return response.body.token as string;
}

describe('admin commands against a running server', () => {
  it('user unlock lets a locked account sign in at once', async () => {
    const statuses = [];
    for (let i = 0; i < 3; i++) statuses.push((await login('locked@example.com', 'wrong password!')).status);
    expect(statuses).toEqual([401, 401, 423]);
    expect((await login('locked@example.com')).status).toBe(423);

    const shown = JSON.parse((await cliInProcess(db, ['--json', 'user', 'show', 'locked@example.com'])).stdout as string);
    expect(shown.user.failed_attempts).toBe(3);
    expect(shown.user.locked_until).toEqual(expect.any(String));

    const unlocked = await cli(db, ['user', 'unlock', 'locked@example.com']);
    expect(unlocked.exitCode).toBe(0);
    expect(unlocked.stdout).toBe(`unlocked locked@example.com\n${databaseLine(db)}`);
    expect((await login('locked@example.com')).status).toBe(200);
  });

  it('token revoke --token, --user and --all make the next request 401', async () => {
    const first = await tokenOf('revoke@example.com');
    const second = await tokenOf('revoke@example.com');
    const other = await tokenOf('reset@example.com');

    const listed = JSON.parse((await cliInProcess(db, ['--json', 'token', 'list', '--user', 'revoke@example.com'])).stdout as string) as {
      sessions: Array<Record<string, unknown>>;
    };
    expect(listed.sessions).toHaveLength(2);
    expect(Object.keys(listed.sessions[0]!).sort()).toEqual(['client_address', 'created_at', 'expires_at', 'id', 'user_agent']);

    const byToken = await cli(db, ['--json', 'token', 'revoke', '--token', first]);
    expect(JSON.parse(byToken.stdout as string)).toEqual({ revoked: 1 });
    expect(await me(first)).toBe(401);
    expect(await me(second)).toBe(200);

    const third = await tokenOf('revoke@example.com');
    // The first revoke through the binary, the others through the same bundle in process: still another
    // process than the server, which must see each change (docs/testing.md, "How fast").
    const byUser = await cliInProcess(db, ['token', 'revoke', '--user', 'revoke@example.com']);
    expect(byUser.stdout).toBe(`revoked 2 session(s) and 0 API token(s)\n${databaseLine(db)}`);
    expect(await me(second)).toBe(401);
    expect(await me(third)).toBe(401);
    expect(await me(other)).toBe(200);

    const all = await cliInProcess(db, ['token', 'revoke', '--all']);
    expect(all.exitCode).toBe(0);
    expect(await me(other)).toBe(401);
  });

  it('reset issue gives a token that reset-password accepts, once', async () => {
    const issued = await cli(db, ['--json', 'reset', 'issue', 'reset@example.com']);
    expect(issued.exitCode).toBe(0);
    const body = JSON.parse(issued.stdout as string) as { reset_token: string; reset_url: string; expires_at: string };
    expect(body.reset_url).toBe(`http://127.0.0.1:8080/password-reset?token=${body.reset_token}`);
    expect(new Date(body.expires_at).getTime()).toBeGreaterThan(Date.now());

    const newPassword = 'a brand new passphrase';
    expect((await post('/api/auth/reset-password', { token: body.reset_token, new_password: newPassword })).status).toBe(200);
    expect((await post('/api/auth/reset-password', { token: body.reset_token, new_password: newPassword })).body.code).toBe('INVALID_RESET_TOKEN');
    expect((await login('reset@example.com', newPassword)).status).toBe(200);
  });

  it('user disable revokes live sessions and login answers 403 ACCOUNT_DISABLED; enable restores it', async () => {
    const token = await tokenOf('disable@example.com');
    const disabled = JSON.parse((await cli(db, ['--json', 'user', 'disable', 'disable@example.com'])).stdout as string);
    expect(disabled.revoked_sessions).toBe(1);
    expect(await me(token)).toBe(401);
    const refused = await login('disable@example.com');
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('ACCOUNT_DISABLED');

    expect((await cliInProcess(db, ['user', 'enable', 'disable@example.com'])).exitCode).toBe(0);
    expect((await login('disable@example.com')).status).toBe(200);
  });
});
