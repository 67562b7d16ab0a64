// The first admin from the browser (docs/teams.md, "The first admin"): while no account is an active
// admin, `serve` prints a one-time setup link at its start; a registration through it makes an admin,
// even with REGISTRATION=closed, and uses up every link; a registration without it makes a member.
// On PostgreSQL, registrations through the links of two `serve` processes race: exactly one admin.
import { afterEach, describe, expect, it } from 'vitest';
import { PASSWORD } from '../support/app.js';
import { tempDb } from '../support/cli-accounts.js';
import { onPostgres, queryRows } from '../support/database.js';
import { callJson, startServer, type RunningServer } from '../support/server.js';

const running: RunningServer[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) await server.stop();
});

async function serveAndReadLink(db: string, env: Record<string, string> = {}): Promise<{ server: RunningServer; token: string | undefined }> {
  const server = await startServer(db, { PUBLIC_URL: 'https://time.example.com', ...env });
  running.push(server);
  while (!server.output().includes('timetrack started')) await new Promise((resolve) => setTimeout(resolve, 20));
  const link = /https:\/\/time\.example\.com\/register\?setup=([A-Za-z0-9_-]{43})/.exec(server.output());
  return { server, token: link?.[1] };
}

const account = (email: string) => ({ email, password: PASSWORD, full_name: email.split('@')[0] });

describe('the first admin through the setup link serve prints', () => {
  it('makes an admin through the link only, once, even with registration closed; no link once an admin exists', { timeout: 90_000 }, async () => {
    const db = tempDb();
    const { server, token } = await serveAndReadLink(db, { REGISTRATION: 'closed' });
    expect(token).toBeDefined();
    expect(server.output()).toMatch(/no active admin: to make the first admin account, open https:\/\/time\.example\.com\/register\?setup=/);

    expect(await callJson(server, 'GET', `/api/auth/setup-link?token=${token}`)).toMatchObject({ status: 200, body: { valid: true } });
    const wrong = `${token!.slice(0, -2)}xx`;
    expect(await callJson(server, 'GET', `/api/auth/setup-link?token=${wrong}`)).toMatchObject({ status: 400, body: { code: 'INVALID_SETUP_LINK' } });
    // Registration is closed: without the link nobody gets in, with a wrong one neither.
    expect(await callJson(server, 'POST', '/api/auth/register', account('eve@example.com'))).toMatchObject({
      status: 403,
      body: { code: 'REGISTRATION_CLOSED' },
    });
    expect(await callJson(server, 'POST', '/api/auth/register', { ...account('eve@example.com'), setup_token: wrong })).toMatchObject({
      status: 400,
      body: { code: 'INVALID_SETUP_LINK' },
    });
    // A weak password is the registration's refusal, and leaves the link usable.
    expect(await callJson(server, 'POST', '/api/auth/register', { ...account('ann@example.com'), password: 'short', setup_token: token })).toMatchObject({
      status: 400,
    });

    const made = await callJson(server, 'POST', '/api/auth/register', { ...account('ann@example.com'), setup_token: token });
    expect(made.status).toBe(201);
    const login = await callJson(server, 'POST', '/api/auth/login', { email: 'ann@example.com', password: PASSWORD });
    expect((await callJson(server, 'GET', '/api/auth/me', undefined, login.body.token)).body).toMatchObject({
      user: { email: 'ann@example.com' },
      role: 'admin',
    });
    const audit = await queryRows<{ action: string; actor: string }>(db, 'select action, actor from audit_events');
    expect(audit).toContainEqual({ action: 'role_changed', actor: `user:${made.body.user.id}` });

    // Used up: the same link again, and the check of it, refused in words.
    expect(await callJson(server, 'POST', '/api/auth/register', { ...account('eve@example.com'), setup_token: token })).toMatchObject({
      status: 400,
      body: { code: 'INVALID_SETUP_LINK', message: expect.stringMatching(/admin exists already/) },
    });
    expect((await callJson(server, 'GET', `/api/auth/setup-link?token=${token}`)).status).toBe(400);
    expect(await queryRows(db, 'select token_hash from admin_setup_links')).toEqual([]);

    // The next start prints no link: an admin exists.
    await server.stop();
    running.splice(0);
    const again = await serveAndReadLink(db);
    expect(again.token).toBeUndefined();
    expect(again.server.output()).not.toMatch(/no active admin/);
  });

  it('a registration without the link is a member; of parallel registrations through the links, exactly one is the admin', { timeout: 120_000 }, async () => {
    const db = tempDb();
    // On PostgreSQL two processes, each with its own link; on SQLite one process.
    const servers = onPostgres ? await Promise.all([serveAndReadLink(db), serveAndReadLink(db)]) : [await serveAndReadLink(db)];
    const member = await callJson(servers[0]!.server, 'POST', '/api/auth/register', account('mia@example.com'));
    expect(member.status).toBe(201);
    expect(await queryRows(db, "select role from users where email = 'mia@example.com'")).toEqual([{ role: 'member' }]);

    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => {
        const { server, token } = servers[i % servers.length]!;
        return callJson(server, 'POST', '/api/auth/register', { ...account(`admin${i}@example.com`), setup_token: token });
      }),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
    for (const answer of answers) if (answer.status !== 201) expect(answer.body.code).toBe('INVALID_SETUP_LINK');
    expect(await queryRows(db, "select email from users where role = 'admin'")).toHaveLength(1);
    expect(await queryRows(db, "select email from users where email like 'admin%'")).toHaveLength(1);
  });
});
