// Conventions of every route (docs/api.md, Conventions), the rate limit, GET /api/health and /api/openapi.json.
import { afterEach, describe, expect, it } from 'vitest';
import { account, createTestApp, PASSWORD, type TestApp, sqliteOf } from '../support/app.js';
import { expectError, expectNoInternals } from '../support/expectations.js';
import { bearer, get, login, post, register } from '../support/requests.js';
import { onPostgres } from '../support/database.js';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
async function app(env: Record<string, string> = {}): Promise<TestApp> {
  const t = await createTestApp({ env });
  cleanups.push(t.close);
  return t;
}

const AUTH_POSTS = ['/api/auth/register', '/api/auth/login', '/api/auth/request-reset', '/api/auth/reset-password'];

describe('request bodies', () => {
  it.each(AUTH_POSTS)('%s: a body that is not valid JSON gets 400 with the error shape', async (url) => {
    const t = await app();
    for (const payload of ['{"email": "ann@example.com",', 'not json', '{"__proto__": {"x": 1}}']) {
      const response = await t.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/json' }, payload });
      expectError(response, 400, 'INVALID_JSON');
      expect(response.headers['cache-control']).toBe('no-store');
    }
  });

  it.each(AUTH_POSTS)('%s: a wrong content type gets 415 with the error shape', async (url) => {
    const t = await app();
    for (const [type, payload] of [
      ['text/plain', '{"email":"ann@example.com"}'],
      ['application/x-www-form-urlencoded', 'email=ann%40example.com&password=x'],
      ['multipart/form-data; boundary=x', '--x--'],
    ]) {
      const response = await t.app.inject({ method: 'POST', url, headers: { 'content-type': type! }, payload });
      expectError(response, 415, 'UNSUPPORTED_MEDIA_TYPE');
      expect(response.headers['cache-control']).toBe('no-store');
    }
  });

  it('a body over the limit gets 413 PAYLOAD_TOO_LARGE with the error shape', async () => {
    const t = await app();
    const response = await post(t.app, '/api/auth/login', { email: 'ann@example.com', password: 'x'.repeat(20_000) });
    expectError(response, 413, 'PAYLOAD_TOO_LARGE');
  });

  it('accepts application/json with a charset', async () => {
    const t = await app();
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/auth/register',
      headers: { 'content-type': 'application/json; charset=utf-8' },
      payload: JSON.stringify(account()),
    });
    expect(response.statusCode).toBe(201);
  });

  it('ignores unknown properties instead of storing them', async () => {
    const t = await app();
    const response = await post(t.app, '/api/auth/register', { ...account(), id: 99, is_admin: true });
    expect(response.statusCode).toBe(201);
    expect(response.json().user.id).not.toBe(99);
    expect(response.body).not.toContain('is_admin');
  });

  it('a validation error names the field and carries no input back', async () => {
    const t = await app();
    const response = await post(t.app, '/api/auth/register', account({ password: 'secret7' }));
    const body = expectError(response, 400, 'VALIDATION_ERROR');
    expect(body.message).toMatch(/password/);
    expect(response.body).not.toContain('secret7');
  });
});

describe('error shape beyond the routes', () => {
  it('answers an unknown route with 404 NOT_FOUND in the error shape', async () => {
    const t = await app();
    for (const url of ['/api/nothing', '/api/auth/nothing', '/api']) {
      const response = await get(t.app, url);
      expectError(response, 404, 'NOT_FOUND');
    }
    expectError(await t.app.inject({ method: 'DELETE', url: '/api/auth/login' }), 404, 'NOT_FOUND');
  });

  it.skipIf(onPostgres)('answers a 500 with a generic message: no SQL, no stack; the detail goes to the log (SQLite: skipped on PostgreSQL)', async () => {
    const t = await app();
    await register(t.app);
    sqliteOf(t.ctx).exec('drop table auth_tokens');
    const response = await post(t.app, '/api/auth/login', { email: 'ann@example.com', password: PASSWORD });
    const body = expectError(response, 500, 'INTERNAL_ERROR');
    expect(body.message).toBe('Internal server error');
    expect(response.body).not.toMatch(/auth_tokens|no such table/);
    expect(response.headers['cache-control']).toBe('no-store');
    expect(t.logs()).toMatch(/no such table: auth_tokens/);
    expect(t.logs()).not.toContain(PASSWORD);
  });
});

describe('Cache-Control: no-store on every /api/auth response', () => {
  it('on successes and failures of every route', async () => {
    const t = await app({ NODE_ENV: 'development' });
    await register(t.app);
    const token = await login(t.app);
    const responses = [
      await post(t.app, '/api/auth/register', account()),
      await post(t.app, '/api/auth/register', {}),
      await post(t.app, '/api/auth/login', { email: 'ann@example.com', password: 'wrong password' }),
      await get(t.app, '/api/auth/me', bearer(token)),
      await get(t.app, '/api/auth/me'),
      await get(t.app, '/api/auth/validate', bearer(token)),
      await get(t.app, '/api/auth/validate'),
      await post(t.app, '/api/auth/request-reset', { email: 'ann@example.com' }),
      await post(t.app, '/api/auth/reset-password', { token: 'x', new_password: 'a new passphrase' }),
      await post(t.app, '/api/auth/change-password', { old_password: 'wrong password', new_password: 'a new passphrase' }, bearer(token)),
      await post(t.app, '/api/auth/logout', undefined, bearer(token)),
      await post(t.app, '/api/auth/logout'),
      await get(t.app, '/api/auth/unknown'),
    ];
    for (const response of responses) expect({ status: response.statusCode, cache: response.headers['cache-control'] }).toMatchObject({ cache: 'no-store' });
  });
});

