// The identity features through a real `timetrack serve` over HTTP (docs/api.md, "Your sessions",
// "API tokens", "Two-factor sign-in", "Closing your account"). Cases that need no database or setting
// of their own share one server, each with an account of its own.
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, makeTempDir, PASSWORD, TestClock } from '../support/app.js';
import { request } from '../support/requests.js';
import { sharedServer, startServer, uniqueEmail, type RunningServer } from '../support/server.js';
import { cli } from '../support/cli-accounts.js';
import { cliInProcess } from '../support/cli-in-process.js';
import { totpCode, wrongCode } from '../support/totp.js';

const running: RunningServer[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) await server.stop();
});

async function serve(env: Record<string, string> = {}, dbPath = path.join(makeTempDir(), 'timetrack.db')): Promise<RunningServer> {
  const server = await startServer(dbPath, env);
  running.push(server);
  return server;
}

const shared = async (): Promise<RunningServer> => (await sharedOne()).server;
const sharedOne = sharedServer();

interface Answer {
  status: number;
  body: any;
}

async function call(server: RunningServer, method: string, url: string, options: { body?: unknown; token?: string; userAgent?: string } = {}): Promise<Answer> {
  const response = await fetch(`${server.baseUrl}${url}`, {
    method,
    headers: {
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.userAgent ? { 'user-agent': options.userAgent } : {}),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined };
}

/** Registers an account; its id. */
async function registerAccount(server: RunningServer, email = 'ann@example.com'): Promise<number> {
  const registered = await call(server, 'POST', '/api/auth/register', { body: { email, password: PASSWORD, full_name: 'Ann' } });
  expect(registered.status).toBe(201);
  return registered.body.user.id as number;
}

async function signIn(server: RunningServer, email = 'ann@example.com', userAgent = 'curl/8.5.0'): Promise<string> {
  const answer = await call(server, 'POST', '/api/auth/login', { body: { email, password: PASSWORD }, userAgent });
  expect(answer.status).toBe(200);
  return answer.body.token as string;
}

describe('your sessions, against a real server', () => {
  it('lists them with device and address, revokes one and the others; a revoked one is 401 at once', async () => {
    const server = await shared();
    const email = uniqueEmail();
    await registerAccount(server, email);
    const laptop = await signIn(server, email, 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0');
    const phone = await signIn(
      server,
      email,
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
    );
    const script = await signIn(server, email);
    const { sessions } = (await call(server, 'GET', '/api/auth/sessions', { token: laptop })).body as {
      sessions: Array<{ id: number; device: string; address: string; current: boolean }>;
    };
    expect(sessions.map((s) => [s.device, s.address, s.current])).toEqual([
      ['curl', '127.0.0.1', false],
      ['Safari on iOS', '127.0.0.1', false],
      ['Firefox on Linux', '127.0.0.1', true],
    ]);
    expect((await call(server, 'DELETE', `/api/auth/sessions/${sessions[1]!.id}`, { token: laptop })).status).toBe(204);
    expect((await call(server, 'GET', '/api/auth/me', { token: phone })).status).toBe(401);
    expect((await call(server, 'POST', '/api/auth/sessions/revoke-others', { token: laptop })).body).toEqual({ revoked: 1, revoked_api_tokens: 0 });
    expect((await call(server, 'GET', '/api/time-entries', { token: script })).status).toBe(401);
    expect((await call(server, 'GET', '/api/auth/me', { token: laptop })).status).toBe(200);
  });
});

describe('API tokens, against a real server and the admin CLI', () => {
  it("a script's token reaches time tracking, never account management; token list --api and token revoke --api --id", async () => {
    const dbPath = path.join(makeTempDir(), 'timetrack.db');
    const server = await serve({}, dbPath);
    await registerAccount(server);
    const session = await signIn(server);
    const created = await call(server, 'POST', '/api/auth/api-tokens', {
      token: session,
      body: { name: 'nightly export', expires_in_days: 7, password: PASSWORD },
    });
    expect(created.status).toBe(201);
    const { token, id } = created.body as { token: string; id: number };
    expect(token).toMatch(/^ttpat_/);
    expect((await call(server, 'POST', '/api/time-entries/start', { token, body: { note: 'from a script' } })).status).toBe(201);
    expect((await call(server, 'GET', '/api/stats/today', { token })).body.running).toBe(true);
    expect((await call(server, 'GET', '/api/auth/me', { token })).body.user.email).toBe('ann@example.com');
    const refused = await call(server, 'POST', '/api/auth/change-password', {
      token,
      body: { old_password: PASSWORD, new_password: 'another fine passphrase' },
    });
    expect([refused.status, refused.body.code]).toEqual([403, 'FORBIDDEN_FOR_API_TOKEN']);

    // The list in process, the revocation (the same command family) through the binary (docs/testing.md, "How fast").
    const listed = await cliInProcess(dbPath, ['--json', 'token', 'list', '--api']);
    expect(listed.exitCode).toBe(0);
    expect(JSON.parse(listed.stdout as string)).toEqual({
      api_tokens: [
        {
          id,
          name: 'nightly export',
          created_at: expect.any(String),
          expires_at: expect.any(String),
          last_used_at: null,
          user_id: expect.any(Number),
          user_email: 'ann@example.com',
        },
      ],
    });
    expect(String(listed.stdout)).not.toContain(token);
    const text = await cliInProcess(dbPath, ['token', 'list', '--api', '--user', 'ann@example.com']);
    expect(String(text.stdout)).toMatch(/nightly export/);
    const revoked = await cli(dbPath, ['--json', 'token', 'revoke', '--api', '--id', String(id)]);
    expect([revoked.exitCode, JSON.parse(revoked.stdout as string)]).toEqual([0, { revoked: 1 }]);
    expect((await call(server, 'GET', '/api/time-entries/current', { token })).status).toBe(401);
    expect((await call(server, 'GET', '/api/time-entries/current', { token: session })).status).toBe(200);
    expect((await cliInProcess(dbPath, ['token', 'revoke', '--api', '--id', String(id)])).exitCode).toBe(3);
    const audit = JSON.parse((await cliInProcess(dbPath, ['--json', 'audit', 'list'])).stdout as string) as { events: Array<{ action: string }> };
    expect(audit.events.map((event) => event.action)).toEqual(expect.arrayContaining(['api_token_created', 'api_token_revoked']));
  });
});

/** Sets two-factor sign-in up and on through the API; the secret, recovery codes and the session. */
async function enableTwoFactorOn(server: RunningServer, session: string): Promise<{ secret: string; recoveryCodes: string[] }> {
  const setup = await call(server, 'POST', '/api/auth/2fa/setup', { token: session, body: { password: PASSWORD } });
  expect(setup.status).toBe(200);
  const enabled = await call(server, 'POST', '/api/auth/2fa/enable', { token: session, body: { code: totpCode(setup.body.secret, Date.now()) } });
  expect(enabled.status).toBe(200);
  return { secret: setup.body.secret, recoveryCodes: enabled.body.recovery_codes };
}

describe('two-factor sign-in, against a real server', () => {
  it('set-up, enable, the two-step sign-in with a code and with a recovery code, disable', async () => {
    const server = await shared();
    const email = uniqueEmail();
    await registerAccount(server, email);
    const session = await signIn(server, email);
    const other = await signIn(server, email);
    const { secret, recoveryCodes } = await enableTwoFactorOn(server, session);
    expect((await call(server, 'GET', '/api/auth/me', { token: other })).status).toBe(401);
    const password = await call(server, 'POST', '/api/auth/login', { body: { email, password: PASSWORD } });
    expect(password.status).toBe(200);
    expect(password.body).toEqual({ two_factor_required: true, challenge: expect.any(String), expires_at: expect.any(String) });
    // The code used to enable is spent: the next one is the code of a later step, the next step's (one
    // step of drift is accepted, docs/api.md), rather than waiting up to 30 s for the clock to reach it.
    const byRecovery = await call(server, 'POST', '/api/auth/login/2fa', { body: { challenge: password.body.challenge, code: recoveryCodes[0] } });
    expect(byRecovery.status).toBe(200);
    expect((await call(server, 'GET', '/api/auth/me', { token: byRecovery.body.token })).status).toBe(200);
    const again = await call(server, 'POST', '/api/auth/login', { body: { email, password: PASSWORD } });
    expect((await call(server, 'POST', '/api/auth/login/2fa', { body: { challenge: again.body.challenge, code: recoveryCodes[0] } })).status).toBe(403);
    const byCode = await call(server, 'POST', '/api/auth/login/2fa', {
      body: { challenge: again.body.challenge, code: totpCode(secret, Date.now() + 30_000) },
    });
    expect(byCode.status).toBe(200);
    const disabled = await call(server, 'POST', '/api/auth/2fa/disable', { token: session, body: { password: PASSWORD, code: recoveryCodes[1] } });
    expect(disabled.status).toBe(200);
    expect((await call(server, 'GET', '/api/auth/me', { token: byCode.body.token })).status).toBe(401);
    expect((await call(server, 'POST', '/api/auth/login', { body: { email, password: PASSWORD } })).body.token).toEqual(expect.any(String));
  });

  it('30 parallel wrong codes: at most 5 checked before the lock, the rest identical 423s', async () => {
    const server = await shared();
    const email = uniqueEmail();
    await registerAccount(server, email);
    const { secret } = await enableTwoFactorOn(server, await signIn(server, email));
    const { challenge } = (await call(server, 'POST', '/api/auth/login', { body: { email, password: PASSWORD } })).body;
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => call(server, 'POST', '/api/auth/login/2fa', { body: { challenge, code: wrongCode(secret, Date.now(), i) } })),
    );
    const checked = answers.filter((r) => r.status === 403);
    expect(checked.length).toBeLessThanOrEqual(4);
    expect(answers.filter((r) => r.status === 423).length).toBe(30 - checked.length);
    expect(new Set(answers.filter((r) => r.status === 423).map((r) => r.body.code))).toEqual(new Set(['ACCOUNT_LOCKED']));
    expect((await call(server, 'POST', '/api/auth/login/2fa', { body: { challenge, code: totpCode(secret, Date.now() + 30_000) } })).status).toBe(423);
  });
});

