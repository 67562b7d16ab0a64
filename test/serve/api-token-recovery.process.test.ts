// Every recovery step ends the account's API tokens too, through a real `timetrack serve` and the built
// CLI (docs/security.md, "API tokens"; docs/api.md, "API tokens"): a token made by whoever held the
// account must not outlive a reset, a new password, "sign out all other devices" or a disabled account.
// A new token takes the password (and a code) again and mails the owner; token and session changes
// are budgeted per account (docs/security.md, "the audit trail grows with no-ops").
//
// The cases share one server (with a real SMTP server), each case with accounts of its own; only
// `token revoke --all`, which counts everything in its database, has one to itself.
import { describe, expect, it } from 'vitest';
import { PASSWORD } from '../support/app.js';
import { sharedServer, uniqueEmail, type RunningServer } from '../support/server.js';
import { cli } from '../support/cli-accounts.js';
import { cliInProcess } from '../support/cli-in-process.js';
import { sharedMailingServer } from '../support/mailing-server.js';
import { resetLinkOf, type TestSmtpServer } from '../support/smtp.js';
import { totpCode, wrongCode } from '../support/totp.js';

const NEW_PASSWORD = 'another fine passphrase';

const plain = sharedMailingServer();

/** The server, and its SMTP server (started with it). */
async function withMail(): Promise<{ server: RunningServer; mail: TestSmtpServer }> {
  const { server, smtp } = await plain();
  return { server, mail: smtp };
}

