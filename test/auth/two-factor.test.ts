// Two-factor sign-in (docs/api.md, "Two-factor sign-in"): set-up with the password, enable with a
// code (10 recovery codes, once), sign-in in two steps, one step of drift, codes counted against the
// lockout, disable and new recovery codes with password and code, secrets sealed with a key that is
// not in the database. TOTP codes come from the real library at the test's clock.
import fs from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSecretBox, SealedSecretError, type SecretBoxKeys } from '../../src/auth/secret-box.js';
import { createTwoFactorService } from '../../src/auth/two-factor/index.js';
import { account, createTestApp, PASSWORD, type TestApp } from '../support/app.js';
import { expectError } from '../support/expectations.js';
import { login, register, request, type Method, type TestResponse } from '../support/requests.js';
import { totpCode, wrongCode } from '../support/totp.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
  await register(t.app, account());
});
afterEach(async () => {
  await t.close();
});

const call = (method: Method, url: string, token?: string, payload?: unknown): Promise<TestResponse> => request(t.app, method, url, { token, payload });
const now = () => t.clock.now();

/** Sets two-factor sign-in up and on for Ann; her session, secret and recovery codes. */
async function enableTwoFactor(email = 'ann@example.com'): Promise<{ session: string; secret: string; recoveryCodes: string[] }> {
  const session = await login(t.app, email);
  const setup = await call('POST', '/api/auth/2fa/setup', session, { password: PASSWORD });
  expect(setup.statusCode, setup.body).toBe(200);
  const { secret } = setup.json();
  const enabled = await call('POST', '/api/auth/2fa/enable', session, { code: totpCode(secret, now()) });
  expect(enabled.statusCode, enabled.body).toBe(200);
  return { session, secret, recoveryCodes: enabled.json().recovery_codes };
}

async function passwordStep(email = 'ann@example.com'): Promise<string> {
  const response = await call('POST', '/api/auth/login', undefined, { email, password: PASSWORD });
  expect(response.statusCode, response.body).toBe(200);
  expect(response.json()).toEqual({ two_factor_required: true, challenge: expect.any(String), expires_at: new Date(now().getTime() + 300_000).toISOString() });
  return response.json().challenge;
}

const secondStep = (challenge: string, code: string) => call('POST', '/api/auth/login/2fa', undefined, { challenge, code });