describe('rate limit (RATE_LIMIT_AUTH)', () => {
  it.each(AUTH_POSTS)('RATE_LIMIT_AUTH=3: the 4th request to %s in a minute gets 429 RATE_LIMITED with Retry-After', async (url) => {
    const t = await app({ RATE_LIMIT_AUTH: '3' });
    for (let i = 0; i < 3; i += 1) expect((await post(t.app, url, {})).statusCode).toBe(400);
    const limited = await post(t.app, url, {});
    expectError(limited, 429, 'RATE_LIMITED');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.headers['cache-control']).toBe('no-store');
  });

  it('does not limit the session routes', async () => {
    const t = await app({ RATE_LIMIT_AUTH: '3' });
    for (let i = 0; i < 6; i += 1) expect((await get(t.app, '/api/auth/me')).statusCode).toBe(401);
  });

  it('counts per client address; X-Forwarded-For only counts with TRUST_PROXY', async () => {
    const direct = await app({ RATE_LIMIT_AUTH: '2' });
    const from = (t: TestApp, ip: string) => post(t.app, '/api/auth/login', {}, { 'x-forwarded-for': ip });
    await from(direct, '10.0.0.1');
    await from(direct, '10.0.0.2');
    expect((await from(direct, '10.0.0.3')).statusCode).toBe(429);

    const proxied = await app({ RATE_LIMIT_AUTH: '2', TRUST_PROXY: 'true' });
    await from(proxied, '10.0.0.1');
    await from(proxied, '10.0.0.1');
    expect((await from(proxied, '10.0.0.1')).statusCode).toBe(429);
    expect((await from(proxied, '10.0.0.2')).statusCode).toBe(400);
  });

  it('RATE_LIMIT_AUTH=0 turns it off', async () => {
    const t = await app({ RATE_LIMIT_AUTH: '0' });
    for (let i = 0; i < 40; i += 1) expect((await post(t.app, '/api/auth/request-reset', {})).statusCode).toBe(400);
  });

  it('is on by default with 30 a minute', async () => {
    const dir = await createTestApp({ env: { RATE_LIMIT_AUTH: undefined } });
    cleanups.push(dir.close);
    for (let i = 0; i < 30; i += 1) expect((await post(dir.app, '/api/auth/request-reset', {})).statusCode).toBe(400);
    expect((await post(dir.app, '/api/auth/request-reset', {})).statusCode).toBe(429);
  });
});

describe('GET /api/health', () => {
  it('answers 200 {"status":"ok"} without authentication', async () => {
    const t = await app();
    const response = await get(t.app, '/api/health');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 'ok', version: expect.any(String), commit: expect.any(String), engine: expect.any(String) });
  });

  it.skipIf(onPostgres)('answers 503 when the database does not answer (SQLite: skipped on PostgreSQL)', async () => {
    const t = await app();
    sqliteOf(t.ctx).close();
    const response = await get(t.app, '/api/health');
    expect(response.statusCode).toBe(503);
    cleanups.pop();
    await t.app.close();
  });
});

describe('GET /api/openapi.json', () => {
  it('is an OpenAPI 3 document with every auth route, its body schema and bearer security', async () => {
    const t = await app();
    const response = await get(t.app, '/api/openapi.json');
    expect(response.statusCode).toBe(200);
    const doc = response.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info).toMatchObject({ title: 'timetrack', version: expect.any(String) });
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
    const expected: Array<[string, string]> = [
      ['/api/auth/register', 'post'],
      ['/api/auth/login', 'post'],
      ['/api/auth/logout', 'post'],
      ['/api/auth/me', 'get'],
      ['/api/auth/validate', 'get'],
      ['/api/auth/request-reset', 'post'],
      ['/api/auth/reset-password', 'post'],
      ['/api/auth/change-password', 'post'],
      ['/api/health', 'get'],
    ];
    for (const [path, method] of expected) expect(doc.paths[path]?.[method], `${method} ${path}`).toBeDefined();
    const login = doc.paths['/api/auth/login'].post;
    expect(Object.keys(login.requestBody.content['application/json'].schema.properties).sort()).toEqual(['email', 'password']);
    expect(Object.keys(login.responses)).toEqual(expect.arrayContaining(['200', '401', '403', '423']));
    expect(Object.keys(doc.paths['/api/auth/register'].post.responses)).toEqual(expect.arrayContaining(['201', '400', '403', '409']));
    expect(doc.paths['/api/auth/me'].get.security).toEqual([{ bearerAuth: [] }]);
    for (const [path, methods] of Object.entries<Record<string, { responses: object }>>(doc.paths)) {
      expect(path.startsWith('/api/')).toBe(true);
      for (const operation of Object.values(methods)) expect(Object.keys(operation.responses).length).toBeGreaterThan(0);
    }
    expectNoInternals(response.body);
  });
});

describe('logs', () => {
  it('never carry a password, a session token or a reset token', async () => {
    const t = await app({ NODE_ENV: 'development', LOG_LEVEL: 'trace' });
    await register(t.app);
    const token = await login(t.app);
    await get(t.app, `/api/auth/me?token=${token}`, bearer(token));
    await post(t.app, '/api/auth/login', { email: 'ann@example.com', password: 'a wrong password' });
    const resetToken = (await post(t.app, '/api/auth/request-reset', { email: 'ann@example.com' })).json().reset_token;
    await post(t.app, '/api/auth/reset-password', { token: resetToken, new_password: 'a brand new passphrase' });
    await post(t.app, '/api/auth/register', account({ password: 'short' }));
    const logs = t.logs();
    expect(logs.length).toBeGreaterThan(0);
    for (const secret of [PASSWORD, 'a wrong password', 'a brand new passphrase', token, token.split('.')[2]!, resetToken, '$argon2']) {
      expect(logs).not.toContain(secret);
    }
  });
});
