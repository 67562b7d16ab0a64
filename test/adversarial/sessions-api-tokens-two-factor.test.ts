// Attacks on the identity features (docs/security.md, "Sessions you can see", "API tokens",
// "Two-factor sign-in"): each test fails without its protection.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { account, createTestApp, PASSWORD, type TestApp } from '../support/app.js';
import { expectError } from '../support/expectations.js';
import { login, register, request, type Method } from '../support/requests.js';
import { totpCode, wrongCode } from '../support/totp.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
});
afterEach(async () => {
  await t.close();
});

interface Route {
  method: Method;
  url: string;
  /** Optional authentication (`/api/stats`): a bad credential means anonymous, never 401. */
  optional: boolean;
}

/** Every route of the OpenAPI document that takes a Bearer credential, with 1 for each path parameter. */
function protectedRoutes(): Route[] {
  const document = t.app.swagger() as { paths: Record<string, Record<string, { security?: Array<Record<string, unknown>> }>> };
  const routes: Route[] = [];
  for (const [path, operations] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(operations)) {
      const security = operation.security ?? [];
      if (!security.some((entry) => 'bearerAuth' in entry)) continue;
      routes.push({
        method: method.toUpperCase() as Method,
        url: path.replace(/\{[^}]+\}/g, '1'),
        optional: security.some((entry) => Object.keys(entry).length === 0),
      });
    }
  }
  return routes;
}

/**
 * What an API token may reach: time tracking, statistics, /me and /validate, one's own notices, and one's own
 * leave requests (the list, withdrawing, asking to cancel; deciding is administration). Everything else with a
 * Bearer is account management.
 */
const API_TOKEN_REACH = /^\/api\/(auth\/(me|validate)$|time-entries|settings|stats|notices|requests\/?(\d+\/(withdraw|cancel))?$)/;
/**
 * Reading is within a token's reach: teams, a team's week and calendar, and the figures of the people its account
 * may read (docs/teams.md); every change of a team is administration.
 */
