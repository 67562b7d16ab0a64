// Attacks on session tokens. A forged token never has a record (records are keyed by the hash of
// the token the server issued), so each forgery below also gets a record planted in the database:
// the signature check alone must still refuse it. Every answer is 401 UNAUTHORIZED, never 500.
import { createHmac } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashToken } from '../../src/auth/sessions.js';
import { bearer, createTestApp, login, register, type TestApp } from '../support/app.js';

const SECRET = 'adversarial-test-secret-0123456789-abcdefghijkl';
let t: TestApp;
let userId: number;
let token: string;

beforeEach(async () => {
  t = await createTestApp({ env: { JWT_SECRET: SECRET } });
  userId = (await register(t.app)).user.id;
  token = await login(t.app);
});
afterEach(async () => {
  await t.close();
});

const base64url = (value: string | Buffer) => Buffer.from(value).toString('base64url');

function claims(overrides: Record<string, unknown> = {}) {
  const iat = Math.floor(t.clock.now().getTime() / 1000);
  return { sub: String(userId), iat, exp: iat + 3600, jti: 'forged-jti', ...overrides };
}

/** A token with any header, signed with HMAC-SHA-256 or SHA-512 over the given key (or unsigned). */
function handMade(header: Record<string, unknown>, payload: Record<string, unknown>, sign: 'sha256' | 'sha512' | 'none', key = SECRET): string {
  const input = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(payload))}`;
  const signature = sign === 'none' ? '' : createHmac(sign, key).update(input).digest('base64url');
  return `${input}.${signature}`;
}

/** Plants a session record for a token, as if the attacker could write the database or guessed a hash. */
async function plantRecord(forged: string): Promise<void> {
  await t.ctx.db
    .insertInto('auth_tokens')
    .values({ user_id: userId, token_hash: hashToken(forged), created_at: t.clock.now().toISOString(), expires_at: new Date(t.clock.now().getTime() + 3_600_000).toISOString() })
    .execute();
}

async function meWith(authorization: string) {
  return t.app.inject({ method: 'GET', url: '/api/auth/me', headers: { authorization } });
}

function expectUnauthorized(response: Awaited<ReturnType<typeof meWith>>): void {
  expect(response.statusCode).toBe(401);
  expect(response.headers['www-authenticate']).toBe('Bearer');
  expect(response.json()).toMatchObject({ statusCode: 401, code: 'UNAUTHORIZED' });
}

describe('forged and damaged tokens', () => {
  it('accepts the genuine token (the baseline every case below departs from)', async () => {
    expect((await meWith(`Bearer ${token}`)).statusCode).toBe(200);
  });

  it('refuses alg none, even with a planted record', async () => {
    for (const alg of ['none', 'None', 'NONE']) {
      const forged = handMade({ alg, typ: 'JWT' }, claims(), 'none');
      await plantRecord(forged);
      expectUnauthorized(await meWith(`Bearer ${forged}1`)); // the strict header needs a non-empty signature part
      expectUnauthorized(await meWith(`Bearer ${forged}`));
    }
  });

  it('refuses HS512 and RS256 signed with the secret as an HMAC key (algorithm confusion)', async () => {
    const hs512 = handMade({ alg: 'HS512', typ: 'JWT' }, claims(), 'sha512');
    const rs256 = handMade({ alg: 'RS256', typ: 'JWT' }, claims(), 'sha256');
    const hs512ByJose = await new SignJWT(claims()).setProtectedHeader({ alg: 'HS512' }).sign(new TextEncoder().encode(SECRET));
    for (const forged of [hs512, rs256, hs512ByJose]) {
      await plantRecord(forged);
      expectUnauthorized(await meWith(`Bearer ${forged}`));
    }
  });

  it('refuses an edited payload carrying the original signature', async () => {
    const [header, payload, signature] = token.split('.') as [string, string, string];
    const edited = { ...JSON.parse(Buffer.from(payload, 'base64url').toString()), sub: String(userId + 1) };
    const forged = `${header}.${base64url(JSON.stringify(edited))}.${signature}`;
    await plantRecord(forged);
    expectUnauthorized(await meWith(`Bearer ${forged}`));
  });

  it('refuses a token signed with another secret, and one missing a required claim', async () => {
    const otherSecret = await new SignJWT(claims()).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode('another-servers-secret-0123456789-abcdef'));
    const { jti: _jti, ...withoutJti } = claims();
    const noJti = handMade({ alg: 'HS256', typ: 'JWT' }, withoutJti, 'sha256');
    for (const forged of [otherSecret, noJti]) {
      await plantRecord(forged);
      expectUnauthorized(await meWith(`Bearer ${forged}`));
    }
  });

  it('refuses an expired token and a token whose record was deleted', async () => {
    await t.app.inject({ method: 'POST', url: '/api/auth/logout', headers: bearer(token) });
    expectUnauthorized(await meWith(`Bearer ${token}`));

    const fresh = await login(t.app);
    t.clock.advance(24 * 3600);
    expectUnauthorized(await meWith(`Bearer ${fresh}`));
  });

  it('refuses malformed Authorization headers: extra spaces, other schemes, huge values, garbage', async () => {
    const cases = [
      `Bearer  ${token}`,
      ` Bearer ${token}`,
      `Bearer ${token} `,
      `bearer ${token}`,
      `BEARER ${token}`,
      `Basic ${base64url('ann@example.com:secret')}`,
      `Bearer ${token}.${token}`,
      `Bearer ${'A'.repeat(100_000)}.${'B'.repeat(10)}.${'C'.repeat(10)}`,
      'Bearer',
      'Bearer \u0000',
      `Token ${token}`,
    ];
    for (const authorization of cases) expectUnauthorized(await meWith(authorization));
  });

  it('ignores a token in a cookie or the query string', async () => {
    const response = await t.app.inject({ method: 'GET', url: `/api/auth/me?token=${token}&access_token=${token}`, headers: { cookie: `token=${token}` } });
    expectUnauthorized(response);
  });

  it('cannot store one token twice: the token hash is unique', async () => {
    await expect(plantRecord(token)).rejects.toThrow(/UNIQUE constraint failed: auth_tokens.token_hash/);
  });
});
