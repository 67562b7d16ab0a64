// Sign-in racing a revocation, a burst of guesses against the lockout, and reset tokens of disabled
// accounts (docs/security.md, "Lockout" and "Sessions"). Real argon2id where the race lives in a verification.
import { afterEach, describe, expect, it } from 'vitest';
import { account, createTestApp, PASSWORD, type TestApp } from '../support/app.js';
import { expectError } from '../support/expectations.js';
import { bearer, get, login, post, register, type TestResponse } from '../support/requests.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const NEW_PASSWORD = 'another fine passphrase';

/** Resolves once a password verification is running (the window in which the races happen). */
async function hashingStarted(app: TestApp): Promise<void> {
  while (app.ctx.services.hasher.inFlight === 0) await new Promise((resolve) => setImmediate(resolve));
}

describe('a login racing a revocation', () => {
  it('is refused when the account is disabled while its password is being verified', async () => {
    t = await createTestApp({ realHashing: true });
    const { user } = await register(t.app);
    const pending = post(t.app, '/api/auth/login', { email: 'ann@example.com', password: PASSWORD });
    await hashingStarted(t);
    await t.ctx.services.accountAdmin.disableAccount(user.email);
    expectError(await pending, 403, 'ACCOUNT_DISABLED');
    expect(await t.ctx.db.selectFrom('auth_tokens').selectAll().execute()).toEqual([]);
  });

  it('is refused when the password is changed while the old one is being verified', async () => {
    t = await createTestApp({ realHashing: true });
    const { user } = await register(t.app);
    const newHash = await t.ctx.services.hasher.hash(NEW_PASSWORD);
    const pending = post(t.app, '/api/auth/login', { email: 'ann@example.com', password: PASSWORD });
    await hashingStarted(t);
    await t.ctx.db.updateTable('auth_info').set({ password_hash: newHash }).where('user_id', '=', user.id).execute();
    expectError(await pending, 401, 'INVALID_CREDENTIALS');
    expect(await t.ctx.db.selectFrom('auth_tokens').selectAll().execute()).toEqual([]);
  });

  it('a session of a disabled account is refused, even one stored after the disable', async () => {
    t = await createTestApp();
    const { user } = await register(t.app);
    const token = await login(t.app);
    await t.ctx.db.updateTable('auth_info').set({ status: 'disabled' }).where('user_id', '=', user.id).execute();
    expectError(await get(t.app, '/api/auth/me', bearer(token)), 401, 'UNAUTHORIZED');
  });
});

describe('a password change racing a revocation', () => {
  it('is refused when its own session is revoked while the old password is being verified', async () => {
    t = await createTestApp({ realHashing: true });
    await register(t.app);
    const token = await login(t.app);
    const pending = post(t.app, '/api/auth/change-password', { old_password: PASSWORD, new_password: NEW_PASSWORD }, bearer(token));
    await hashingStarted(t);
    await t.ctx.db.deleteFrom('auth_tokens').execute();
    expectError(await pending, 401, 'UNAUTHORIZED');
    // The password did not change.
    expect((await post(t.app, '/api/auth/login', { email: 'ann@example.com', password: PASSWORD })).statusCode).toBe(200);
  });
});

