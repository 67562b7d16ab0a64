// Day-2 operations against real `serve` processes and the real binary: security events as their own
// log lines, the audit trail of admin commands (`audit list`), sessions with their client and key id
// (`token list`, `token revoke --id`), and the sessions of a retired signing secret deleted at start.
import { createHash } from 'node:crypto';
import os from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { PASSWORD } from '../support/app.js';
import { cli, createAccountWithCli, tempDb } from '../support/cli-accounts.js';
import { cliInProcess } from '../support/cli-in-process.js';
import { startServer, type RunningServer } from '../support/server.js';

const OLD_SECRET = 'the first signing secret, 32 bytes or more';
const NEW_SECRET = 'a second signing secret, also long enough!';
let server: RunningServer | undefined;

afterEach(async () => {
  await server?.stop();
  server = undefined;
});

async function login(email: string, password: string, userAgent = 'test-agent'): Promise<{ status: number; token?: string }> {
  const response = await fetch(`${server!.baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'user-agent': userAgent },
    body: JSON.stringify({ email, password }),
  });
  const body = (await response.json()) as { token?: string };
  return { status: response.status, token: body.token };
}

async function me(token: string): Promise<number> {
  return (await fetch(`${server!.baseUrl}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } })).status;
}

const securityLines = () =>
  server!
    .output()
    .split('\n')
    .filter((line) => line.includes('"security"'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('security events in the server log', () => {
  it('failed, locked and disabled logins and a password change each log their own line; an unknown identifier is never written', async () => {
    const db = tempDb();
    await createAccountWithCli(db, 'ann@example.com');
    await createAccountWithCli(db, 'bob@example.com');
    server = await startServer(db, { LOCKOUT_ATTEMPTS: '2' });
    expect((await login('nobody-here@example.com', 'a wrong password')).status).toBe(401);
    expect((await login('ann@example.com', 'a wrong password')).status).toBe(401);
    expect((await login('ann@example.com', 'a wrong password')).status).toBe(423);
    expect((await cliInProcess(db, ['user', 'disable', 'bob@example.com'])).exitCode).toBe(0);
    expect((await login('bob@example.com', PASSWORD)).status).toBe(403);
    expect((await cliInProcess(db, ['user', 'enable', 'bob@example.com'])).exitCode).toBe(0);
    const { token } = await login('bob@example.com', PASSWORD);
    const changed = await fetch(`${server.baseUrl}/api/auth/change-password`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ old_password: PASSWORD, new_password: 'another good passphrase' }),
    });
    expect(changed.status).toBe(200);

    const events = securityLines();
    expect(events.map((event) => event.security)).toEqual(['login_failed', 'login_failed', 'login_locked', 'login_disabled', 'password_changed']);
    // A keyed digest (docs/security.md, finding "log digest"): the unkeyed SHA-256 of what was typed,
    // which a dictionary would invert, is nowhere in the log.
    const unkeyed = createHash('sha256').update('nobody-here@example.com').digest('hex');
    expect(events[0]).toMatchObject({ client: '127.0.0.1', identifier_hmac: expect.stringMatching(/^[0-9a-f]{16}$/) });
    expect(String(events[0]?.identifier_hmac)).not.toBe(unkeyed.slice(0, 16));
    expect(server.output()).not.toContain(unkeyed.slice(0, 8));
    expect(server.output()).not.toContain('identifier_sha256');
    expect(server.output()).not.toContain('nobody-here');
    expect(events[4]).toMatchObject({ user_id: expect.any(Number), client: '127.0.0.1' });

    // The server's change is in the audit trail too, beside the admin commands.
    const audit = await cliInProcess(db, ['--json', 'audit', 'list', '--user', 'bob@example.com']);
    const actions = (JSON.parse(String(audit.stdout)) as { events: Array<{ action: string; actor: string }> }).events;
    expect(actions.map((event) => event.action)).toEqual(['password_changed', 'account_enabled', 'account_disabled', 'account_created']);
    expect(actions[0]?.actor).toMatch(/^user:\d+$/);
  });
});

