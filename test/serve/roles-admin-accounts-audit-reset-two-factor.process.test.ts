// An admin's actions on accounts against a real `serve`, on both engines (docs/api.md "Users" and
// "Audit trail"; docs/teams.md): disable, enable, unlock, a reset link, a two-factor reset and the
// audit trail are for admins with a session only (another account: 404 for a lead or a member, their
// own: 403; an API token: 403 FORBIDDEN_FOR_API_TOKEN); each does what its command does and is audited
// with the admin as its actor (`user:<id>`); an admin cannot disable their own account (403).
import { afterEach, describe, expect, it } from 'vitest';
import { PASSWORD } from '../support/app.js';
import { createAccountWithCli, tempDb } from '../support/cli-accounts.js';
import { cliInProcess } from '../support/cli-in-process.js';
import { callJson, startServer, type RunningServer } from '../support/server.js';
import { resetLinkOf, startSmtpServer, type TestSmtpServer } from '../support/smtp.js';
import { totpCode } from '../support/totp.js';

let server: RunningServer | undefined;
let smtp: TestSmtpServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
  await smtp?.close();
  smtp = undefined;
});

async function signIn(email: string, password = PASSWORD): Promise<string> {
  const answer = await callJson(server!, 'POST', '/api/auth/login', { email, password });
  expect(answer.status).toBe(200);
  return (answer.body as { token: string }).token;
}

async function idOf(token: string): Promise<number> {
  return ((await callJson(server!, 'GET', '/api/auth/me', undefined, token)).body as { user: { id: number } }).user.id;
}

const ACTIONS = ['disable', 'enable', 'unlock', 'reset-link', 'two-factor-reset'] as const;

interface AuditEvent {
  action: string;
  actor: string;
  user_id: number | null;
  user_email: string | null;
  detail: Record<string, unknown>;
}