describe('a burst of guesses', () => {
  it('30 parallel guesses, the right one among them: at most 4 × 401, identical 423s, at most LOCKOUT_ATTEMPTS verifications', async () => {
    t = await createTestApp({ realHashing: true });
    await register(t.app);
    const before = t.ctx.services.hasher.verifications;
    const guesses = Array.from({ length: 30 }, (_, i) => (i === 2 ? PASSWORD : `wrong guess number ${i}`));
    const responses = await Promise.all(guesses.map((password) => post(t!.app, '/api/auth/login', { email: 'ann@example.com', password })));
    expect(t.ctx.services.hasher.verifications - before).toBeLessThanOrEqual(5);
    expectBurstAnswers(responses);
    // The right guess is one of the identical 423s, and the account stays locked for it.
    expect(responses[2]!.statusCode).toBe(423);
    expect((await post(t.app, '/api/auth/login', { email: 'ann@example.com', password: PASSWORD })).statusCode).toBe(423);
    expect(t.ctx.services.hasher.verifications - before).toBeLessThanOrEqual(5);
  });

  it('30 parallel change-password guesses from one session: at most 3 verifications, the session revoked, identical 401s, the account not locked', async () => {
    t = await createTestApp({ realHashing: true });
    const { user } = await register(t.app);
    const token = await login(t.app);
    const before = t.ctx.services.hasher.verifications;
    const guesses = Array.from({ length: 30 }, (_, i) => (i === 10 ? PASSWORD : `wrong guess number ${i}`));
    const responses = await Promise.all(
      guesses.map((old_password) => post(t!.app, '/api/auth/change-password', { old_password, new_password: NEW_PASSWORD }, bearer(token))),
    );
    expect(t.ctx.services.hasher.verifications - before).toBeLessThanOrEqual(3);
    expect(responses.filter((r) => r.statusCode === 200)).toEqual([]);
    expect(responses.filter((r) => r.statusCode === 403).length).toBeLessThanOrEqual(2);
    const refused = responses.filter((r) => r.statusCode === 401);
    expect(refused.length).toBeGreaterThanOrEqual(27);
    expect(new Set(refused.map((r) => r.body)).size).toBeLessThanOrEqual(2); // "signed out" or "no session"
    const info = await t.ctx.db.selectFrom('auth_info').select(['failed_attempts', 'locked_until']).where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(info).toEqual({ failed_attempts: 0, locked_until: null });
  });

  it('a correct password after 4 failures still signs in and starts a new window', async () => {
    t = await createTestApp();
    await register(t.app, account());
    for (let i = 0; i < 4; i += 1)
      expectError(await post(t.app, '/api/auth/login', { email: 'ann@example.com', password: `wrong ${i} guess` }), 401, 'INVALID_CREDENTIALS');
    expect((await post(t.app, '/api/auth/login', { email: 'ann@example.com', password: PASSWORD })).statusCode).toBe(200);
    for (let i = 0; i < 4; i += 1)
      expectError(await post(t.app, '/api/auth/login', { email: 'ann@example.com', password: `wrong ${i} guess` }), 401, 'INVALID_CREDENTIALS');
  });
});

function expectBurstAnswers(responses: TestResponse[]): void {
  expect(responses.filter((r) => r.statusCode === 200)).toEqual([]);
  expect(responses.filter((r) => r.statusCode === 401).length).toBeLessThanOrEqual(4);
  const locked = responses.filter((r) => r.statusCode === 423);
  expect(locked.length).toBe(responses.length - responses.filter((r) => r.statusCode === 401).length);
  // The test clock stands still: every 423 must be the same, byte for byte.
  expect(new Set(locked.map((r) => `${r.headers['retry-after']} ${r.body}`)).size).toBe(1);
}

describe('reset tokens of a disabled account', () => {
  it('are deleted by the disable, refused by reset-password, and not issued', async () => {
    t = await createTestApp();
    const { user } = await register(t.app);
    const issued = await t.ctx.services.resets.issueResetForEmail(user.email);
    await t.ctx.services.accountAdmin.disableAccount(user.email);
    expect(await t.ctx.db.selectFrom('reset_tokens').selectAll().where('used_at', 'is', null).execute()).toEqual([]);
    expectError(await post(t.app, '/api/auth/reset-password', { token: issued.token, new_password: NEW_PASSWORD }), 400, 'INVALID_RESET_TOKEN');
    await expect(t.ctx.services.resets.issueResetForEmail(user.email)).rejects.toMatchObject({ code: 'ACCOUNT_DISABLED' });
  });

  it('reset-password refuses a token of an account disabled after the token was checked', async () => {
    t = await createTestApp();
    const { user } = await register(t.app);
    const issued = await t.ctx.services.resets.issueResetForEmail(user.email);
    // Disabled without the disable's own clean-up: the reset itself must still refuse.
    await t.ctx.db.updateTable('auth_info').set({ status: 'disabled' }).where('user_id', '=', user.id).execute();
    expectError(await post(t.app, '/api/auth/reset-password', { token: issued.token, new_password: NEW_PASSWORD }), 400, 'INVALID_RESET_TOKEN');
  });
});
