// API tokens for scripts (docs/api.md, "API tokens"): created with a session, shown once, stored
// hashed, told apart by their prefix, expiring after 1-365 days, their last use batched like a
// session's; they reach time tracking, statistics and /me, never account management.
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { API_TOKENS_PER_ACCOUNT } from '../../src/auth/sessions/api-tokens.js';
import { account, createTestApp, PASSWORD, type TestApp } from '../support/app.js';
import { expectError } from '../support/expectations.js';
import { login, register, request, type Method, type TestResponse } from '../support/requests.js';

let t: TestApp;
let session: string;
beforeEach(async () => {
  t = await createTestApp();
  await register(t.app, account());
  session = await login(t.app);
});
afterEach(async () => {
  await t.close();
});

const call = (method: Method, url: string, token: string, payload?: unknown): Promise<TestResponse> => request(t.app, method, url, { token, payload });

async function createToken(name = 'backup script', expiresInDays = 30, token = session): Promise<{ token: string; id: number }> {
  const response = await call('POST', '/api/auth/api-tokens', token, { name, expires_in_days: expiresInDays, password: PASSWORD });
  expect(response.statusCode, response.body).toBe(201);
  return response.json();
}

describe('POST /api/auth/api-tokens', () => {
  it('answers the token once with its record; stores only its SHA-256', async () => {
    const response = await call('POST', '/api/auth/api-tokens', session, { name: '  Backup script ', expires_in_days: 30, password: PASSWORD });
    expect(response.statusCode).toBe(201);
    expect(response.headers['cache-control']).toBe('no-store');
    const body = response.json();
    expect(body).toEqual({
      token: expect.stringMatching(/^ttpat_[A-Za-z0-9_-]{43}$/),
      id: expect.any(Number),
      name: 'Backup script',
      created_at: '2026-03-02T09:00:00.000Z',
      expires_at: '2026-04-01T09:00:00.000Z',
      last_used_at: null,
    });
    const rows = await t.ctx.db.selectFrom('api_tokens').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.token_hash).toBe(createHash('sha256').update(body.token).digest('hex'));
    expect(JSON.stringify(rows)).not.toContain(body.token.slice(6));
    const list = await call('GET', '/api/auth/api-tokens', session);
    expect(list.json()).toEqual({
      api_tokens: [{ id: body.id, name: 'Backup script', created_at: body.created_at, expires_at: body.expires_at, last_used_at: null }],
    });
    expect(list.body).not.toContain(body.token);
    expect(list.body).not.toContain(rows[0]!.token_hash);
  });

  it.each([
    [{ name: 'x', expires_in_days: 0, password: PASSWORD }, 'expires_in_days'],
    [{ name: 'x', expires_in_days: 366, password: PASSWORD }, 'expires_in_days'],
    [{ name: 'x', expires_in_days: 1.5, password: PASSWORD }, 'expires_in_days'],
    [{ name: 'x', password: PASSWORD }, 'expires_in_days'],
    [{ name: '', expires_in_days: 1, password: PASSWORD }, 'name'],
    [{ name: '   ', expires_in_days: 1, password: PASSWORD }, 'name'],
    [{ name: 'a\u202Eb', expires_in_days: 1, password: PASSWORD }, 'name'],
    [{ name: 'x'.repeat(101), expires_in_days: 1, password: PASSWORD }, 'name'],
  ])('refuses %j (400 naming %s)', async (payload, field) => {
    const body = expectError(await call('POST', '/api/auth/api-tokens', session, payload), 400, 'VALIDATION_ERROR');
    expect(body.details[0].field).toBe(field);
    expect(await t.ctx.db.selectFrom('api_tokens').select('id').execute()).toEqual([]);
  });

  it('takes 1 and 365 days', async () => {
    expect((await call('POST', '/api/auth/api-tokens', session, { name: 'a', expires_in_days: 1, password: PASSWORD })).json().expires_at).toBe(
      '2026-03-03T09:00:00.000Z',
    );
    expect((await call('POST', '/api/auth/api-tokens', session, { name: 'b', expires_in_days: 365, password: PASSWORD })).json().expires_at).toBe(
      '2027-03-02T09:00:00.000Z',
    );
  });

  it(`keeps at most ${API_TOKENS_PER_ACCOUNT} unexpired tokens per account (409 TOO_MANY_API_TOKENS)`, async () => {
    for (let i = 0; i < API_TOKENS_PER_ACCOUNT; i += 1) await t.ctx.services.apiTokens.createToken(1, `token ${i}`, 1);
    expectError(await call('POST', '/api/auth/api-tokens', session, { name: 'one more', expires_in_days: 1, password: PASSWORD }), 409, 'TOO_MANY_API_TOKENS');
    t.clock.advance(86_400);
    session = await login(t.app);
    await createToken('after the others expired');
  });
});