async function call(
  server: RunningServer,
  method: string,
  url: string,
  options: { body?: unknown; token?: string } = {},
): Promise<{ status: number; body: any; retryAfter: string | null }> {
  const response = await fetch(`${server.baseUrl}${url}`, {
    method,
    headers: {
      ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? JSON.parse(text) : undefined, retryAfter: response.headers.get('retry-after') };
}

interface AuditEvent {
  action: string;
  detail: Record<string, unknown>;
}

/** The audit trail of one account through the built CLI, newest first. */
async function auditEvents(dbPath: string, email: string): Promise<AuditEvent[]> {
  return (JSON.parse((await cliInProcess(dbPath, ['--json', 'audit', 'list', '--user', email])).stdout as string) as { events: AuditEvent[] }).events;
}

/** Registers an account, signs in and makes an API token; answers the session and the token (checked to work). */
async function accountWithToken(server: RunningServer, email: string): Promise<{ session: string; apiToken: string }> {
  expect((await call(server, 'POST', '/api/auth/register', { body: { email, password: PASSWORD, full_name: 'Ann' } })).status).toBe(201);
  const login = await call(server, 'POST', '/api/auth/login', { body: { email, password: PASSWORD } });
  expect(login.status).toBe(200);
  const session = login.body.token as string;
  const created = await call(server, 'POST', '/api/auth/api-tokens', {
    token: session,
    body: { name: 'left by an intruder', expires_in_days: 365, password: PASSWORD },
  });
  expect(created.status).toBe(201);
  const apiToken = created.body.token as string;
  expect((await call(server, 'GET', '/api/time-entries/current', { token: apiToken })).status).toBe(200);
  return { session, apiToken };
}

describe('recovery ends API tokens, against a real server', () => {
  it('change-password ends every API token of the account (the calling session stays)', async () => {
    const { server } = await plain();
    const { session, apiToken } = await accountWithToken(server, uniqueEmail());
    const changed = await call(server, 'POST', '/api/auth/change-password', { token: session, body: { old_password: PASSWORD, new_password: NEW_PASSWORD } });
    expect(changed.status).toBe(200);
    expect((await call(server, 'GET', '/api/time-entries/current', { token: apiToken })).status).toBe(401);
    expect((await call(server, 'GET', '/api/time-entries/current', { token: session })).status).toBe(200);
  });

  it('change-password with revoke_api_tokens: false keeps the API tokens (the other sessions still end); the audit row says how many ended', async () => {
    const { server, dbPath } = await plain();
    const email = uniqueEmail();
    const { session, apiToken } = await accountWithToken(server, email);
    const other = (await call(server, 'POST', '/api/auth/login', { body: { email, password: PASSWORD } })).body.token as string;
    const kept = await call(server, 'POST', '/api/auth/change-password', {
      token: session,
      body: { old_password: PASSWORD, new_password: NEW_PASSWORD, revoke_api_tokens: false },
    });
    expect(kept.status).toBe(200);
    expect((await call(server, 'GET', '/api/time-entries/current', { token: apiToken })).status).toBe(200);
    expect((await call(server, 'GET', '/api/auth/me', { token: other })).status).toBe(401);
    const ended = await call(server, 'POST', '/api/auth/change-password', {
      token: session,
      body: { old_password: NEW_PASSWORD, new_password: PASSWORD, revoke_api_tokens: true },
    });
    expect(ended.status).toBe(200);
    expect((await call(server, 'GET', '/api/time-entries/current', { token: apiToken })).status).toBe(401);
    const changes = (await auditEvents(dbPath, email)).filter((event) => event.action === 'password_changed');
    expect(changes.map((event) => event.detail.api_tokens)).toEqual([1, 'kept']); // newest first
  });

  it('"sign out all other devices" ends the API tokens too, unless revoke_api_tokens is false; the answer and the audit row say how many', async () => {
    const { server, dbPath } = await plain();
    const email = uniqueEmail();
    const { session, apiToken } = await accountWithToken(server, email);
    await call(server, 'POST', '/api/auth/login', { body: { email, password: PASSWORD } });
    const kept = await call(server, 'POST', '/api/auth/sessions/revoke-others', { token: session, body: { revoke_api_tokens: false } });
    expect(kept.body).toEqual({ revoked: 1, revoked_api_tokens: 0 });
    expect((await call(server, 'GET', '/api/time-entries/current', { token: apiToken })).status).toBe(200);
    // No body at all is the default: the tokens end.
    expect((await call(server, 'POST', '/api/auth/sessions/revoke-others', { token: session })).body).toEqual({ revoked: 0, revoked_api_tokens: 1 });
    expect((await call(server, 'GET', '/api/time-entries/current', { token: apiToken })).status).toBe(401);
    const rows = (await auditEvents(dbPath, email)).filter((event) => event.action === 'sessions_revoked');
    expect(rows.map((event) => [event.detail.others, event.detail.api_tokens])).toEqual([
      [0, 1],
      [1, 0],
    ]);
  });

  it('`user set-password` through the built CLI ends every API token', async () => {
    const { server, dbPath } = await plain();
    const email = uniqueEmail();
    const { apiToken } = await accountWithToken(server, email);
    const result = await cliInProcess(dbPath, ['user', 'set-password', email, '--password-stdin'], { input: `${NEW_PASSWORD}\n` });
    expect(result.exitCode).toBe(0);
    expect((await call(server, 'GET', '/api/time-entries/current', { token: apiToken })).status).toBe(401);
    expect(JSON.parse((await cliInProcess(dbPath, ['--json', 'token', 'list', '--api', '--user', email])).stdout as string)).toEqual({ api_tokens: [] });
  });

  it('`user disable` through the built CLI ends every API token; `user enable` does not bring one back', async () => {
    const { server, dbPath } = await plain();
    const email = uniqueEmail();
    const { apiToken } = await accountWithToken(server, email);
    expect((await cliInProcess(dbPath, ['user', 'disable', email])).exitCode).toBe(0);
    expect((await cliInProcess(dbPath, ['user', 'enable', email])).exitCode).toBe(0);
    expect((await call(server, 'GET', '/api/time-entries/current', { token: apiToken })).status).toBe(401);
    expect(JSON.parse((await cliInProcess(dbPath, ['--json', 'token', 'list', '--api', '--user', email])).stdout as string)).toEqual({ api_tokens: [] });
  });

  describe('on a database of its own (`--all` counts every account)', () => {
    const own = sharedServer();
    it('`token revoke --user` and `--all` through the built CLI end API tokens too, and say how many', async () => {
      const { server, dbPath } = await own();
      const { apiToken } = await accountWithToken(server, 'ann@example.com');
      // `--user` in process, `--all` (the same command) through the binary (docs/testing.md, "How fast").
      const byUser = await cliInProcess(dbPath, ['--json', 'token', 'revoke', '--user', 'ann@example.com']);
      expect([byUser.exitCode, JSON.parse(byUser.stdout as string)]).toEqual([0, { revoked: 1, revoked_api_tokens: 1 }]);
      expect((await call(server, 'GET', '/api/time-entries/current', { token: apiToken })).status).toBe(401);
      const login = await call(server, 'POST', '/api/auth/login', { body: { email: 'ann@example.com', password: PASSWORD } });
      const again = await call(server, 'POST', '/api/auth/api-tokens', {
        token: login.body.token,
        body: { name: 'second', expires_in_days: 30, password: PASSWORD },
      });
      expect(again.status).toBe(201);
      const all = await cli(dbPath, ['token', 'revoke', '--all']);
      expect(String(all.stdout)).toMatch(/^revoked 1 session\(s\) and 1 API token\(s\)$/m);
      expect((await call(server, 'GET', '/api/time-entries/current', { token: again.body.token })).status).toBe(401);
    });
  });

  it('a password reset by e-mail link ends every API token', async () => {
    const { server, mail } = await withMail();
    const email = uniqueEmail();
    const { apiToken } = await accountWithToken(server, email);
    expect((await call(server, 'POST', '/api/auth/request-reset', { body: { email } })).status).toBe(200);
    // The first mail is the notice of the new API token; the second the reset link.
    const resetToken = resetLinkOf(await mail.waitForMessageTo(email, 2)).searchParams.get('token')!;
    expect((await call(server, 'POST', '/api/auth/reset-password', { body: { token: resetToken, new_password: NEW_PASSWORD } })).status).toBe(200);
    expect((await call(server, 'GET', '/api/time-entries/current', { token: apiToken })).status).toBe(401);
  });
});

describe('the audit trail, against a real server', () => {
  it('"sign out all other devices" that revokes nothing writes no audit row; one that revokes writes one', async () => {
    const { server, dbPath } = await plain();
    const email = uniqueEmail();
    const { session } = await accountWithToken(server, email);
    const auditActions = async (): Promise<string[]> =>
      (
        JSON.parse((await cliInProcess(dbPath, ['--json', 'audit', 'list', '--user', email])).stdout as string) as { events: Array<{ action: string }> }
      ).events.map((event) => event.action);
    // The first call ends the API token (one row); the next ones end nothing.
    expect((await call(server, 'POST', '/api/auth/sessions/revoke-others', { token: session })).body).toEqual({ revoked: 0, revoked_api_tokens: 1 });
    const before = await auditActions();
    for (let i = 0; i < 5; i++)
      expect((await call(server, 'POST', '/api/auth/sessions/revoke-others', { token: session })).body).toEqual({ revoked: 0, revoked_api_tokens: 0 });
    expect(await auditActions()).toEqual(before);
    expect((await call(server, 'POST', '/api/auth/login', { body: { email, password: PASSWORD } })).status).toBe(200);
    expect((await call(server, 'POST', '/api/auth/sessions/revoke-others', { token: session })).body).toEqual({ revoked: 1, revoked_api_tokens: 0 });
    expect((await auditActions()).filter((action) => action === 'sessions_revoked')).toHaveLength(
      before.filter((action) => action === 'sessions_revoked').length + 1,
    );
  });
});

/** Signs an account in again; the new session's token. */
async function signIn(server: RunningServer, email: string): Promise<string> {
  const login = await call(server, 'POST', '/api/auth/login', { body: { email, password: PASSWORD } });
  expect(login.status).toBe(200);
  return login.body.token as string;
}

describe('creating an API token, against a real server', () => {
  const fields = { name: 'another script', expires_in_days: 30 };

  it('takes the current password; wrong ones count against the calling session (the third signs it out), never the sign-in lock, and nothing is made', async () => {
    const { server } = await plain();
    const email = uniqueEmail();
    const { session } = await accountWithToken(server, email);
    const without = await call(server, 'POST', '/api/auth/api-tokens', { token: session, body: fields });
    expect([without.status, without.body.code]).toEqual([400, 'VALIDATION_ERROR']);
    for (let i = 0; i < 2; i++) {
      const wrong = await call(server, 'POST', '/api/auth/api-tokens', { token: session, body: { ...fields, password: `wrong ${i}` } });
      expect([wrong.status, wrong.body.code]).toEqual([403, 'INVALID_PASSWORD']);
    }
    const third = await call(server, 'POST', '/api/auth/api-tokens', { token: session, body: { ...fields, password: 'wrong again' } });
    expect(third.status).toBe(401);
    expect((await call(server, 'POST', '/api/auth/api-tokens', { token: session, body: { ...fields, password: PASSWORD } })).status).toBe(401);
    // The owner's sign-in is not locked by them, and nothing was made.
    const again = await signIn(server, email);
    expect((await call(server, 'GET', '/api/auth/api-tokens', { token: again })).body.api_tokens.map((token: { name: string }) => token.name)).toEqual([
      'left by an intruder',
    ]);
  });

  it('with two-factor sign-in on, also takes a code', async () => {
    const { server } = await plain();
    const { session } = await accountWithToken(server, uniqueEmail());
    const setup = await call(server, 'POST', '/api/auth/2fa/setup', { token: session, body: { password: PASSWORD } });
    const secret = setup.body.secret as string;
    expect((await call(server, 'POST', '/api/auth/2fa/enable', { token: session, body: { code: totpCode(secret, Date.now()) } })).status).toBe(200);
    const withoutCode = await call(server, 'POST', '/api/auth/api-tokens', { token: session, body: { ...fields, password: PASSWORD } });
    expect([withoutCode.status, withoutCode.body.details[0].field]).toEqual([400, 'code']);
    const wrong = await call(server, 'POST', '/api/auth/api-tokens', {
      token: session,
      body: { ...fields, password: PASSWORD, code: wrongCode(secret, Date.now()) },
    });
    expect([wrong.status, wrong.body.code]).toEqual([403, 'INVALID_TWO_FACTOR_CODE']);
    // The code that enabled it is spent: the next step's code (one step of drift is accepted).
    const right = await call(server, 'POST', '/api/auth/api-tokens', {
      token: session,
      body: { ...fields, password: PASSWORD, code: totpCode(secret, Date.now() + 30_000) },
    });
    expect(right.status).toBe(201);
  });

  it('mails the owner a notice (name, expiry, address; never the token)', async () => {
    const { server, mail: smtpServer } = await withMail();
    const email = uniqueEmail();
    const { apiToken } = await accountWithToken(server, email);
    const mail = await smtpServer.waitForMessageTo(email);
    const text = mail.raw.replace(/=\r?\n/g, '');
    expect(mail.to).toEqual([email]);
    expect(text).toContain('Subject: New API token for your timetrack account');
    expect(text).toMatch(/Name: +left by an intruder/);
    expect(text).toMatch(/Address: +127\.0\.0\.1/);
    expect(text).toContain('https://time.example.org/');
    expect(text).not.toContain(apiToken.slice(6));
  });
});

describe('budgets per account on token and session changes, against a real server', () => {
  it('10 token creations an hour, then 429 RATE_LIMITED with Retry-After; another account keeps its own; right passwords lock nothing', async () => {
    const { server } = await plain();
    const email = uniqueEmail();
    const { session } = await accountWithToken(server, email); // the first of the 10
    for (let i = 2; i <= 10; i++) {
      const created = await call(server, 'POST', '/api/auth/api-tokens', {
        token: session,
        body: { name: `script ${i}`, expires_in_days: 1, password: PASSWORD },
      });
      expect(created.status, created.body?.code).toBe(201);
    }
    const refused = await call(server, 'POST', '/api/auth/api-tokens', { token: session, body: { name: 'one more', expires_in_days: 1, password: PASSWORD } });
    expect([refused.status, refused.body.code]).toEqual([429, 'RATE_LIMITED']);
    expect(Number(refused.retryAfter)).toBeGreaterThan(3000);
    // Ten right passwords in a row left the account's lockout alone: signing in still works.
    expect(await signIn(server, email)).toEqual(expect.any(String));
    const bobEmail = uniqueEmail('bob');
    expect((await call(server, 'POST', '/api/auth/register', { body: { email: bobEmail, password: PASSWORD, full_name: 'Bob' } })).status).toBe(201);
    const bob = await signIn(server, bobEmail);
    expect((await call(server, 'POST', '/api/auth/api-tokens', { token: bob, body: { name: 'bob', expires_in_days: 1, password: PASSWORD } })).status).toBe(
      201,
    );
  });

  it('60 revocations an hour, one budget for sessions and API tokens; then 429 RATE_LIMITED with Retry-After', async () => {
    const { server } = await plain();
    const email = uniqueEmail();
    const { session } = await accountWithToken(server, email);
    const tokenId = (await call(server, 'GET', '/api/auth/api-tokens', { token: session })).body.api_tokens[0].id as number;
    await signIn(server, email);
    const otherId = ((await call(server, 'GET', '/api/auth/sessions', { token: session })).body.sessions as Array<{ id: number; current: boolean }>).find(
      (entry) => !entry.current,
    )!.id;
    for (let i = 0; i < 60; i++) {
      const answer = await call(server, 'POST', '/api/auth/sessions/revoke-others', { token: session, body: { revoke_api_tokens: false } });
      expect(answer.status).toBe(200);
    }
    for (const [method, url] of [
      ['POST', '/api/auth/sessions/revoke-others'],
      ['DELETE', `/api/auth/sessions/${otherId}`],
      ['DELETE', `/api/auth/api-tokens/${tokenId}`],
    ] as const) {
      const refused = await call(server, method, url, { token: session });
      expect([refused.status, refused.body.code], url).toEqual([429, 'RATE_LIMITED']);
      expect(Number(refused.retryAfter)).toBeGreaterThan(3000);
    }
    expect((await call(server, 'GET', '/api/auth/api-tokens', { token: session })).body.api_tokens).toHaveLength(1);
    const bobEmail = uniqueEmail('bob');
    expect((await call(server, 'POST', '/api/auth/register', { body: { email: bobEmail, password: PASSWORD, full_name: 'Bob' } })).status).toBe(201);
    const bob = await signIn(server, bobEmail);
    expect((await call(server, 'POST', '/api/auth/sessions/revoke-others', { token: bob })).status).toBe(200);
  });
});