describe('an admin administers accounts', () => {
  it('only an admin with a session; each action as its command, audited with user:<id>', { timeout: 180_000 }, async () => {
    const db = tempDb();
    await createAccountWithCli(db, 'ann@example.com', ['--role', 'admin']);
    await createAccountWithCli(db, 'bob@example.com');
    await createAccountWithCli(db, 'cid@example.com', ['--role', 'lead']);
    await createAccountWithCli(db, 'dee@example.com', ['--role', 'admin']);
    server = await startServer(db, { LOCKOUT_ATTEMPTS: '2' }, ['--dev']);
    const ann = await signIn('ann@example.com');
    let bob = await signIn('bob@example.com');
    const cid = await signIn('cid@example.com');
    const [annId, bobId, cidId] = [await idOf(ann), await idOf(bob), await idOf(cid)];

    // A member or a lead: another account is 404 (ids tell nobody who exists), their own 403; the trail 403.
    for (const token of [bob, cid]) {
      for (const action of ACTIONS) {
        expect(await callJson(server, 'POST', `/api/users/${annId}/${action}`, undefined, token)).toMatchObject({ status: 404 });
        expect(await callJson(server, 'POST', `/api/users/999999/${action}`, undefined, token)).toMatchObject({ status: 404 });
      }
      expect((await callJson(server, 'GET', '/api/audit', undefined, token)).body).toMatchObject({ statusCode: 403, code: 'FORBIDDEN' });
    }
    for (const action of ACTIONS) {
      expect((await callJson(server, 'POST', `/api/users/${bobId}/${action}`, undefined, bob)).body).toMatchObject({ statusCode: 403, code: 'FORBIDDEN' });
      expect((await callJson(server, 'POST', `/api/users/${cidId}/${action}`, undefined, cid)).body).toMatchObject({ statusCode: 403, code: 'FORBIDDEN' });
    }

    // An API token of the admin administers nothing.
    const created = await callJson(server, 'POST', '/api/auth/api-tokens', { name: 'script', expires_in_days: 30, password: PASSWORD }, ann);
    const apiToken = (created.body as { token: string }).token;
    for (const action of ACTIONS) {
      expect((await callJson(server, 'POST', `/api/users/${bobId}/${action}`, undefined, apiToken)).body).toMatchObject({
        statusCode: 403,
        code: 'FORBIDDEN_FOR_API_TOKEN',
      });
    }
    expect((await callJson(server, 'GET', '/api/audit', undefined, apiToken)).body).toMatchObject({ statusCode: 403, code: 'FORBIDDEN_FOR_API_TOKEN' });

    // Their own account: an admin cannot disable it (403), though another admin is active.
    expect((await callJson(server, 'POST', `/api/users/${annId}/disable`, undefined, ann)).body).toMatchObject({ statusCode: 403, code: 'FORBIDDEN' });
    expect((await callJson(server, 'GET', '/api/auth/me', undefined, ann)).status).toBe(200);
    expect((await callJson(server, 'POST', '/api/users/999999/disable', undefined, ann)).body).toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });

    // Unlock: two wrong passwords lock Bob; the admin clears the lock and Bob signs in.
    for (let i = 0; i < 2; i += 1) await callJson(server, 'POST', '/api/auth/login', { email: 'bob@example.com', password: 'wrong password' });
    expect((await callJson(server, 'POST', '/api/auth/login', { email: 'bob@example.com', password: PASSWORD })).body).toMatchObject({
      code: 'ACCOUNT_LOCKED',
    });
    const listed = await callJson(server, 'GET', '/api/users?q=bob', undefined, ann);
    expect(listed.body.users[0]).toMatchObject({ email: 'bob@example.com', role: 'member', status: 'active', two_factor: false });
    expect(listed.body.users[0].locked_until).not.toBeNull();
    expect(listed.body.users[0].last_sign_in_at).toEqual(expect.any(String));
    expect((await callJson(server, 'POST', `/api/users/${bobId}/unlock`, undefined, ann)).body).toMatchObject({ user: { id: bobId, locked_until: null } });
    bob = await signIn('bob@example.com');

    // A two-factor reset: Bob's two-factor sign-in goes off, and with it his sessions.
    const setup = await callJson(server, 'POST', '/api/auth/2fa/setup', { password: PASSWORD }, bob);
    expect((await callJson(server, 'POST', '/api/auth/2fa/enable', { code: totpCode(setup.body.secret as string, Date.now()) }, bob)).status).toBe(200);
    expect((await callJson(server, 'GET', '/api/users?q=bob', undefined, ann)).body.users[0]).toMatchObject({ two_factor: true });
    const reset2fa = await callJson(server, 'POST', `/api/users/${bobId}/two-factor-reset`, undefined, ann);
    expect(reset2fa.body).toMatchObject({ user: { two_factor: false }, was_enabled: true });
    expect(reset2fa.body.revoked_sessions).toBeGreaterThanOrEqual(1);
    expect((await callJson(server, 'GET', '/api/auth/me', undefined, bob)).status).toBe(401);

    // A reset link: in dev mode it is in the answer too, and it works.
    const link = await callJson(server, 'POST', `/api/users/${bobId}/reset-link`, undefined, ann);
    expect(link.body).toMatchObject({ delivery: 'terminal', reset_token: expect.any(String), reset_url: expect.stringContaining('/password-reset?token=') });
    const newPassword = 'a new password for Bob 7';
    expect((await callJson(server, 'POST', '/api/auth/reset-password', { token: link.body.reset_token, new_password: newPassword })).status).toBe(200);
    bob = await signIn('bob@example.com', newPassword);

    // Disable: Bob's sessions end and he cannot sign in; no link for a disabled account; enable again.
    const disabled = await callJson(server, 'POST', `/api/users/${bobId}/disable`, undefined, ann);
    expect(disabled.body).toMatchObject({ user: { id: bobId, status: 'disabled' }, revoked_sessions: 1 });
    expect((await callJson(server, 'GET', '/api/auth/me', undefined, bob)).status).toBe(401);
    expect((await callJson(server, 'POST', '/api/auth/login', { email: 'bob@example.com', password: newPassword })).body).toMatchObject({
      code: 'ACCOUNT_DISABLED',
    });
    expect((await callJson(server, 'POST', `/api/users/${bobId}/reset-link`, undefined, ann)).body).toMatchObject({ code: 'ACCOUNT_DISABLED' });
    expect((await callJson(server, 'GET', '/api/users?q=bob', undefined, ann)).body.users[0]).toMatchObject({ status: 'disabled' });
    expect((await callJson(server, 'POST', `/api/users/${bobId}/enable`, undefined, ann)).body).toMatchObject({ user: { status: 'active' } });
    await signIn('bob@example.com', newPassword);

    // The trail: the admin as the actor of each change; by account (id or address), actor, action, date; paged.
    const actor = `user:${annId}`;
    const mine = await callJson(server, 'GET', `/api/audit?actor=${encodeURIComponent(actor)}`, undefined, ann);
    expect(mine.status).toBe(200);
    expect((mine.body.events as AuditEvent[]).map((event) => [event.action, event.user_email])).toEqual([
      ['account_enabled', 'bob@example.com'],
      ['account_disabled', 'bob@example.com'],
      ['reset_issued', 'bob@example.com'],
      ['two_factor_reset', 'bob@example.com'],
      ['account_unlocked', 'bob@example.com'],
      ['api_token_created', 'ann@example.com'],
    ]);
    expect((mine.body.events as AuditEvent[])[1]!.detail).toEqual({ revoked_sessions: 1 });
    const byId = await callJson(server, 'GET', `/api/audit?user=${bobId}&action=account_disabled`, undefined, ann);
    const byEmail = await callJson(server, 'GET', `/api/audit?user=bob%40example.com&action=account_disabled`, undefined, ann);
    expect(byId.body.events).toHaveLength(1);
    expect(byEmail.body.events).toEqual(byId.body.events);
    expect(byId.body.events[0]).toMatchObject({ actor, user_id: bobId });
    const pages: AuditEvent[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const page = await callJson(server, 'GET', `/api/audit?actor=${encodeURIComponent(actor)}&limit=4${cursor ? `&cursor=${cursor}` : ''}`, undefined, ann);
      expect(page.status).toBe(200);
      pages.push(...(page.body.events as AuditEvent[]));
      cursor = page.body.next_cursor as string | null;
    }
    expect(pages).toEqual(mine.body.events);
    const today = new Date().toISOString().slice(0, 10);
    expect((await callJson(server, 'GET', `/api/audit?actor=${actor}&from=${today}&to=${today}`, undefined, ann)).body.events).toHaveLength(6);
    expect((await callJson(server, 'GET', `/api/audit?actor=${actor}&to=2000-01-01`, undefined, ann)).body.events).toEqual([]);
    expect((await callJson(server, 'GET', '/api/audit?user=nobody%40example.com', undefined, ann)).status).toBe(404);

    // The commands keep their own actor (os:<login>) in the same trail.
    expect((await cliInProcess(db, ['user', 'disable', 'cid@example.com'])).exitCode).toBe(0);
    const fromShell = await callJson(server, 'GET', `/api/audit?user=cid%40example.com&action=account_disabled`, undefined, ann);
    expect((fromShell.body.events as AuditEvent[])[0]!.actor).toMatch(/^os:/);
  });

  it('a reset link is mailed in production and never in the answer; without SMTP none is issued', { timeout: 120_000 }, async () => {
    const db = tempDb();
    await createAccountWithCli(db, 'ann@example.com', ['--role', 'admin']);
    await createAccountWithCli(db, 'bob@example.com');
    server = await startServer(db);
    let ann = await signIn('ann@example.com');
    const bobId = (await callJson(server, 'GET', '/api/users?q=bob', undefined, ann)).body.users[0].id as number;
    expect((await callJson(server, 'POST', `/api/users/${bobId}/reset-link`, undefined, ann)).body).toMatchObject({
      statusCode: 500,
      code: 'SERVER_MISCONFIGURED',
    });
    await server.stop();

    smtp = await startSmtpServer();
    server = await startServer(db, { SMTP_HOST: '127.0.0.1', SMTP_PORT: String(smtp.port), SMTP_FROM: 'timetrack@example.org', NEW_DEVICE_NOTICE: 'false' });
    ann = await signIn('ann@example.com');
    const link = await callJson(server, 'POST', `/api/users/${bobId}/reset-link`, undefined, ann);
    expect(link.status).toBe(200);
    expect(link.body).toEqual({ delivery: 'mail', expires_at: expect.any(String) });
    const mail = await smtp.waitForMessage(1);
    expect(mail.to).toEqual(['bob@example.com']);
    const token = resetLinkOf(mail).searchParams.get('token');
    expect((await callJson(server, 'POST', '/api/auth/reset-password', { token, new_password: 'a new password for Bob 7' })).status).toBe(200);
    const trail = await callJson(server, 'GET', `/api/audit?user=${bobId}&action=reset_issued`, undefined, ann);
    expect(trail.body.events).toMatchObject([{ actor: `user:${await idOf(ann)}`, detail: { delivery: 'mail' } }]);
  });
});