describe('timetrack audit list', () => {
  it('shows what admin commands did, who ran them, newest first; --user and --since filter', async () => {
    const db = tempDb();
    await createAccountWithCli(db, 'ann@example.com');
    await createAccountWithCli(db, 'bob@example.com');
    expect((await cliInProcess(db, ['user', 'disable', 'ann@example.com'])).exitCode).toBe(0);
    expect((await cliInProcess(db, ['user', 'delete', 'bob@example.com', '--yes'])).exitCode).toBe(0);
    expect((await cliInProcess(db, ['token', 'revoke', '--all'])).exitCode).toBe(0);

    const all = await cli(db, ['--json', 'audit', 'list']);
    expect(all.exitCode).toBe(0);
    const events = (JSON.parse(String(all.stdout)) as { events: Array<Record<string, unknown>> }).events;
    expect(events.map((event) => [event.action, event.user_email])).toEqual([
      ['sessions_revoked', null],
      ['account_deleted', 'bob@example.com'],
      ['account_disabled', 'ann@example.com'],
      ['account_created', 'bob@example.com'],
      ['account_created', 'ann@example.com'],
    ]);
    expect(events[0]).toMatchObject({ actor: `os:${os.userInfo().username}`, detail: { by: 'all', revoked: 0 }, at: expect.stringMatching(/Z$/) });
    expect(events[2]).toMatchObject({ detail: { revoked_sessions: 0 } });

    // A deleted account's events are still found by its address.
    const bob = JSON.parse(String((await cliInProcess(db, ['--json', 'audit', 'list', '--user', 'BOB@example.com'])).stdout)) as { events: unknown[] };
    expect(bob.events).toHaveLength(2);
    const later = JSON.parse(String((await cliInProcess(db, ['--json', 'audit', 'list', '--since', '2999-01-01'])).stdout)) as { events: unknown[] };
    expect(later.events).toEqual([]);
    const text = await cliInProcess(db, ['audit', 'list', '--user', 'ann@example.com']);
    expect(String(text.stdout).split('\n')[0]).toMatch(/^\S+Z {2}account_disabled {2}by os:\S+ {2}ann@example.com/);
    expect((await cliInProcess(db, ['audit', 'list', '--since', 'last tuesday'])).exitCode).toBe(2);
  });
});

describe('sessions: client, key id, one device at a time', () => {
  it('token list shows client address and user agent; token revoke --id signs out that session only', async () => {
    const db = tempDb();
    await createAccountWithCli(db, 'ann@example.com');
    server = await startServer(db);
    const phone = await login('ann@example.com', PASSWORD, 'Phone/1.0');
    const laptop = await login('ann@example.com', PASSWORD, 'Laptop/2.0');
    const listed = await cli(db, ['--json', 'token', 'list', '--user', 'ann@example.com']);
    const sessions = (JSON.parse(String(listed.stdout)) as { sessions: Array<Record<string, unknown>> }).sessions;
    expect(sessions).toEqual([
      { id: expect.any(Number), created_at: expect.any(String), expires_at: expect.any(String), client_address: '127.0.0.1', user_agent: 'Phone/1.0' },
      { id: expect.any(Number), created_at: expect.any(String), expires_at: expect.any(String), client_address: '127.0.0.1', user_agent: 'Laptop/2.0' },
    ]);
    const text = await cliInProcess(db, ['token', 'list', '--user', 'ann@example.com']);
    expect(text.stdout).toMatch(/Phone\/1\.0/);

    const revoked = await cli(db, ['--json', 'token', 'revoke', '--id', String(sessions[0]?.id)]);
    expect(revoked.exitCode).toBe(0);
    expect(JSON.parse(String(revoked.stdout))).toEqual({ revoked: 1 });
    expect(await me(phone.token!)).toBe(401);
    expect(await me(laptop.token!)).toBe(200);
    const again = await cliInProcess(db, ['token', 'revoke', '--id', String(sessions[0]?.id)]);
    expect(again.exitCode).not.toBe(0);
    expect(again.stderr).toMatch(/no session with the id/);
  });

  it('binds each session to the key id of its secret; a start with another secret deletes them, and the old secret does not revive them', async () => {
    const db = tempDb();
    await createAccountWithCli(db, 'ann@example.com');
    server = await startServer(db, { JWT_SECRET: OLD_SECRET });
    const { token } = await login('ann@example.com', PASSWORD);
    const header = JSON.parse(Buffer.from(token!.split('.')[0]!, 'base64url').toString()) as { kid: string };
    expect(header.kid).toBe(createHash('sha256').update(OLD_SECRET).digest('hex').slice(0, 16));
    await server.stop();

    server = await startServer(db, { JWT_SECRET: NEW_SECRET });
    expect(server.output()).toMatch(/"deleted":1,"msg":"deleted the sessions of signing secrets no longer configured"/);
    const show = JSON.parse(String((await cliInProcess(db, ['--json', 'user', 'show', 'ann@example.com'], { env: { JWT_SECRET: NEW_SECRET } })).stdout)) as {
      user: { active_sessions: number };
    };
    expect(show.user.active_sessions).toBe(0);
    await server.stop();

    server = await startServer(db, { JWT_SECRET: OLD_SECRET });
    expect(await me(token!)).toBe(401);
    expect(server.output()).not.toMatch(/deleted the sessions of signing secrets/);
  });
});
