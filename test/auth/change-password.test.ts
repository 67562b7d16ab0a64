// POST /api/auth/change-password (docs/api.md, Sessions and accounts: the rules).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { account, createTestApp, PASSWORD, type TestApp } from '../support/app.js';
import { expectError } from '../support/expectations.js';
import { bearer, get, login, post, register } from '../support/requests.js';

const NEW_PASSWORD = 'a brand new passphrase';
let t: TestApp;
let userId: number;
let token: string;
beforeEach(async () => {
  t = await createTestApp({ env: { NODE_ENV: 'development' } });
  userId = (await register(t.app, account())).user.id;
  token = await login(t.app);
});
afterEach(async () => {
  await t.close();
});

const change = (oldPassword: string, newPassword = NEW_PASSWORD, session = token) =>
  post(t.app, '/api/auth/change-password', { old_password: oldPassword, new_password: newPassword }, bearer(session));
const authInfo = () => t.ctx.db.selectFrom('auth_info').selectAll().where('user_id', '=', userId).executeTakeFirstOrThrow();

describe('POST /api/auth/change-password', () => {
  it('changes the password, keeps the calling session and revokes every other one', async () => {
    const others = [await login(t.app), await login(t.app)];
    const response = await change(PASSWORD);
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(Object.keys(response.json())).toEqual(['message']);
    expect((await get(t.app, '/api/auth/me', bearer(token))).statusCode).toBe(200);
    for (const other of others) expectError(await get(t.app, '/api/auth/me', bearer(other)), 401, 'UNAUTHORIZED');
    expect(await t.ctx.db.selectFrom('auth_tokens').select('id').execute()).toHaveLength(1);
    expectError(await post(t.app, '/api/auth/login', { email: 'ann@example.com', password: PASSWORD }), 401, 'INVALID_CREDENTIALS');
    await login(t.app, 'ann@example.com', NEW_PASSWORD);
  });

  it('voids pending reset tokens', async () => {
    const resetToken = (await post(t.app, '/api/auth/request-reset', { email: 'ann@example.com' })).json().reset_token;
    expect((await change(PASSWORD)).statusCode).toBe(200);
    expect(await t.ctx.db.selectFrom('reset_tokens').select('id').where('used_at', 'is', null).execute()).toHaveLength(0);
    expectError(await post(t.app, '/api/auth/reset-password', { token: resetToken, new_password: 'a third passphrase' }), 400, 'INVALID_RESET_TOKEN');
  });

  it('answers 403 INVALID_PASSWORD (not 401) for a wrong old password, counted against the session, not the account lock', async () => {
    const response = await change('not my password');
    expectError(response, 403, 'INVALID_PASSWORD');
    expect(response.headers['www-authenticate']).toBeUndefined();
    expect((await authInfo()).failed_attempts).toBe(0);
    // The session survives a wrong answer: the client must not sign out.
    expect((await get(t.app, '/api/auth/me', bearer(token))).statusCode).toBe(200);
  });

  it('revokes the session at its third wrong old password; the account is not locked and its owner can still change it', async () => {
    const owner = await login(t.app);
    expectError(await change('not my password'), 403, 'INVALID_PASSWORD');
    expectError(await change('not my password'), 403, 'INVALID_PASSWORD');
    expectError(await change('not my password'), 401, 'UNAUTHORIZED');
    expect((await get(t.app, '/api/auth/me', bearer(token))).statusCode).toBe(401);
    expect((await authInfo()).locked_until).toBeNull();
    const changed = await post(t.app, '/api/auth/change-password', { old_password: PASSWORD, new_password: 'a brand new passphrase' }, bearer(owner));
    expect(changed.statusCode).toBe(200);
  });

  it('lets the owner change the password while sign-in is locked', async () => {
    for (let i = 0; i < 5; i += 1) await post(t.app, '/api/auth/login', { email: 'ANN@example.com', password: 'wrong password!' });
    expectError(await post(t.app, '/api/auth/login', { email: 'ann@example.com', password: PASSWORD }), 423, 'ACCOUNT_LOCKED');
    expect((await change(PASSWORD)).statusCode).toBe(200);
    expect((await authInfo()).locked_until).toBeNull();
  });

  it('parallel wrong old passwords of one session are verified at most 3 times', async () => {
    const before = t.ctx.services.hasher.verifications;
    const responses = await Promise.all(Array.from({ length: 20 }, () => change('not my password')));
    expect(t.ctx.services.hasher.verifications - before).toBeLessThanOrEqual(3);
    expect(responses.filter((r) => r.statusCode === 403).length).toBeLessThanOrEqual(2);
    expect(responses.every((r) => r.statusCode === 403 || r.statusCode === 401 || r.statusCode === 429)).toBe(true);
  });

  it('answers 400 VALIDATION_ERROR / WEAK_PASSWORD for a bad new password, and changes nothing', async () => {
    const before = (await authInfo()).password_hash;
    expectError(await change(PASSWORD, 'short'), 400, 'VALIDATION_ERROR');
    expectError(await change(PASSWORD, 'x'.repeat(257)), 400, 'VALIDATION_ERROR');
    expectError(await change(PASSWORD, 'password123'), 400, 'WEAK_PASSWORD');
    expectError(await post(t.app, '/api/auth/change-password', { new_password: NEW_PASSWORD }, bearer(token)), 400, 'VALIDATION_ERROR');
    expect((await authInfo()).password_hash).toBe(before);
    expect((await authInfo()).failed_attempts).toBe(0);
  });

  it('answers 401 UNAUTHORIZED without a valid session', async () => {
    const response = await post(t.app, '/api/auth/change-password', { old_password: PASSWORD, new_password: NEW_PASSWORD });
    expectError(response, 401, 'UNAUTHORIZED');
    expect(response.headers['www-authenticate']).toBe('Bearer');
    await post(t.app, '/api/auth/logout', undefined, bearer(token));
    expectError(await change(PASSWORD), 401, 'UNAUTHORIZED');
    expect((await authInfo()).failed_attempts).toBe(0);
  });
});