describe('using an API token', () => {
  it('reaches /me, time tracking, settings and statistics as its account', async () => {
    const { token } = await createToken();
    expect((await call('GET', '/api/auth/me', token)).json().user.email).toBe('ann@example.com');
    expect((await call('GET', '/api/auth/validate', token)).statusCode).toBe(200);
    expect(
      (await call('POST', '/api/time-entries', token, { start_at: '2026-03-02T07:00:00.000Z', end_at: '2026-03-02T08:00:00.000Z', note: 'by script' }))
        .statusCode,
    ).toBe(201);
    expect((await call('GET', '/api/time-entries?from=2026-03-02&to=2026-03-03', session)).json().entries[0].note).toBe('by script');
    expect((await call('GET', '/api/settings', token)).statusCode).toBe(200);
    expect((await call('GET', '/api/stats/today', token)).json()).toMatchObject({ date: '2026-03-02', worked_minutes: 60 });
  });

  it('expires after its days, and is refused once its account is disabled', async () => {
    const { token } = await createToken('short', 1);
    t.clock.advance(86_400 - 1);
    expect((await call('GET', '/api/auth/me', token)).statusCode).toBe(200);
    t.clock.advance(1);
    expectError(await call('GET', '/api/auth/me', token), 401, 'UNAUTHORIZED');
    session = await login(t.app);
    const other = await createToken('other', 2);
    await t.ctx.db.updateTable('auth_info').set({ status: 'disabled' }).execute();
    expectError(await call('GET', '/api/auth/me', other.token), 401, 'UNAUTHORIZED');
  });

  it('refuses a token with the prefix that was never issued, a truncated one and one with a changed character', async () => {
    const { token } = await createToken();
    for (const bad of [
      `ttpat_${'A'.repeat(43)}`,
      token.slice(0, -1),
      `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`,
      `${token}A`,
      token.replace('ttpat_', 'ttpat-'),
    ]) {
      expectError(await call('GET', '/api/auth/me', bad), 401, 'UNAUTHORIZED');
    }
  });

  it('notes its last use in memory, written by the flush at most once per 5 minutes', async () => {
    const { token, id } = await createToken();
    const stored = async () => (await t.ctx.db.selectFrom('api_tokens').select('last_used_at').where('id', '=', id).executeTakeFirstOrThrow()).last_used_at;
    t.clock.advance(60);
    await call('GET', '/api/auth/me', token);
    expect(await stored()).toBeNull();
    expect((await call('GET', '/api/auth/api-tokens', session)).json().api_tokens[0].last_used_at).toBe('2026-03-02T09:01:00.000Z');
    await t.ctx.services.activity.flush();
    expect(await stored()).toBe('2026-03-02T09:01:00.000Z');
    t.clock.advance(120);
    await call('GET', '/api/auth/me', token);
    await t.ctx.services.activity.flush();
    expect(await stored()).toBe('2026-03-02T09:01:00.000Z');
    t.clock.advance(180);
    await call('GET', '/api/auth/me', token);
    await t.ctx.services.activity.flush();
    expect(await stored()).toBe('2026-03-02T09:06:00.000Z');
  });
});

it('is checked without a promise on SQLite (as a known session is), and many at once each find their own account', async () => {
  const { token } = await createToken();
  await register(t.app, account({ email: 'bob@example.com' }));
  const bobSession = await login(t.app, 'bob@example.com');
  const bob = await createToken('bob script', 30, bobSession);
  const { credentials } = t.ctx.services;
  if (t.ctx.database.engine === 'sqlite') {
    // The per-request path makes no promise on SQLite (docs/performance.md): neither for an API token
    // nor for a session token whose signature was verified once.
    expect(credentials.authenticate(token)).not.toBeInstanceOf(Promise);
    await credentials.authenticate(session);
    expect(credentials.authenticate(session)).not.toBeInstanceOf(Promise);
  }
  // Asked in one turn (one gathered statement on PostgreSQL): each answer is its own token's account.
  const asked = Array.from({ length: 30 }, (_, i) => [token, bob.token, session, bobSession][i % 4]!);
  const answers = await Promise.all(asked.map((credential) => credentials.authenticate(credential)));
  expect(answers.map((answer) => [answer.user.email, answer.apiTokenId !== undefined])).toEqual(
    asked.map((credential) => [credential === token || credential === session ? 'ann@example.com' : 'bob@example.com', credential.startsWith('ttpat_')]),
  );
});

describe('DELETE /api/auth/api-tokens/:id', () => {
  it("revokes the token at once; another account's token is 404 and keeps working", async () => {
    const { token, id } = await createToken();
    await register(t.app, account({ email: 'bob@example.com' }));
    const bob = await login(t.app, 'bob@example.com');
    const bobs = await createToken("bob's", 30, bob);
    expectError(await call('DELETE', `/api/auth/api-tokens/${bobs.id}`, session), 404, 'NOT_FOUND');
    expect((await call('GET', '/api/auth/me', bobs.token)).statusCode).toBe(200);
    expect((await call('GET', '/api/auth/api-tokens', session)).json().api_tokens.map((x: { id: number }) => x.id)).toEqual([id]);
    expect((await call('DELETE', `/api/auth/api-tokens/${id}`, session)).statusCode).toBe(204);
    expectError(await call('GET', '/api/auth/me', token), 401, 'UNAUTHORIZED');
    expectError(await call('DELETE', `/api/auth/api-tokens/${id}`, session), 404, 'NOT_FOUND');
    const audit = await t.ctx.services.audit.list({ userIds: await t.ctx.services.audit.accountIds('ann@example.com') });
    expect(audit.map((event) => event.action).slice(0, 2)).toEqual(['api_token_revoked', 'api_token_created']);
    expect(JSON.stringify(audit)).not.toContain(token);
  });
});
