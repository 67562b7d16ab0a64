// request-reset and reset-password (docs/api.md, Password reset), with a real SMTP server.
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { account, createTestApp, PASSWORD, type TestApp } from '../support/app.js';
import { expectError } from '../support/expectations.js';
import { bearer, get, login, post, register } from '../support/requests.js';
import { resetLinkOf, startSmtpServer, type TestSmtpServer } from '../support/smtp.js';

const NEW_PASSWORD = 'a brand new passphrase';
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function app(env: Record<string, string> = {}): Promise<TestApp> {
  const t = await createTestApp({ env, mailRetryDelaysMs: [50] });
  cleanups.push(t.close);
  return t;
}
const devApp = () => app({ NODE_ENV: 'development', PUBLIC_URL: 'http://localhost:8080/' });

async function requestDevToken(t: TestApp, email = 'ann@example.com'): Promise<string> {
  const response = await post(t.app, '/api/auth/request-reset', { email });
  expect(response.statusCode).toBe(200);
  return response.json().reset_token;
}

const reset = (t: TestApp, token: string, newPassword = NEW_PASSWORD) => post(t.app, '/api/auth/reset-password', { token, new_password: newPassword });
const resetTokens = (t: TestApp) => t.ctx.db.selectFrom('reset_tokens').selectAll().execute();

describe('POST /api/auth/request-reset in dev mode', () => {
  it('answers the token and the link for an existing account, prints them, and stores only a hash', async () => {
    const t = await devApp();
    await register(t.app);
    const response = await post(t.app, '/api/auth/request-reset', { email: ' ANN@example.com ' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(['delivery', 'message', 'reset_token', 'reset_url']);
    expect(body.reset_token).toMatch(/^[A-Za-z0-9_-]{43}$/); // 32 random bytes, base64url
    expect(body.reset_url).toBe(`http://localhost:8080/password-reset?token=${body.reset_token}`);
    expect(t.terminal()).toContain(body.reset_token);
    expect(t.terminal()).toContain(body.reset_url);
    expect(t.logs()).not.toContain(body.reset_token);
    const rows = await resetTokens(t);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      token_hash: createHash('sha256').update(body.reset_token).digest('hex'),
      expires_at: '2026-03-02T10:00:00.000Z', // RESET_TOKEN_TTL default 1h
      used_at: null,
    });
  });

  it('answers only the message for an unknown address and for a disabled account', async () => {
    const t = await devApp();
    const { user } = await register(t.app);
    const unknown = await post(t.app, '/api/auth/request-reset', { email: 'nobody@example.com' });
    expect(unknown.statusCode).toBe(200);
    expect(Object.keys(unknown.json())).toEqual(['message', 'delivery']);
    await t.ctx.db.updateTable('auth_info').set({ status: 'disabled' }).where('user_id', '=', user.id).execute();
    const disabled = await post(t.app, '/api/auth/request-reset', { email: 'ann@example.com' });
    expect(disabled.json()).toEqual(unknown.json());
    expect(await resetTokens(t)).toHaveLength(0);
  });

  it('gives tokens of at least 128 random bits: each request a new one', async () => {
    const t = await devApp();
    await register(t.app);
    const tokens = new Set<string>();
    for (let i = 0; i < 5; i += 1) tokens.add(await requestDevToken(t));
    expect(tokens.size).toBe(5);
    for (const token of tokens) expect(Buffer.from(token, 'base64url').length).toBe(32);
  });

  it.each([
    ['no e-mail', {}],
    ['an invalid e-mail', { email: 'not-an-address' }],
    ['an empty e-mail', { email: '' }],
    ['a number', { email: 42 }],
  ])('answers 400 VALIDATION_ERROR for %s', async (_label, body) => {
    const t = await devApp();
    const response = await post(t.app, '/api/auth/request-reset', body);
    expectError(response, 400, 'VALIDATION_ERROR');
    expect(response.headers['cache-control']).toBe('no-store');
  });
});