describe('set-up and enable', () => {
  it('set-up takes the current password and answers the secret and an otpauth URI; nothing changes until a code confirms it', async () => {
    const session = await login(t.app);
    expectError(await call('POST', '/api/auth/2fa/setup', session, { password: 'not the password' }), 403, 'INVALID_PASSWORD');
    expectError(await call('POST', '/api/auth/2fa/setup', session, {}), 400, 'VALIDATION_ERROR');
    const setup = await call('POST', '/api/auth/2fa/setup', session, { password: PASSWORD });
    expect(setup.statusCode).toBe(200);
    expect(setup.headers['cache-control']).toBe('no-store');
    const { secret, otpauth_uri } = setup.json();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(otpauth_uri).toBe(`otpauth://totp/timetrack:ann%40example.com?issuer=timetrack&secret=${secret}&algorithm=SHA1&digits=6&period=30`);
    expect((await call('GET', '/api/auth/2fa', session)).json()).toEqual({ enabled: false, pending: true, recovery_codes_remaining: 0, required: false });
    // Still one step: the secret is not on until a code confirms it.
    expect((await call('POST', '/api/auth/login', undefined, { email: 'ann@example.com', password: PASSWORD })).json().token).toEqual(expect.any(String));
    expectError(await call('POST', '/api/auth/2fa/enable', session, { code: wrongCode(secret, now()) }), 403, 'INVALID_TWO_FACTOR_CODE');
  });

  it('enable with a right code answers 10 recovery codes (once; stored as keyed hashes) and signs every other session out', async () => {
    const session = await login(t.app);
    const other = await login(t.app);
    const { secret } = (await call('POST', '/api/auth/2fa/setup', session, { password: PASSWORD })).json();
    const enabled = await call('POST', '/api/auth/2fa/enable', session, { code: totpCode(secret, now()) });
    expect(enabled.statusCode).toBe(200);
    const codes = enabled.json().recovery_codes as string[];
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[0-9a-hjkmnp-tv-z]{4}(-[0-9a-hjkmnp-tv-z]{4}){3}$/);
    const stored =
      JSON.stringify(await t.ctx.db.selectFrom('two_factor_recovery_codes').selectAll().execute()) +
      JSON.stringify(await t.ctx.db.selectFrom('two_factor').selectAll().execute());
    for (const code of codes) expect(stored).not.toContain(code.replace(/-/g, ''));
    expect(stored).not.toContain(secret);
    expectError(await call('GET', '/api/auth/me', other), 401, 'UNAUTHORIZED');
    expect((await call('GET', '/api/auth/me', session)).statusCode).toBe(200);
    expect((await call('GET', '/api/auth/2fa', session)).json()).toEqual({ enabled: true, pending: false, recovery_codes_remaining: 10, required: false });
    expectError(await call('POST', '/api/auth/2fa/setup', session, { password: PASSWORD }), 409, 'TWO_FACTOR_ALREADY_ENABLED');
    const audit = await t.ctx.services.audit.list({ userIds: await t.ctx.services.audit.accountIds('ann@example.com') });
    expect(audit[0]).toMatchObject({ action: 'two_factor_enabled', detail: { other_sessions_revoked: 1 } });
  });

  it('seals the secret with a key that is not in the database, bound to its account', async () => {
    await enableTwoFactor();
    const { secret_ciphertext } = await t.ctx.db.selectFrom('two_factor').select('secret_ciphertext').executeTakeFirstOrThrow();
    expect(secret_ciphertext).toMatch(/^v1\.[A-Za-z0-9_-]+$/);
    const other = createSecretBox(keysOf('another sealing key, 32 bytes or more', 'another server secret, 32 bytes or more'));
    expect(() => other.open(secret_ciphertext, 'two-factor:1')).toThrow(SealedSecretError);
    // The right key opens it for its own account only.
    expect(createSecretBox(serverKeys()).open(secret_ciphertext, 'two-factor:1')).toMatch(/^[A-Z2-7]{32}$/);
    expect(() => createSecretBox(serverKeys()).open(secret_ciphertext, 'two-factor:2')).toThrow(SealedSecretError);
  });
});

