// Forged session tokens. A forged token never has a record (records are keyed by the hash of the
// token the server issued), so each forgery below gets a record planted in the database first: the
// JWT check alone must still refuse it. Every answer is 401 UNAUTHORIZED, never 500. Where the token
// is read from, and its expiry and revocation: test/auth/sessions.test.ts.
import { createHmac } from 'node:crypto';
import { SignJWT } from 'jose';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hashToken } from '../../src/auth/sessions/index.js';
import { account, createTestApp, type TestApp } from '../support/app.js';
import { expectError } from '../support/expectations.js';
import { bearer, get, login, register, type TestResponse } from '../support/requests.js';

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

function claims(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const iat = Math.floor(t.clock.now().getTime() / 1000);
  return { sub: String(userId), iat, exp: iat + 3600, jti: 'forged-jti', ...overrides };
}

/** A token with any header, signed with HMAC-SHA-256 or SHA-512 over the given key (or unsigned). */
function handMade(header: Record<string, unknown>, payload: Record<string, unknown>, sign: 'sha256' | 'sha512' | 'none', key = SECRET): string {
  const input = `${base64url(JSON.stringify(header))}.${base64url(JSON.stringify(payload))}`;
  const signature = sign === 'none' ? '' : createHmac(sign, key).update(input).digest('base64url');
  return `${input}.${signature}`;
}

/** Signed by jose with the server's secret (or another), any HMAC algorithm. */
function signed(payload: Record<string, unknown>, alg = 'HS256', secret = SECRET): Promise<string> {
  return new SignJWT(payload).setProtectedHeader({ alg }).sign(new TextEncoder().encode(secret));
}

/** Plants a session record for a token, as if the attacker could write the database or guessed a hash. */
async function plantRecord(forged: string): Promise<void> {
  await t.ctx.db
    .insertInto('auth_tokens')
    .values({
      user_id: userId,
      token_hash: hashToken(forged),
      created_at: t.clock.now().toISOString(),
      expires_at: new Date(t.clock.now().getTime() + 3_600_000).toISOString(),
    })
    .execute();
}

const me = (authorization: string) => get(t.app, '/api/auth/me', { authorization });

function expectUnauthorized(response: TestResponse): void {
  expectError(response, 401, 'UNAUTHORIZED');
  expect(response.headers['www-authenticate']).toBe('Bearer');
}

function withoutClaim(name: string): Record<string, unknown> {
  const all = claims({ jti: `no-${name}` });
  delete all[name];
  return all;
}

const FORGERIES: [string, () => Promise<string> | string][] = [
  ['alg none', () => handMade({ alg: 'none', typ: 'JWT' }, claims(), 'none')],
  ['alg None', () => handMade({ alg: 'None', typ: 'JWT' }, claims(), 'none')],
  ['alg NONE with a signature part', () => `${handMade({ alg: 'NONE', typ: 'JWT' }, claims(), 'none')}1`],
  ['HS384 with the right secret', () => signed(claims(), 'HS384')],
  ['HS512 with the right secret', () => signed(claims(), 'HS512')],
  ['HS512 made by hand', () => handMade({ alg: 'HS512', typ: 'JWT' }, claims(), 'sha512')],
  ['RS256 signed with the secret as an HMAC key (algorithm confusion)', () => handMade({ alg: 'RS256', typ: 'JWT' }, claims(), 'sha256')],
  ['another secret', () => signed(claims(), 'HS256', 'another-servers-secret-0123456789-abcdef')],
  ['no sub', () => signed(withoutClaim('sub'))],
  ['no iat', () => signed(withoutClaim('iat'))],
  ['no exp', () => signed(withoutClaim('exp'))],
  ['no jti', () => signed(withoutClaim('jti'))],
  [
    'an edited payload with the original signature',
    () => {
      const [header, payload, signature] = token.split('.') as [string, string, string];
      const edited = { ...JSON.parse(Buffer.from(payload, 'base64url').toString()), sub: String(userId + 1) };
      return `${header}.${base64url(JSON.stringify(edited))}.${signature}`;
    },
  ],
];

describe('forged tokens, each with a planted record', () => {
  it('accepts a hand-made token when it is complete, signed right and has a record (the baseline every forgery departs from)', async () => {
    const complete = await signed(claims({ jti: 'complete' }));
    expectUnauthorized(await me(`Bearer ${complete}`));
    await plantRecord(complete);
    expect((await me(`Bearer ${complete}`)).statusCode).toBe(200);
  });

  it.each(FORGERIES)('refuses %s', async (_label, forge) => {
    const forged = await forge();
    await plantRecord(forged);
    expectUnauthorized(await me(`Bearer ${forged}`));
  });

  it('refuses a validly signed token whose sub is another account than its record', async () => {
    const bob = (await register(t.app, account({ email: 'bob@example.com' }))).user.id;
    const swapped = await signed(claims({ sub: String(bob), jti: 'swap' }));
    await plantRecord(swapped); // the record says Ann, the token says Bob
    expectUnauthorized(await me(`Bearer ${swapped}`));
  });

  it('cannot store one token twice: the token hash is unique', async () => {
    expect((await get(t.app, '/api/auth/me', bearer(token))).statusCode).toBe(200);
    await expect(plantRecord(token)).rejects.toThrow(/UNIQUE constraint failed: auth_tokens.token_hash|auth_tokens_token_hash_key/);
  });
});
