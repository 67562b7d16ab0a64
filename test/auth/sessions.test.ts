// Authentication (docs/api.md, Authentication): where the token is read, its expiry and revocation,
// and the session routes logout, me and validate. Forged tokens: test/adversarial/sessions-forged-tokens.test.ts.
import { createHash, pbkdf2 } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { account, createTestApp, type TestApp } from '../support/app.js';
import { expectError } from '../support/expectations.js';
import { bearer, get, login, post, register, type TestResponse } from '../support/requests.js';

const SECRET = 'a-test-secret-that-is-long-enough-0123456789';
let t: TestApp;
let userId: number;
let token: string;
beforeEach(async () => {
  t = await createTestApp({ env: { JWT_SECRET: SECRET } });
  userId = (await register(t.app, account())).user.id;
  token = await login(t.app);
});
afterEach(async () => {
  await t.close();
});

function expectUnauthorized(response: TestResponse): void {
  expectError(response, 401, 'UNAUTHORIZED');
  expect(response.headers['www-authenticate']).toBe('Bearer');
}

const payloadOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1]!, 'base64url').toString()) as Record<string, unknown>;
const headerOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[0]!, 'base64url').toString()) as Record<string, unknown>;

/** Stores a session record for a hand-made token, so that only the JWT check can turn it away. */
async function storeRecord(jwt: string): Promise<void> {
  await t.ctx.db
    .insertInto('auth_tokens')
    .values({
      user_id: userId,
      token_hash: createHash('sha256').update(jwt).digest('hex'),
      created_at: t.clock.now().toISOString(),
      expires_at: new Date(t.clock.now().getTime() + 3600_000).toISOString(),
    })
    .execute();
}

const PROTECTED = [
  ['POST', '/api/auth/logout'],
  ['GET', '/api/auth/me'],
  ['GET', '/api/auth/validate'],
  ['POST', '/api/auth/change-password'],
  ['GET', '/api/time-entries'],
] as const;

function call(method: 'GET' | 'POST', url: string, headers: Record<string, string> = {}) {
  return method === 'GET'
    ? get(t.app, url, headers)
    : post(t.app, url, url.endsWith('change-password') ? { old_password: 'x'.repeat(8), new_password: 'y'.repeat(12) } : undefined, headers);
}

describe('the token', () => {
  it('is an HS256 JWT with sub, iat, exp and a random jti, stored only as its SHA-256', async () => {
    expect(headerOf(token)).toMatchObject({ alg: 'HS256' });
    const payload = payloadOf(token);
    expect(payload).toEqual({ sub: String(userId), iat: 1772442000, exp: 1772442000 + 86400, jti: expect.any(String) });
    expect((payload.jti as string).length).toBeGreaterThanOrEqual(16);
    const rows = await t.ctx.db.selectFrom('auth_tokens').selectAll().execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      user_id: userId,
      token_hash: createHash('sha256').update(token).digest('hex'),
      expires_at: '2026-03-03T09:00:00.000Z',
    });
  });

  it('takes its validity from JWT_EXPIRATION', async () => {
    const short = await createTestApp({ env: { JWT_EXPIRATION: '90m' } });
    try {
      await register(short.app, account());
      const response = await post(short.app, '/api/auth/login', { email: 'ann@example.com', password: account().password });
      expect(response.json().expires_at).toBe('2026-03-02T10:30:00.000Z');
      const payload = payloadOf(response.json().token);
      expect(Number(payload.exp) - Number(payload.iat)).toBe(5400);
    } finally {
      await short.close();
    }
  });
});