describe('operators, against real servers and the admin CLI', () => {
  it('user show says whether two-factor sign-in is on; user 2fa-reset turns it off, ends the sessions and is audited', async () => {
    const { server, dbPath } = await sharedOne();
    const email = uniqueEmail();
    await registerAccount(server, email);
    const session = await signIn(server, email);
    const show = async () => JSON.parse((await cliInProcess(dbPath, ['--json', 'user', 'show', email])).stdout as string).user;
    expect((await show()).two_factor).toBe(false);
    await enableTwoFactorOn(server, session);
    expect((await show()).two_factor).toBe(true);
    expect(String((await cliInProcess(dbPath, ['user', 'show', email])).stdout)).toMatch(/two-factor:\s+on/);
    const reset = await cli(dbPath, ['--json', 'user', '2fa-reset', email]);
    expect(reset.exitCode).toBe(0);
    expect(JSON.parse(reset.stdout as string)).toMatchObject({ user: { email, two_factor: false }, was_enabled: true, revoked_sessions: 1 });
    expect((await call(server, 'GET', '/api/auth/me', { token: session })).status).toBe(401);
    expect((await call(server, 'POST', '/api/auth/login', { body: { email, password: PASSWORD } })).body.token).toEqual(expect.any(String));
    const audit = JSON.parse((await cliInProcess(dbPath, ['--json', 'audit', 'list'])).stdout as string) as {
      events: Array<{ action: string; actor: string; detail: Record<string, unknown> }>;
    };
    expect(audit.events[0]).toMatchObject({
      action: 'two_factor_reset',
      actor: expect.stringMatching(/^os:/),
      detail: { was_enabled: true, revoked_sessions: 1 },
    });
    expect((await cliInProcess(dbPath, ['user', '2fa-reset', 'nobody@example.com'])).exitCode).toBe(3);
  });

  it('REQUIRE_2FA=true at start ends the sessions (and stops the API tokens) of accounts without it; sign-in then leads to set-up', async () => {
    // Before: an account with a session and an API token, made by an app in this process (argon2id, as
    // serve hashes; its clock the time now) on the database the server then starts on.
    const before = await createTestApp({ realHashing: true, clock: new TestClock(new Date()) });
    const dbPath = before.dbPath;
    let session: string;
    let token: string;
    try {
      const ask = async (url: string, payload: unknown, bearer?: string) => (await request(before.app, 'POST', url, { payload, token: bearer })).json();
      await ask('/api/auth/register', { email: 'ann@example.com', password: PASSWORD, full_name: 'Ann' });
      session = (await ask('/api/auth/login', { email: 'ann@example.com', password: PASSWORD })).token;
      token = (await ask('/api/auth/api-tokens', { name: 'script', expires_in_days: 1, password: PASSWORD }, session)).token;
    } finally {
      await before.close();
    }
    const after = await serve({ REQUIRE_2FA: 'true' }, dbPath);
    expect(after.output()).toMatch(/"deleted":1.*REQUIRE_2FA: ended the sessions of accounts without two-factor sign-in/);
    expect((await call(after, 'GET', '/api/auth/me', { token: session })).status).toBe(401);
    expect((await call(after, 'GET', '/api/time-entries', { token })).status).toBe(401);
    const login = await call(after, 'POST', '/api/auth/login', { body: { email: 'ann@example.com', password: PASSWORD } });
    expect(login.body).toEqual({ two_factor_setup_required: true, challenge: expect.any(String), expires_at: expect.any(String) });
    const { secret } = (await call(after, 'POST', '/api/auth/2fa/setup', { body: { challenge: login.body.challenge } })).body;
    const enabled = await call(after, 'POST', '/api/auth/2fa/enable', { body: { challenge: login.body.challenge, code: totpCode(secret, Date.now()) } });
    expect(enabled.status).toBe(200);
    expect((await call(after, 'GET', '/api/time-entries', { token })).status).toBe(200);
  });
});

