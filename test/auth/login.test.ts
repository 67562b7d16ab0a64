// POST /api/auth/login and the lockout (docs/api.md, rules 1 and 2).
import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { account, createTestApp, PASSWORD, type TestApp } from '../support/app.js';
import { expectError } from '../support/expectations.js';
import { bearer, get, login, post, register, type TestResponse } from '../support/requests.js';

let t: TestApp;
let userId: number;
beforeEach(async () => {
  t = await createTestApp();
  userId = (await register(t.app, account({ username: 'ann' }))).user.id;
});
afterEach(async () => {
  await t.close();
});

const attempt = (email: string, password: string) => post(t.app, '/api/auth/login', { email, password });
const wrong = (email = 'ann@example.com') => attempt(email, 'not the right password');

async function authInfo() {
  return t.ctx.db.selectFrom('auth_info').selectAll().where('user_id', '=', userId).executeTakeFirstOrThrow();
}

function expectLocked(response: TestResponse): void {
  expectError(response, 423, 'ACCOUNT_LOCKED');
  const retryAfter = Number(response.headers['retry-after']);
  expect(Number.isInteger(retryAfter) && retryAfter > 0 && retryAfter <= 15 * 60).toBe(true);
}

describe('POST /api/auth/login', () => {
  it('answers 200 with token, token_type, expires_at and the User', async () => {
    const response = await attempt('ann@example.com', PASSWORD);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    const body = response.json();
    expect(Object.keys(body).sort()).toEqual(['expires_at', 'token', 'token_type', 'user']);
    expect(body.token_type).toBe('Bearer');
    expect(body.expires_at).toBe('2026-03-03T09:00:00.000Z'); // JWT_EXPIRATION default 24h
    expect(body.user).toEqual({ id: userId, email: 'ann@example.com', full_name: 'Ann Example', username: 'ann', created_at: '2026-03-02T09:00:00.000Z' });
    expect(response.body).not.toContain('$argon2');
  });

  it.each(['ann@example.com', 'ANN@EXAMPLE.COM', '  Ann@Example.com  ', 'ann', 'ANN', ' Ann '])('accepts the identifier %j', async (identifier) => {
    const response = await attempt(identifier, PASSWORD);
    expect(response.statusCode).toBe(200);
    expect(response.json().user.id).toBe(userId);
  });

  it('answers 401 INVALID_CREDENTIALS with the same body for a wrong password, an unknown e-mail and an unknown username', async () => {
    const bodies = [await wrong(), await wrong('nobody@example.com'), await wrong('nobody')].map((response) => {
      const body = expectError(response, 401, 'INVALID_CREDENTIALS');
      expect(response.headers['cache-control']).toBe('no-store');
      return body;
    });
    expect(bodies[1]).toEqual(bodies[0]);
    expect(bodies[2]).toEqual(bodies[0]);
  });

  it('answers 400 VALIDATION_ERROR for a missing field', async () => {
    expectError(await post(t.app, '/api/auth/login', { email: 'ann@example.com' }), 400, 'VALIDATION_ERROR');
    expectError(await post(t.app, '/api/auth/login', { password: PASSWORD }), 400, 'VALIDATION_ERROR');
    expect((await authInfo()).failed_attempts).toBe(0);
  });

  it('answers 403 ACCOUNT_DISABLED only after the correct password; a wrong one is 401', async () => {
    await t.ctx.db.updateTable('auth_info').set({ status: 'disabled' }).where('user_id', '=', userId).execute();
    expectError(await wrong(), 401, 'INVALID_CREDENTIALS');
    expectError(await attempt('ann@example.com', PASSWORD), 403, 'ACCOUNT_DISABLED');
    expectError(await attempt('ann', PASSWORD), 403, 'ACCOUNT_DISABLED');
    expect(await t.ctx.db.selectFrom('auth_tokens').select('id').execute()).toHaveLength(0);
  });

  it('gives two logins in the same second distinct tokens with distinct jti', async () => {
    const first = await login(t.app);
    const second = await login(t.app);
    expect(second).not.toBe(first);
    const jti = (token: string) => JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).jti;
    expect(jti(second)).not.toBe(jti(first));
  });
});