describe('POST /api/auth/request-reset in production', () => {
  it('answers exactly the same for a known and an unknown address, without the token', async () => {
    const t = await app();
    await register(t.app);
    const known = await post(t.app, '/api/auth/request-reset', { email: 'ann@example.com' });
    const unknown = await post(t.app, '/api/auth/request-reset', { email: 'nobody@example.com' });
    expect(known.statusCode).toBe(200);
    expect(unknown.statusCode).toBe(200);
    expect(known.body).toBe(unknown.body);
    expect(Object.keys(known.json())).toEqual(['message', 'delivery']);
    const headersOf = (response: typeof known) => {
      const { date: _date, ...rest } = response.headers;
      return rest;
    };
    expect(headersOf(known)).toEqual(headersOf(unknown));
    await t.ctx.services.background.drain(10_000);
  });

  it('without SMTP settings issues no link (nobody could receive it), logs a warning and keeps the link an administrator issued', async () => {
    const t = await app();
    await register(t.app);
    const issued = await t.ctx.services.resets.issueResetForEmail('ann@example.com');
    await post(t.app, '/api/auth/request-reset', { email: 'ann@example.com' });
    await t.ctx.services.background.drain(10_000);
    expect(await resetTokens(t)).toEqual([
      expect.objectContaining({ issued_by: 'admin', token_hash: createHash('sha256').update(issued.token).digest('hex') }),
    ]);
    expect(t.logs()).toMatch(/no link issued: no SMTP settings/);
    expect(t.logs()).toContain('timetrack reset issue');
    expect(t.logs()).not.toMatch(/password-reset\?token=/);
    expect(t.terminal()).toBe('');
    expect((await reset(t, issued.token)).statusCode).toBe(200);
  });

  describe('with SMTP', () => {
    let smtp: TestSmtpServer;
    async function smtpApp(): Promise<TestApp> {
      smtp = await startSmtpServer();
      cleanups.push(smtp.close);
      return app({ SMTP_HOST: '127.0.0.1', SMTP_PORT: String(smtp.port), SMTP_FROM: 'timetrack@example.org', PUBLIC_URL: 'https://time.example.org' });
    }

    it('sends the e-mail with the link PUBLIC_URL/password-reset?token=…, and the link works once', async () => {
      const t = await smtpApp();
      await register(t.app);
      const response = await post(t.app, '/api/auth/request-reset', { email: 'Ann@Example.com' });
      expect(Object.keys(response.json())).toEqual(['message', 'delivery']);
      const mail = await smtp.waitForMessage();
      expect(mail.from).toBe('timetrack@example.org');
      expect(mail.to).toEqual(['ann@example.com']);
      expect(mail.raw).toMatch(/^Subject: Reset your timetrack password/m);
      const link = resetLinkOf(mail);
      expect(`${link.origin}${link.pathname}`).toBe('https://time.example.org/password-reset');
      const token = link.searchParams.get('token')!;
      expect((await reset(t, token)).statusCode).toBe(200);
      await login(t.app, 'ann@example.com', NEW_PASSWORD);
      expectError(await reset(t, token, 'yet another passphrase'), 400, 'INVALID_RESET_TOKEN');
      expect(t.logs()).not.toContain(token);
    });

    it("mails at most one link per account in 5 minutes; a later request replaces it, but never an administrator's link", async () => {
      const t = await smtpApp();
      await register(t.app);
      const byAdmin = await t.ctx.services.resets.issueResetForEmail('ann@example.com');
      for (let i = 0; i < 3; i++) await post(t.app, '/api/auth/request-reset', { email: 'ann@example.com' });
      await t.ctx.services.background.drain(10_000);
      expect(smtp.messages).toHaveLength(1);
      const first = resetLinkOf(await smtp.waitForMessage(1)).searchParams.get('token')!;

      t.clock.advance(5 * 60 + 1);
      await post(t.app, '/api/auth/request-reset', { email: 'ann@example.com' });
      const second = resetLinkOf(await smtp.waitForMessage(2)).searchParams.get('token')!;
      await t.ctx.services.background.drain(10_000);
      expect(smtp.messages).toHaveLength(2);
      expect((await resetTokens(t)).map((row) => row.issued_by).sort()).toEqual(['admin', 'request']);
      expectError(await reset(t, first), 400, 'INVALID_RESET_TOKEN');
      expect((await reset(t, byAdmin.token)).statusCode).toBe(200);
      // A successful reset voids every other pending link, the requested one included.
      expectError(await reset(t, second, 'yet another passphrase'), 400, 'INVALID_RESET_TOKEN');
    });

    it('counts a used link toward the 5 minutes: reading the mailbox buys no second link (and no cleared lock)', async () => {
      const t = await smtpApp();
      await register(t.app);
      await post(t.app, '/api/auth/request-reset', { email: 'ann@example.com' });
      const first = resetLinkOf(await smtp.waitForMessage(1)).searchParams.get('token')!;
      expect((await reset(t, first)).statusCode).toBe(200);
      await post(t.app, '/api/auth/request-reset', { email: 'ann@example.com' });
      await t.ctx.services.background.drain(10_000);
      expect(smtp.messages).toHaveLength(1);
      t.clock.advance(5 * 60 + 1);
      await post(t.app, '/api/auth/request-reset', { email: 'ann@example.com' });
      await smtp.waitForMessage(2);
    });

    it('sends nothing for an unknown address', async () => {
      const t = await smtpApp();
      await register(t.app);
      await post(t.app, '/api/auth/request-reset', { email: 'nobody@example.com' });
      await post(t.app, '/api/auth/request-reset', { email: 'ann@example.com' });
      await smtp.waitForMessage(1);
      await t.ctx.services.background.drain(10_000);
      expect(smtp.messages.map((m) => m.to)).toEqual([['ann@example.com']]);
    });
  });

  it('logs a failed delivery (retried, then given up) and never shows it to the client', async () => {
    const closed = await startSmtpServer();
    const port = closed.port;
    await closed.close();
    const t = await app({ SMTP_HOST: '127.0.0.1', SMTP_PORT: String(port), SMTP_FROM: 'timetrack@example.org' });
    await register(t.app);
    const response = await post(t.app, '/api/auth/request-reset', { email: 'ann@example.com' });
    expect(response.statusCode).toBe(200);
    await t.ctx.services.background.drain(20_000);
    expect(t.logs()).toMatch(/reset e-mail failed; will retry/);
    expect(t.logs()).toMatch(/reset e-mail failed; giving up/);
    expect(t.logs()).not.toMatch(/password-reset\?token=/);
  });
});