const readsTeams = (route: Route) =>
  route.method === 'GET' && (/^\/api\/teams\/(\d+(\/overview|\/calendar)?)?$/.test(route.url) || /^\/api\/users\/\d+\/stats\//.test(route.url));
/**
 * The own months (reading them, submitting one) and reading the months waiting for a decision, a person's month,
 * its seal or a team's months (docs/teams.md, "Closed months").
 */
const readsMonths = (route: Route) =>
  /^\/api\/months(\/[^/]+\/submit|\/waiting)?$/.test(route.url) ||
  (route.method === 'GET' && (/^\/api\/users\/\d+\/months\/[^/]+(\/verify)?$/.test(route.url) || /^\/api\/teams\/\d+\/months$/.test(route.url)));

describe('an API token', () => {
  it('is refused with 403 FORBIDDEN_FOR_API_TOKEN on every account-management route, and changes nothing', async () => {
    await register(t.app, account());
    const session = await login(t.app);
    const created = (
      await request(t.app, 'POST', '/api/auth/api-tokens', { token: session, payload: { name: 'script', expires_in_days: 30, password: PASSWORD } })
    ).json();
    const management = protectedRoutes().filter((route) => !API_TOKEN_REACH.test(route.url) && !readsTeams(route) && !readsMonths(route));
    expect(management.map((r) => `${r.method} ${r.url}`)).toEqual(
      expect.arrayContaining([
        'POST /api/auth/logout',
        'POST /api/auth/change-password',
        'GET /api/auth/sessions',
        'DELETE /api/auth/sessions/1',
        'POST /api/auth/sessions/revoke-others',
        'POST /api/auth/api-tokens',
        'GET /api/auth/api-tokens',
        'DELETE /api/auth/api-tokens/1',
      ]),
    );
    const realBodies: Record<string, unknown> = {
      '/api/auth/change-password': { old_password: PASSWORD, new_password: 'a brand new passphrase' },
      '/api/auth/api-tokens': { name: 'another', expires_in_days: 1, password: PASSWORD },
    };
    for (const route of management) {
      const url = route.url.replace('/api-tokens/1', `/api-tokens/${created.id}`);
      const payload = route.method === 'GET' || route.method === 'DELETE' ? undefined : (realBodies[url] ?? {});
      expectError(await request(t.app, route.method, url, { token: created.token, payload }), 403, 'FORBIDDEN_FOR_API_TOKEN');
    }
    expect((await request(t.app, 'GET', '/api/auth/me', { token: session })).statusCode).toBe(200);
    expect((await request(t.app, 'GET', '/api/auth/me', { token: created.token })).statusCode).toBe(200);
    expect((await request(t.app, 'GET', '/api/auth/api-tokens', { token: session })).json().api_tokens).toHaveLength(1);
    expect(await login(t.app)).toEqual(expect.any(String));
  });

  it('once revoked, is 401 UNAUTHORIZED on every protected route (and anonymous on the optional ones)', async () => {
    await register(t.app, account());
    const session = await login(t.app);
    const created = (
      await request(t.app, 'POST', '/api/auth/api-tokens', { token: session, payload: { name: 'script', expires_in_days: 30, password: PASSWORD } })
    ).json();
    expect((await request(t.app, 'GET', '/api/time-entries', { token: created.token })).statusCode).toBe(200);
    expect((await request(t.app, 'DELETE', `/api/auth/api-tokens/${created.id}`, { token: session })).statusCode).toBe(204);
    for (const route of protectedRoutes()) {
      const response = await request(t.app, route.method, route.url, {
        token: created.token,
        payload: route.method === 'GET' || route.method === 'DELETE' ? undefined : {},
      });
      if (route.optional) expect(response.body, `${route.method} ${route.url}`).toBe((await request(t.app, route.method, route.url)).body);
      else expectError(response, 401, 'UNAUTHORIZED');
    }
  });
});

describe('a revoked session', () => {
  it('is 401 UNAUTHORIZED on every protected route (and anonymous on the optional ones), revoked by id or with the others', async () => {
    await register(t.app, account());
    const keeper = await login(t.app);
    const byId = await login(t.app);
    const byOthers = await login(t.app);
    const routes = protectedRoutes();
    expect(routes.length).toBeGreaterThan(15);
    expect(routes.map((r) => `${r.method} ${r.url}`)).toEqual(
      expect.arrayContaining(['GET /api/auth/me', 'GET /api/auth/sessions', 'DELETE /api/auth/sessions/1', 'GET /api/time-entries/', 'PATCH /api/settings/']),
    );
    const sessions = (await request(t.app, 'GET', '/api/auth/sessions', { token: byId })).json().sessions as Array<{ id: number; current: boolean }>;
    const idOfById = sessions.find((s) => s.current)!.id;
    expect((await request(t.app, 'DELETE', `/api/auth/sessions/${idOfById}`, { token: keeper })).statusCode).toBe(204);
    expect((await request(t.app, 'POST', '/api/auth/sessions/revoke-others', { token: keeper })).json()).toEqual({ revoked: 1, revoked_api_tokens: 0 });
    const anonymous = new Map<string, string>();
    for (const route of routes.filter((r) => r.optional)) anonymous.set(route.url, (await request(t.app, route.method, route.url)).body);
    for (const token of [byId, byOthers]) {
      for (const route of routes) {
        const response = await request(t.app, route.method, route.url, {
          token,
          payload: route.method === 'GET' || route.method === 'DELETE' ? undefined : {},
        });
        if (route.optional) {
          expect(response.statusCode, `${route.method} ${route.url}`).toBe(200);
          expect(response.body, `${route.method} ${route.url}`).toBe(anonymous.get(route.url));
        } else {
          expectError(response, 401, 'UNAUTHORIZED');
        }
      }
    }
    expect((await request(t.app, 'GET', '/api/auth/me', { token: keeper })).statusCode).toBe(200);
  });
});

/** Turns two-factor sign-in on for an account through the API; its secret and recovery codes. */
async function enableTwoFactor(email: string): Promise<{ secret: string; recoveryCodes: string[] }> {
  const session = await login(t.app, email);
  const { secret } = (await request(t.app, 'POST', '/api/auth/2fa/setup', { token: session, payload: { password: PASSWORD } })).json();
  const enabled = await request(t.app, 'POST', '/api/auth/2fa/enable', { token: session, payload: { code: totpCode(secret, t.clock.now()) } });
  expect(enabled.statusCode).toBe(200);
  return { secret, recoveryCodes: enabled.json().recovery_codes };
}

async function challengeOf(email: string): Promise<string> {
  const response = await request(t.app, 'POST', '/api/auth/login', { payload: { email, password: PASSWORD } });
  expect(response.json().two_factor_required).toBe(true);
  return response.json().challenge;
}

const secondStep = (challenge: string, code: string) => request(t.app, 'POST', '/api/auth/login/2fa', { payload: { challenge, code } });

describe('two-factor sign-in under attack', () => {
  // Lockout is not the subject here (the last test's is): room for the tries each test makes.
  beforeEach(async () => {
    await t.close();
    t = await createTestApp({ env: { LOCKOUT_ATTEMPTS: '50' } });
  });

  it('refuses a replayed TOTP code, in the same 30 seconds and in the next ones (its step is stored)', async () => {
    await register(t.app, account());
    const { secret } = await enableTwoFactor('ann@example.com');
    t.clock.advance(30);
    const code = totpCode(secret, t.clock.now());
    expect((await secondStep(await challengeOf('ann@example.com'), code)).statusCode).toBe(200);
    expectError(await secondStep(await challengeOf('ann@example.com'), code), 403, 'INVALID_TWO_FACTOR_CODE');
    t.clock.advance(29);
    expectError(await secondStep(await challengeOf('ann@example.com'), code), 403, 'INVALID_TWO_FACTOR_CODE');
    // The code of the step before (within the drift) is older than the used one: refused too.
    expectError(await secondStep(await challengeOf('ann@example.com'), totpCode(secret, t.clock.now().getTime() - 30_000)), 403, 'INVALID_TWO_FACTOR_CODE');
  });

  it('refuses a replayed TOTP code sent twice at the same moment: one session', async () => {
    await register(t.app, account());
    const { secret } = await enableTwoFactor('ann@example.com');
    t.clock.advance(30);
    const code = totpCode(secret, t.clock.now());
    const [a, b] = [await challengeOf('ann@example.com'), await challengeOf('ann@example.com')];
    const answers = await Promise.all([secondStep(a, code), secondStep(b, code)]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 403]);
  });

  it('refuses a challenge used once already', async () => {
    await register(t.app, account());
    const { secret } = await enableTwoFactor('ann@example.com');
    const challenge = await challengeOf('ann@example.com');
    t.clock.advance(30);
    expect((await secondStep(challenge, totpCode(secret, t.clock.now()))).statusCode).toBe(200);
    t.clock.advance(30);
    expectError(await secondStep(challenge, totpCode(secret, t.clock.now())), 401, 'INVALID_CHALLENGE');
  });

  it('refuses the challenge of one account with the code of another, both ways', async () => {
    await register(t.app, account());
    await register(t.app, account({ email: 'eve@example.com' }));
    const ann = await enableTwoFactor('ann@example.com');
    const eve = await enableTwoFactor('eve@example.com');
    t.clock.advance(30);
    const annsChallenge = await challengeOf('ann@example.com');
    const evesChallenge = await challengeOf('eve@example.com');
    expectError(await secondStep(annsChallenge, totpCode(eve.secret, t.clock.now())), 403, 'INVALID_TWO_FACTOR_CODE');
    expectError(await secondStep(annsChallenge, eve.recoveryCodes[0]!), 403, 'INVALID_TWO_FACTOR_CODE');
    expectError(await secondStep(evesChallenge, totpCode(ann.secret, t.clock.now())), 403, 'INVALID_TWO_FACTOR_CODE');
    // Each challenge signs in its own account only.
    const signedIn = await secondStep(evesChallenge, totpCode(eve.secret, t.clock.now()));
    expect(signedIn.json().user.email).toBe('eve@example.com');
  });

  it('refuses a recovery code used once already, also sent twice at once', async () => {
    await register(t.app, account());
    const { recoveryCodes } = await enableTwoFactor('ann@example.com');
    expect((await secondStep(await challengeOf('ann@example.com'), recoveryCodes[3]!)).statusCode).toBe(200);
    expectError(await secondStep(await challengeOf('ann@example.com'), recoveryCodes[3]!), 403, 'INVALID_TWO_FACTOR_CODE');
    const [a, b] = [await challengeOf('ann@example.com'), await challengeOf('ann@example.com')];
    const answers = await Promise.all([secondStep(a, recoveryCodes[4]!), secondStep(b, recoveryCodes[4]!)]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 403]);
  });
});

describe('two-factor sign-in against a burst', () => {
  it('30 parallel wrong codes: at most 5 checked, the rest refused by the lock unchecked', async () => {
    await register(t.app, account());
    const { secret } = await enableTwoFactor('ann@example.com');
    t.clock.advance(30);
    const challenge = await challengeOf('ann@example.com');
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => secondStep(challenge, wrongCode(secret, t.clock.now(), i))));
    const checked = answers.filter((r) => r.statusCode === 403).length;
    // The password took one slot: at most 3 answers 403, the code in the last slot locks (423).
    expect(checked).toBeLessThanOrEqual(3);
    expect(answers.filter((r) => r.statusCode === 423).length).toBe(30 - checked);
    expectError(await secondStep(challenge, totpCode(secret, t.clock.now())), 423, 'ACCOUNT_LOCKED');
  });
});