describe('lockout', () => {
  it('answers 401 to failures 1-4, locks at the 5th with 423 and Retry-After, then refuses even the right password', async () => {
    for (let i = 1; i <= 4; i += 1) expectError(await wrong(), 401, 'INVALID_CREDENTIALS');
    expect((await authInfo()).failed_attempts).toBe(4);
    const fifth = await wrong();
    expectLocked(fifth);
    expect(fifth.headers['retry-after']).toBe('900');
    expect((await authInfo()).locked_until).toBe('2026-03-02T09:15:00.000Z');
    t.clock.advance(60);
    const correct = await attempt('ann@example.com', PASSWORD);
    expectLocked(correct);
    expect(correct.headers['retry-after']).toBe('840');
  });

  it('counts failures against the account whatever identifier was used', async () => {
    for (const identifier of ['ann@example.com', 'ANN@example.com', 'ann', 'Ann']) expectError(await wrong(identifier), 401, 'INVALID_CREDENTIALS');
    expectLocked(await wrong(' ann@EXAMPLE.com'));
    expectLocked(await attempt('ann', PASSWORD));
  });

  it('50 parallel wrong passwords: at most 4 answers 401, the rest 423, and the account is locked', async () => {
    const responses = await Promise.all(Array.from({ length: 50 }, () => wrong()));
    const statuses = responses.map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 401).length).toBeLessThanOrEqual(4);
    expect(statuses.filter((status) => status === 423).length).toBe(50 - statuses.filter((status) => status === 401).length);
    for (const response of responses.filter((r) => r.statusCode === 423)) expectLocked(response);
    const info = await authInfo();
    expect(info.failed_attempts).toBe(5);
    expect(info.locked_until).not.toBeNull();
    expectLocked(await attempt('ann@example.com', PASSWORD));
  });

  it('after the lock duration the correct password works, and a success resets the count', async () => {
    for (let i = 0; i < 5; i += 1) await wrong();
    t.clock.advance(15 * 60 - 1);
    expectLocked(await attempt('ann@example.com', PASSWORD));
    t.clock.advance(1);
    expect((await attempt('ann@example.com', PASSWORD)).statusCode).toBe(200);
    expect(await authInfo()).toMatchObject({ failed_attempts: 0, locked_until: null });
    // The count starts from 0 again: four failures are still only 401.
    for (let i = 0; i < 4; i += 1) expectError(await wrong(), 401, 'INVALID_CREDENTIALS');
    expectLocked(await wrong());
  });

  it('after an expired lock a failure starts the count again at 1', async () => {
    for (let i = 0; i < 5; i += 1) await wrong();
    t.clock.advance(15 * 60);
    expectError(await wrong(), 401, 'INVALID_CREDENTIALS');
    expect(await authInfo()).toMatchObject({ failed_attempts: 1, locked_until: null });
  });

  it('a success before the limit resets the count to 0', async () => {
    for (let i = 0; i < 4; i += 1) await wrong();
    await login(t.app);
    expect((await authInfo()).failed_attempts).toBe(0);
    for (let i = 0; i < 4; i += 1) expectError(await wrong(), 401, 'INVALID_CREDENTIALS');
  });

  it('locks an unknown e-mail the same way (same statuses, same bodies, Retry-After)', async () => {
    const known: TestResponse[] = [];
    const unknown: TestResponse[] = [];
    for (let i = 0; i < 6; i += 1) {
      known.push(await wrong());
      unknown.push(await wrong('Nobody@Example.com'));
    }
    expect(unknown.map((r) => r.statusCode)).toEqual([401, 401, 401, 401, 423, 423]);
    expect(unknown.map((r) => r.statusCode)).toEqual(known.map((r) => r.statusCode));
    expect(unknown.map((r) => r.body)).toEqual(known.map((r) => r.body));
    expect(unknown.map((r) => r.headers['retry-after'])).toEqual(known.map((r) => r.headers['retry-after']));
    const row = await t.ctx.db.selectFrom('unknown_login_failures').selectAll().executeTakeFirstOrThrow();
    expect(row.failed_attempts).toBe(5);
    // A keyed hash, not what was typed (people type passwords into the e-mail field), nor its plain SHA-256.
    expect(row.identifier).toMatch(/^[0-9a-f]{64}$/);
    expect(row.identifier).not.toBe(createHash('sha256').update('nobody@example.com').digest('hex'));
    expect(JSON.stringify(await t.ctx.db.selectFrom('unknown_login_failures').selectAll().execute())).not.toContain('nobody');
    t.clock.advance(15 * 60);
    expectError(await wrong('nobody@example.com'), 401, 'INVALID_CREDENTIALS');
  });

  it('50 parallel attempts on an unknown e-mail also give at most 4 answers 401', async () => {
    const responses = await Promise.all(Array.from({ length: 50 }, () => wrong('ghost@example.com')));
    expect(responses.filter((r) => r.statusCode === 401).length).toBeLessThanOrEqual(4);
    expect(responses.filter((r) => r.statusCode === 423).length).toBeGreaterThanOrEqual(46);
  });

  it('an unknown e-mail costs one argon2 verification, like a wrong password', async () => {
    const hasher = t.ctx.services.hasher;
    const verify = hasher.verify.bind(hasher);
    let verifications = 0;
    hasher.verify = (hash: string, password: string) => {
      verifications += 1;
      return verify(hash, password);
    };
    await wrong();
    expect(verifications).toBe(1);
    expectError(await wrong('nobody@example.com'), 401, 'INVALID_CREDENTIALS');
    expect(verifications).toBe(2);
    expectError(await wrong('nobody'), 401, 'INVALID_CREDENTIALS');
    expect(verifications).toBe(3);
  });

  it('a lock of one account leaves the others alone', async () => {
    await register(t.app, account({ email: 'bob@example.com' }));
    for (let i = 0; i < 5; i += 1) await wrong();
    expect((await attempt('bob@example.com', PASSWORD)).statusCode).toBe(200);
  });

  it('a session keeps working while its account is locked (the lock guards sign-in only)', async () => {
    const token = await login(t.app);
    for (let i = 0; i < 5; i += 1) await wrong();
    expect((await get(t.app, '/api/auth/me', bearer(token))).statusCode).toBe(200);
  });
});