describe('closing the account, against a real server', () => {
  it('the password deletes the account and its data; an API token may not; audited under its label', async () => {
    const { server, dbPath } = await sharedOne();
    const email = uniqueEmail();
    const id = await registerAccount(server, email);
    const session = await signIn(server, email);
    expect((await call(server, 'POST', '/api/time-entries/start', { token: session, body: {} })).status).toBe(201);
    const { token } = (await call(server, 'POST', '/api/auth/api-tokens', { token: session, body: { name: 'script', expires_in_days: 1, password: PASSWORD } }))
      .body;
    expect((await call(server, 'DELETE', '/api/auth/account', { token, body: { password: PASSWORD } })).body.code).toBe('FORBIDDEN_FOR_API_TOKEN');
    expect((await call(server, 'DELETE', '/api/auth/account', { token: session, body: { password: PASSWORD } })).status).toBe(204);
    expect((await call(server, 'GET', '/api/auth/me', { token: session })).status).toBe(401);
    expect((await call(server, 'GET', '/api/auth/me', { token })).status).toBe(401);
    expect((await cliInProcess(dbPath, ['user', 'show', email])).exitCode).toBe(3);
    const audit = JSON.parse((await cliInProcess(dbPath, ['--json', 'audit', 'list'])).stdout as string) as { events: Array<Record<string, unknown>> };
    expect(audit.events[0]).toMatchObject({ action: 'account_closed', user_id: id, user_email: `closed-account:${id}`, detail: {} });
    expect(JSON.stringify(audit)).not.toContain(email);
  });
});
