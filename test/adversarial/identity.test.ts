// Attacks on the identity features (docs/security.md, "Sessions you can see", "API tokens",
// "Two-factor sign-in"): each test fails without its protection.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { account, createTestApp, type TestApp } from '../support/app.js';
import { expectError } from '../support/expectations.js';
import { login, register, request, type Method } from '../support/requests.js';

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
      routes.push({ method: method.toUpperCase() as Method, url: path.replace(/\{[^}]+\}/g, '1'), optional: security.some((entry) => Object.keys(entry).length === 0) });
    }
  }
  return routes;
}

describe('a revoked session', () => {
  it('is 401 UNAUTHORIZED on every protected route (and anonymous on the optional ones), revoked by id or with the others', async () => {
    await register(t.app, account());
    const keeper = await login(t.app);
    const byId = await login(t.app);
    const byOthers = await login(t.app);
    const routes = protectedRoutes();
    expect(routes.length).toBeGreaterThan(15);
    expect(routes.map((r) => `${r.method} ${r.url}`)).toEqual(expect.arrayContaining(['GET /api/auth/me', 'GET /api/auth/sessions', 'DELETE /api/auth/sessions/1', 'GET /api/time-entries/', 'PATCH /api/settings/']));
    const sessions = (await request(t.app, 'GET', '/api/auth/sessions', { token: byId })).json().sessions as Array<{ id: number; current: boolean }>;
    const idOfById = sessions.find((s) => s.current)!.id;
    expect((await request(t.app, 'DELETE', `/api/auth/sessions/${idOfById}`, { token: keeper })).statusCode).toBe(204);
    expect((await request(t.app, 'POST', '/api/auth/sessions/revoke-others', { token: keeper })).json()).toEqual({ revoked: 1 });
    const anonymous = new Map<string, string>();
    for (const route of routes.filter((r) => r.optional)) anonymous.set(route.url, (await request(t.app, route.method, route.url)).body);
    for (const token of [byId, byOthers]) {
      for (const route of routes) {
        const response = await request(t.app, route.method, route.url, { token, payload: route.method === 'GET' || route.method === 'DELETE' ? undefined : {} });
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