describe('a changed server secret', () => {
  it('makes the sealed TOTP secret unreadable (codes refused as a misconfiguration, not counted; the log says why); recovery codes still sign in', async () => {
    const { secret, recoveryCodes } = await enableTwoFactor();
    const { services, clock, database, logger } = t.ctx;
    const box = createSecretBox(keysOf('a rotated sealing key of 32 bytes or more', 'a rotated server secret of 32 bytes or more'));
    const rotated = createTwoFactorService({
      database,
      clock,
      hasher: services.hasher,
      lockout: services.lockout,
      sessions: services.sessions,
      box,
      logger,
      options: { required: false, firstCodeLockSeconds: 60 },
    });
    t.clock.advance(30);
    for (let i = 0; i < 6; i += 1) {
      await expect(rotated.completeSignIn(await passwordStep(), totpCode(secret, now()))).rejects.toMatchObject({ code: 'SERVER_MISCONFIGURED' });
    }
    // More tries than LOCKOUT_ATTEMPTS, and none counted: the server's fault, not the person's.
    expect((await t.ctx.db.selectFrom('auth_info').select(['failed_attempts', 'locked_until']).executeTakeFirstOrThrow()).failed_attempts).toBe(0);
    await t.ctx.services.activity.flush();
    expect(t.logs()).toMatch(/a two-factor secret does not open with this server's keys: set SECRET_KEY/);
    expect(t.logs()).not.toContain(secret);
    expect((await rotated.completeSignIn(await passwordStep(), recoveryCodes[0]!)).token).toEqual(expect.any(String));
  });
});

describe('sign-in with two-factor sign-in on', () => {
  it('the password answers a challenge and no token; the challenge and a code answer what login answers', async () => {
    const { secret } = await enableTwoFactor();
    const sessionsBefore = (await t.ctx.db.selectFrom('auth_tokens').select('id').execute()).length;
    const challenge = await passwordStep();
    expect((await t.ctx.db.selectFrom('auth_tokens').select('id').execute()).length).toBe(sessionsBefore);
    t.clock.advance(30);
    const response = await secondStep(challenge, totpCode(secret, now()));
    expect(response.statusCode, response.body).toBe(200);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(response.json()).toEqual({
      token: expect.any(String),
      token_type: 'Bearer',
      expires_at: '2026-03-03T09:00:30.000Z',
      user: expect.objectContaining({ email: 'ann@example.com' }),
    });
    expect((await call('GET', '/api/auth/me', response.json().token)).statusCode).toBe(200);
  });

  it('allows one step of clock drift either way, not two', async () => {
    const { secret } = await enableTwoFactor();
    t.clock.advance(300);
    const at = now().getTime();
    // Two slots per try (password, code); each sign-in that succeeds ends the count.
    expectError(await secondStep(await passwordStep(), totpCode(secret, at - 60_000)), 403, 'INVALID_TWO_FACTOR_CODE');
    expect((await secondStep(await passwordStep(), totpCode(secret, at - 30_000))).statusCode).toBe(200);
    expectError(await secondStep(await passwordStep(), totpCode(secret, at + 60_000)), 403, 'INVALID_TWO_FACTOR_CODE');
    expect((await secondStep(await passwordStep(), totpCode(secret, at + 30_000))).statusCode).toBe(200);
  });

  it('a challenge lives 5 minutes', async () => {
    const { secret } = await enableTwoFactor();
    t.clock.advance(60);
    const challenge = await passwordStep();
    t.clock.advance(300);
    expectError(await secondStep(challenge, totpCode(secret, now())), 401, 'INVALID_CHALLENGE');
  });

  it('a password change voids a pending challenge', async () => {
    const { session, secret } = await enableTwoFactor();
    t.clock.advance(60);
    const challenge = await passwordStep();
    expect((await call('POST', '/api/auth/change-password', session, { old_password: PASSWORD, new_password: 'a brand new passphrase' })).statusCode).toBe(200);
    expectError(await secondStep(challenge, totpCode(secret, now())), 401, 'INVALID_CHALLENGE');
  });

  it('a recovery code signs in once, in any case and with or without dashes', async () => {
    const { session, recoveryCodes } = await enableTwoFactor();
    const first = await secondStep(await passwordStep(), recoveryCodes[0]!.toUpperCase().replace(/-/g, ' '));
    expect(first.statusCode, first.body).toBe(200);
    expect((await call('GET', '/api/auth/2fa', session)).json().recovery_codes_remaining).toBe(9);
    expect((await t.ctx.services.audit.list({ userIds: await t.ctx.services.audit.accountIds('ann@example.com') }))[0]!.action).toBe('recovery_code_used');
  });

  it('wrong codes count apart from passwords: every four lock the codes, each lock twice as long; knowing the password buys no fresh guesses', async () => {
    const { secret } = await enableTwoFactor();
    t.clock.advance(60);
    const challenge = await passwordStep();
    const fourWrong = async () => {
      for (let i = 0; i < 3; i += 1) expectError(await secondStep(challenge, wrongCode(secret, now(), i)), 403, 'INVALID_TWO_FACTOR_CODE');
      const lock = await secondStep(challenge, wrongCode(secret, now(), 3));
      expectError(lock, 423, 'ACCOUNT_LOCKED');
      return Number(lock.headers['retry-after']);
    };
    expect(await fourWrong()).toBe(60);
    // The right password still answers a challenge (passwords count apart), but no code is checked.
    const again = await passwordStep();
    expectError(await secondStep(again, totpCode(secret, now())), 423, 'ACCOUNT_LOCKED');
    t.clock.advance(60);
    expect(await fourWrong()).toBe(120);
    t.clock.advance(120);
    const response = await secondStep(await passwordStep(), totpCode(secret, now()));
    expect(response.statusCode).toBe(200);
    // The whole sign-in ends both counts.
    expect((await t.ctx.db.selectFrom('auth_info').select('failed_attempts').executeTakeFirstOrThrow()).failed_attempts).toBe(0);
    expect(await t.ctx.db.selectFrom('two_factor_failures').selectAll().execute()).toEqual([]);
  });
});

describe('disable and new recovery codes', () => {
  it('disable takes the password and a code, signs the other sessions out and brings back one-step sign-in', async () => {
    const { session, secret } = await enableTwoFactor();
    const challenge = await passwordStep();
    t.clock.advance(30);
    const other = (await secondStep(challenge, totpCode(secret, now()))).json().token;
    t.clock.advance(30);
    expectError(await call('POST', '/api/auth/2fa/disable', session, { password: 'wrong password', code: totpCode(secret, now()) }), 403, 'INVALID_PASSWORD');
    expectError(await call('POST', '/api/auth/2fa/disable', session, { password: PASSWORD, code: wrongCode(secret, now()) }), 403, 'INVALID_TWO_FACTOR_CODE');
    expectError(await call('POST', '/api/auth/2fa/disable', session, { password: PASSWORD }), 400, 'VALIDATION_ERROR');
    const response = await call('POST', '/api/auth/2fa/disable', session, { password: PASSWORD, code: totpCode(secret, now()) });
    expect(response.statusCode, response.body).toBe(200);
    expectError(await call('GET', '/api/auth/me', other), 401, 'UNAUTHORIZED');
    expect((await call('GET', '/api/auth/2fa', session)).json()).toEqual({ enabled: false, pending: false, recovery_codes_remaining: 0, required: false });
    expect(await t.ctx.db.selectFrom('two_factor_recovery_codes').select('id').execute()).toEqual([]);
    expect((await call('POST', '/api/auth/login', undefined, { email: 'ann@example.com', password: PASSWORD })).json().token).toEqual(expect.any(String));
    expectError(await call('POST', '/api/auth/2fa/disable', session, { password: PASSWORD, code: '123456' }), 409, 'TWO_FACTOR_NOT_ENABLED');
  });

  it('new recovery codes (password and a code) replace the old set', async () => {
    const { session, secret, recoveryCodes } = await enableTwoFactor();
    t.clock.advance(30);
    const response = await call('POST', '/api/auth/2fa/recovery-codes', session, { password: PASSWORD, code: totpCode(secret, now()) });
    expect(response.statusCode, response.body).toBe(200);
    const fresh = response.json().recovery_codes as string[];
    expect(fresh).toHaveLength(10);
    expect(fresh.some((code) => recoveryCodes.includes(code))).toBe(false);
    expectError(await secondStep(await passwordStep(), recoveryCodes[1]!), 403, 'INVALID_TWO_FACTOR_CODE');
    expect((await secondStep(await passwordStep(), fresh[0]!)).statusCode).toBe(200);
    expect((await t.ctx.services.audit.list({ userIds: await t.ctx.services.audit.accountIds('ann@example.com') })).map((event) => event.action)).toContain(
      'recovery_codes_replaced',
    );
  });
});

function keysOf(sealingKey: string, sessionSecret: string): SecretBoxKeys {
  return { sealingSecret: () => new TextEncoder().encode(sealingKey), sessionSecret: () => new TextEncoder().encode(sessionSecret) };
}

/** The keys of the test app: SECRET_KEY or the generated `<db>.secret-key` (its text), and the server secret. */
function serverKeys(): SecretBoxKeys {
  const file = `${t.dbPath}.secret-key`;
  const generated = () => (fs.existsSync(file) ? new TextEncoder().encode(fs.readFileSync(file, 'utf8').trim()) : undefined);
  return { sealingSecret: () => t.ctx.config.secretKey ?? generated(), sessionSecret: serverSecret };
}

/** The server secret of the test app (JWT_SECRET, or the generated file beside the SQLite database). */
function serverSecret(): Uint8Array {
  return t.ctx.config.jwtSecret ?? new Uint8Array(Buffer.from(fs.readFileSync(`${t.dbPath}.jwt-secret`, 'utf8').trim(), 'hex'));
}