describe("the signature check runs on the request's own thread", () => {
  // libuv's pool also runs the password hashes: a login flood keeps it busy, and a check queued there
  // waits behind them (docs/decisions/0008-session-signatures-on-the-calling-thread.md).
  it("answers a token's first request while every pool thread is busy", async () => {
    const threads = Number(process.env.UV_THREADPOOL_SIZE ?? 4);
    const order: string[] = [];
    const busy = Array.from(
      { length: threads },
      () => new Promise<void>((resolve) => pbkdf2('pool', 'busy', 150_000, 32, 'sha256', () => (order.push('pool job'), resolve()))),
    );
    const answer = get(t.app, '/api/auth/me', bearer(token)).then((response) => {
      order.push('first request');
      return response;
    });
    expect((await answer).statusCode).toBe(200);
    await Promise.all(busy);
    expect(order[0]).toBe('first request');
  });
});

describe('protected routes: every failure is 401 UNAUTHORIZED with WWW-Authenticate: Bearer', () => {
  it.each(PROTECTED)('%s %s without a token', async (method, url) => {
    expectUnauthorized(await call(method, url));
  });

  it.each(PROTECTED)('%s %s with a token of a bad signature', async (method, url) => {
    const [header, payload] = token.split('.');
    const forged = `${header}.${payload}.${Buffer.alloc(32, 1).toString('base64url')}`;
    await storeRecord(forged);
    expectUnauthorized(await call(method, url, bearer(forged)));
  });

  it('accepts the token only from the Authorization header: cookie and query string are ignored', async () => {
    expect((await get(t.app, '/api/auth/me', bearer(token))).statusCode).toBe(200);
    expectUnauthorized(await get(t.app, `/api/auth/me?token=${token}`));
    expectUnauthorized(await get(t.app, `/api/auth/me?access_token=${token}`));
    expectUnauthorized(await get(t.app, '/api/auth/me', { cookie: `token=${token}; access_token=${token}` }));
    expectUnauthorized(await get(t.app, `/api/time-entries?token=${token}`));
  });

  it.each([
    ['another scheme', (jwt: string) => `Basic ${jwt}`],
    ['no scheme', (jwt: string) => jwt],
    ['an empty token', () => 'Bearer '],
    ['two tokens', (jwt: string) => `Bearer ${jwt} ${jwt}`],
    ['a truncated token', (jwt: string) => `Bearer ${jwt.slice(0, -2)}`],
    ['garbage', () => 'Bearer not.a.jwt'],
    ['a huge token', () => `Bearer ${'a'.repeat(5000)}.${'b'.repeat(5000)}.c`],
    ['a 100 kB token', () => `Bearer ${'A'.repeat(100_000)}.${'B'.repeat(10)}.${'C'.repeat(10)}`],
    ['two spaces', (jwt: string) => `Bearer  ${jwt}`],
    ['a leading space', (jwt: string) => ` Bearer ${jwt}`],
    ['a trailing space', (jwt: string) => `Bearer ${jwt} `],
    ['the scheme in capitals', (jwt: string) => `BEARER ${jwt}`],
    ['Token instead of Bearer', (jwt: string) => `Token ${jwt}`],
    ['two tokens joined by a dot', (jwt: string) => `Bearer ${jwt}.${jwt}`],
    ['the scheme alone', () => 'Bearer'],
    ['a NUL byte', () => 'Bearer \u0000'],
  ])('rejects %s', async (_label, header) => {
    expectUnauthorized(await get(t.app, '/api/auth/me', { authorization: header(token) }));
  });

  // RFC 7235 calls the scheme case-insensitive; timetrack reads only the exact `Bearer` (docs/security.md).
  it('accepts only the scheme written as the contract writes it', async () => {
    expectUnauthorized(await get(t.app, '/api/auth/me', { authorization: `bearer ${token}` }));
    expect((await get(t.app, '/api/auth/me', { authorization: `Bearer ${token}` })).statusCode).toBe(200);
  });

  it('rejects an expired token (24h by default), also after it was accepted once', async () => {
    expect((await get(t.app, '/api/auth/validate', bearer(token))).statusCode).toBe(200);
    t.clock.advance(24 * 3600 - 1);
    expect((await get(t.app, '/api/auth/validate', bearer(token))).statusCode).toBe(200);
    t.clock.advance(1);
    expectUnauthorized(await get(t.app, '/api/auth/validate', bearer(token)));
    expectUnauthorized(await get(t.app, '/api/time-entries', bearer(token)));
  });

  it('rejects a token whose record was deleted, at once', async () => {
    expect((await get(t.app, '/api/auth/me', bearer(token))).statusCode).toBe(200);
    await t.ctx.db.deleteFrom('auth_tokens').execute();
    expectUnauthorized(await get(t.app, '/api/auth/me', bearer(token)));
  });

  it('rejects the token of a deleted account', async () => {
    await t.ctx.db.deleteFrom('users').where('id', '=', userId).execute();
    expect(await t.ctx.db.selectFrom('auth_tokens').select('id').execute()).toHaveLength(0);
    expectUnauthorized(await get(t.app, '/api/auth/me', bearer(token)));
  });
});

