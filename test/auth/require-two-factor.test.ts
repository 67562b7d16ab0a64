// REQUIRE_2FA=true (docs/configuration.md, docs/api.md "Two-factor sign-in"): an account without
// two-factor sign-in signs in only far enough to set it up; it cannot be turned off.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { account, createTestApp, PASSWORD, type TestApp } from '../support/app.js';
import { expectError } from '../support/expectations.js';
import { register, request, type Method, type TestResponse } from '../support/requests.js';
import { totpCode } from '../support/totp.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp({ env: { REQUIRE_2FA: 'true' } });
  await register(t.app, account());
});
afterEach(async () => {
  await t.close();
});

const call = (method: Method, url: string, payload?: unknown, token?: string): Promise<TestResponse> => request(t.app, method, url, { payload, token });
const passwordStep = () => call('POST', '/api/auth/login', { email: 'ann@example.com', password: PASSWORD });

describe('REQUIRE_2FA=true', () => {
  it('an account without it gets a set-up challenge and no token; set-up and enable with it sign in', async () => {
    await call('POST', '/api/auth/login', { email: 'ann@example.com', password: 'a wrong password' });
    const first = await passwordStep();
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ two_factor_setup_required: true, challenge: expect.any(String), expires_at: '2026-03-02T09:15:00.000Z' });
    expect(await t.ctx.db.selectFrom('auth_tokens').select('id').execute()).toEqual([]);
    // The password was the whole proof of such an account: its count ends as after a sign-in.
    expect((await t.ctx.db.selectFrom('auth_info').select('failed_attempts').executeTakeFirstOrThrow()).failed_attempts).toBe(0);
    const { challenge } = first.json();
    // The challenge is no credential anywhere else.
    expectError(await call('GET', '/api/auth/me', undefined, challenge), 401, 'UNAUTHORIZED');
    expectError(await call('POST', '/api/auth/login/2fa', { challenge, code: '123456' }), 401, 'INVALID_CHALLENGE');
    const setup = await call('POST', '/api/auth/2fa/setup', { challenge });
    expect(setup.statusCode, setup.body).toBe(200);
    const { secret } = setup.json();
    const enabled = await call('POST', '/api/auth/2fa/enable', { challenge, code: totpCode(secret, t.clock.now()) });
    expect(enabled.statusCode, enabled.body).toBe(200);
    expect(enabled.json()).toEqual({
      recovery_codes: expect.any(Array),
      token: expect.any(String),
      token_type: 'Bearer',
      expires_at: '2026-03-03T09:00:00.000Z',
      user: expect.objectContaining({ email: 'ann@example.com' }),
    });
    const token = enabled.json().token;
    expect((await call('GET', '/api/auth/me', undefined, token)).statusCode).toBe(200);
    // Used once.
    expectError(await call('POST', '/api/auth/2fa/setup', { challenge }), 401, 'INVALID_CHALLENGE');
    // From now on: the usual two steps.
    expect((await passwordStep()).json().two_factor_required).toBe(true);
    // It cannot be turned off here.
    t.clock.advance(30);
    expectError(await call('POST', '/api/auth/2fa/disable', { password: PASSWORD, code: totpCode(secret, t.clock.now()) }, token), 403, 'TWO_FACTOR_REQUIRED');
    expect((await call('GET', '/api/auth/2fa', undefined, token)).json()).toMatchObject({ enabled: true, required: true });
  });

  it('a set-up challenge made with the old password is void after a reset', async () => {
    const { challenge } = (await passwordStep()).json();
    const { token } = await t.ctx.services.resets.issueResetForEmail('ann@example.com');
    expect((await call('POST', '/api/auth/reset-password', { token, new_password: 'a brand new passphrase' })).statusCode).toBe(200);
    expectError(await call('POST', '/api/auth/2fa/setup', { challenge }), 401, 'INVALID_CHALLENGE');
  });

  it('a set-up challenge lives 15 minutes; without a challenge or a session the set-up is 401', async () => {
    const { challenge } = (await passwordStep()).json();
    expectError(await call('POST', '/api/auth/2fa/setup', {}), 401, 'UNAUTHORIZED');
    t.clock.advance(15 * 60);
    expectError(await call('POST', '/api/auth/2fa/setup', { challenge }), 401, 'INVALID_CHALLENGE');
  });

  it('a sign-in challenge is no set-up challenge', async () => {
    const { challenge } = (await passwordStep()).json();
    const { secret } = (await call('POST', '/api/auth/2fa/setup', { challenge })).json();
    const signedIn = (await call('POST', '/api/auth/2fa/enable', { challenge, code: totpCode(secret, t.clock.now()) })).json();
    expect(signedIn.token).toEqual(expect.any(String));
    const signIn = (await passwordStep()).json();
    expectError(await call('POST', '/api/auth/2fa/setup', { challenge: signIn.challenge }), 401, 'INVALID_CHALLENGE');
  });

  it('an API token of an account without two-factor sign-in reaches nothing', async () => {
    const created = await t.ctx.services.apiTokens.createToken(1, 'made before REQUIRE_2FA', 30);
    expectError(await call('GET', '/api/auth/me', undefined, created.token), 401, 'UNAUTHORIZED');
  });
});