describe('POST /api/auth/reset-password', () => {
  it('stores the new hash, revokes every session, clears the lock, and the token is single use', async () => {
    const t = await devApp();
    const { user } = await register(t.app);
    const sessions = [await login(t.app), await login(t.app)];
    for (let i = 0; i < 5; i += 1) await post(t.app, '/api/auth/login', { email: 'ann@example.com', password: 'wrong password!' });
    const token = await requestDevToken(t);
    const response = await reset(t, token);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(Object.keys(response.json())).toEqual(['message']);
    for (const session of sessions) expect((await get(t.app, '/api/auth/me', bearer(session))).statusCode).toBe(401);
    const info = await t.ctx.db.selectFrom('auth_info').selectAll().where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(info).toMatchObject({ failed_attempts: 0, locked_until: null });
    expectError(await post(t.app, '/api/auth/login', { email: 'ann@example.com', password: PASSWORD }), 401, 'INVALID_CREDENTIALS');
    await login(t.app, 'ann@example.com', NEW_PASSWORD);
    expectError(await reset(t, token, 'another new passphrase'), 400, 'INVALID_RESET_TOKEN');
    // The audit trail names the account whose password was reset.
    const audit = await t.ctx.db.selectFrom('audit_events').selectAll().where('action', '=', 'password_reset').execute();
    expect(audit).toEqual([expect.objectContaining({ user_id: user.id, user_email: 'ann@example.com', actor: 'reset link' })]);
  });

  it('answers 400 INVALID_RESET_TOKEN for an unknown token', async () => {
    const t = await devApp();
    await register(t.app);
    await requestDevToken(t);
    const response = await reset(t, Buffer.alloc(32, 7).toString('base64url'));
    expectError(response, 400, 'INVALID_RESET_TOKEN');
    expect(response.headers['cache-control']).toBe('no-store');
  });

  it('answers 400 INVALID_RESET_TOKEN for an expired token (RESET_TOKEN_TTL)', async () => {
    const t = await app({ NODE_ENV: 'development', RESET_TOKEN_TTL: '10m' });
    await register(t.app);
    const token = await requestDevToken(t);
    t.clock.advance(600);
    expectError(await reset(t, token), 400, 'INVALID_RESET_TOKEN');
    await login(t.app);
  });

  it('accepts a token until just before its expiry', async () => {
    const t = await devApp();
    await register(t.app);
    const token = await requestDevToken(t);
    t.clock.advance(3599);
    expect((await reset(t, token)).statusCode).toBe(200);
  });

  it('a new request voids the earlier token', async () => {
    const t = await devApp();
    await register(t.app);
    const first = await requestDevToken(t);
    const second = await requestDevToken(t);
    expectError(await reset(t, first), 400, 'INVALID_RESET_TOKEN');
    expect((await reset(t, second)).statusCode).toBe(200);
  });

  it('parallel uses of one token succeed exactly once', async () => {
    const t = await devApp();
    await register(t.app);
    const token = await requestDevToken(t);
    const responses = await Promise.all([1, 2, 3, 4].map((i) => reset(t, token, `${NEW_PASSWORD} ${i}`)));
    expect(responses.map((r) => r.statusCode).sort()).toEqual([200, 400, 400, 400]);
  });

  it('answers 400 VALIDATION_ERROR / WEAK_PASSWORD for a bad new password, and the token stays usable', async () => {
    const t = await devApp();
    await register(t.app);
    const token = await requestDevToken(t);
    expectError(await reset(t, token, 'short'), 400, 'VALIDATION_ERROR');
    expectError(await reset(t, token, '🐢'.repeat(257)), 400, 'VALIDATION_ERROR');
    expectError(await reset(t, token, 'password123'), 400, 'WEAK_PASSWORD');
    expectError(await post(t.app, '/api/auth/reset-password', { new_password: NEW_PASSWORD }), 400, 'VALIDATION_ERROR');
    expectError(await post(t.app, '/api/auth/reset-password', { token }), 400, 'VALIDATION_ERROR');
    expect((await reset(t, token)).statusCode).toBe(200);
  });

  it('a password change voids pending reset tokens', async () => {
    const t = await devApp();
    await register(t.app);
    const session = await login(t.app);
    const token = await requestDevToken(t);
    const change = await post(t.app, '/api/auth/change-password', { old_password: PASSWORD, new_password: NEW_PASSWORD }, bearer(session));
    expect(change.statusCode).toBe(200);
    expectError(await reset(t, token, 'another new passphrase'), 400, 'INVALID_RESET_TOKEN');
  });

  it('after a reset the account signs in by username with the new password', async () => {
    const t = await devApp();
    await register(t.app, account({ username: 'ann' }));
    const token = await requestDevToken(t);
    expect((await reset(t, token)).statusCode).toBe(200);
    await login(t.app, 'ann', NEW_PASSWORD);
  });
});