describe('session routes', () => {
  it('GET /me answers the User of the token', async () => {
    const response = await get(t.app, '/api/auth/me', bearer(token));
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json()).toEqual({
      user: { id: userId, email: 'ann@example.com', full_name: 'Ann Example', username: null, created_at: '2026-03-02T09:00:00.000Z' },
      role: 'member',
      teams: [],
    });
  });

  it('GET /validate answers valid, user_id and expires_at', async () => {
    const response = await get(t.app, '/api/auth/validate', bearer(token));
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json()).toEqual({ valid: true, user_id: userId, expires_at: '2026-03-03T09:00:00.000Z' });
  });

  it("POST /logout deletes only this token's record; the token then gets 401 everywhere", async () => {
    const other = await login(t.app);
    const response = await post(t.app, '/api/auth/logout', undefined, bearer(token));
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(Object.keys(response.json())).toEqual(['message']);
    expect(await t.ctx.db.selectFrom('auth_tokens').select('token_hash').execute()).toEqual([{ token_hash: createHash('sha256').update(other).digest('hex') }]);
    expectUnauthorized(await get(t.app, '/api/auth/me', bearer(token)));
    expectUnauthorized(await post(t.app, '/api/auth/logout', undefined, bearer(token)));
    expect((await get(t.app, '/api/auth/me', bearer(other))).statusCode).toBe(200);
  });

  it('POST /logout accepts an empty JSON body (fetch with a JSON content type)', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/logout',
      headers: { ...bearer(token), 'content-type': 'application/json' },
      payload: '',
    });
    expect(response.statusCode).toBe(200);
  });
});

describe('route groups', () => {
  it('/api/time-entries is strict: 200 with a token, 401 without', async () => {
    expect((await get(t.app, '/api/time-entries', bearer(token))).statusCode).toBe(200);
    expectUnauthorized(await get(t.app, '/api/time-entries'));
  });

  it('/api/stats is optional: never 401, user data only with a valid token', async () => {
    const anonymous = async (headers: Record<string, string>) => {
      const response = await get(t.app, '/api/stats/week', headers);
      expect(response.statusCode).toBe(200);
      expect(response.headers['www-authenticate']).toBeUndefined();
      return response;
    };
    const asUser = await anonymous(bearer(token));
    expect(asUser.json()).not.toEqual((await anonymous({})).json());
    const anonymousBody = (await anonymous({})).json();
    expect((await anonymous({ authorization: 'Bearer not.a.token' })).json()).toEqual(anonymousBody);
    expect((await anonymous({ authorization: 'Basic abc' })).json()).toEqual(anonymousBody);
    const [header, payload] = token.split('.');
    expect((await anonymous(bearer(`${header}.${payload}.${Buffer.alloc(32).toString('base64url')}`))).json()).toEqual(anonymousBody);
    t.clock.advance(24 * 3600);
    expect((await anonymous(bearer(token))).json()).toEqual(anonymousBody);
  });

  it('/api/stats ignores a revoked token', async () => {
    await post(t.app, '/api/auth/logout', undefined, bearer(token));
    const response = await get(t.app, '/api/stats/week', bearer(token));
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual((await get(t.app, '/api/stats/week')).json());
  });
});
