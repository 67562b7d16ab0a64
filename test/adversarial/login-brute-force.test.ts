// Guessing passwords: one failure count per account whatever identifier is used, wrong old passwords
// included, and a per-address rate limit on top that does not spill over to other addresses.
import { afterEach, describe, expect, it } from 'vitest';
import { account, createTestApp, PASSWORD, type TestApp } from '../support/app.js';
import { bearer, login, register } from '../support/requests.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

async function attempt(app: TestApp['app'], email: string, password: string, remoteAddress = '127.0.0.1', headers: Record<string, string> = {}) {
  return app.inject({ method: 'POST', url: '/api/auth/login', payload: { email, password }, remoteAddress, headers });
}

describe('lockout counts per account', () => {
  it('counts failures through the e-mail in any case and the username as one account', async () => {
    t = await createTestApp();
    await register(t.app, account({ username: 'ann_e' }));
    const identifiers = ['ann@example.com', 'ANN@EXAMPLE.COM', '  Ann@Example.com ', 'ann_e', 'ANN_E'];
    const statuses = [];
    for (const identifier of identifiers) statuses.push((await attempt(t.app, identifier, 'wrong password 1')).statusCode);
    expect(statuses).toEqual([401, 401, 401, 401, 423]);
    for (const identifier of identifiers) expect((await attempt(t.app, identifier, PASSWORD)).statusCode).toBe(423);
  });

  it('does not count a wrong old password of change-password against the account: the session is revoked at its third instead', async () => {
    t = await createTestApp();
    await register(t.app);
    const token = await login(t.app);
    const change = (old_password: string) =>
      t!.app.inject({
        method: 'POST',
        url: '/api/auth/change-password',
        headers: bearer(token),
        payload: { old_password, new_password: 'another fine passphrase' },
      });
    for (let i = 0; i < 2; i++) expect((await change(`wrong old ${i}!`)).json().code).toBe('INVALID_PASSWORD');
    expect((await change('wrong old 3!')).statusCode).toBe(401);
    expect((await change(PASSWORD)).statusCode).toBe(401);
    expect((await attempt(t.app, 'ann@example.com', PASSWORD)).statusCode).toBe(200);
  });
});

describe('rate limit per client address', () => {
  it('answers 429 RATE_LIMITED with Retry-After past the limit, and leaves other addresses alone', async () => {
    t = await createTestApp({ env: { RATE_LIMIT_AUTH: '5' } });
    for (let i = 0; i < 5; i++) expect((await attempt(t.app, `nobody${i}@example.com`, 'whatever pass', '10.0.0.1')).statusCode).toBe(401);
    const limited = await attempt(t.app, 'nobody@example.com', 'whatever pass', '10.0.0.1');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toMatchObject({ statusCode: 429, error: 'Too Many Requests', code: 'RATE_LIMITED' });
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    expect(limited.headers['cache-control']).toBe('no-store');
    // The limit covers the other auth routes from that address too, but not another address.
    expect(
      (await t.app.inject({ method: 'POST', url: '/api/auth/request-reset', payload: { email: 'a@example.com' }, remoteAddress: '10.0.0.1' })).statusCode,
    ).toBe(429);
    expect((await attempt(t.app, 'nobody@example.com', 'whatever pass', '10.0.0.2')).statusCode).toBe(401);
    // Routes outside the four limited ones are not limited.
    expect((await t.app.inject({ method: 'GET', url: '/api/health', remoteAddress: '10.0.0.1' })).statusCode).toBe(200);
  });

  it('ignores X-Forwarded-For unless TRUST_PROXY is set, and then counts the forwarded address', async () => {
    t = await createTestApp({ env: { RATE_LIMIT_AUTH: '2' } });
    for (const forwarded of ['1.1.1.1', '2.2.2.2']) {
      expect((await attempt(t.app, 'x@example.com', 'whatever pass', '10.0.0.9', { 'x-forwarded-for': forwarded })).statusCode).toBe(401);
    }
    // Same proxy address, a third "client": the header is ignored, so it is the third request of one client.
    expect((await attempt(t.app, 'x@example.com', 'whatever pass', '10.0.0.9', { 'x-forwarded-for': '3.3.3.3' })).statusCode).toBe(429);
    await t.close();

    t = await createTestApp({ env: { RATE_LIMIT_AUTH: '2', TRUST_PROXY: 'true' } });
    for (let i = 0; i < 2; i++) {
      expect((await attempt(t.app, 'x@example.com', 'whatever pass', '10.0.0.9', { 'x-forwarded-for': '1.1.1.1' })).statusCode).toBe(401);
    }
    expect((await attempt(t.app, 'x@example.com', 'whatever pass', '10.0.0.9', { 'x-forwarded-for': '1.1.1.1' })).statusCode).toBe(429);
    expect((await attempt(t.app, 'x@example.com', 'whatever pass', '10.0.0.9', { 'x-forwarded-for': '2.2.2.2' })).statusCode).toBe(401);
    // The client writes the leftmost entries itself; the nearest proxy appends the address it saw. A
    // client that picks its own leftmost entry still counts as the address the proxy added.
    for (const spoofed of ['9.9.9.1', '9.9.9.2', '9.9.9.3']) {
      expect((await attempt(t.app, 'x@example.com', 'whatever pass', '10.0.0.9', { 'x-forwarded-for': `${spoofed}, 1.1.1.1` })).statusCode, spoofed).toBe(429);
    }
  });

  it('is off with RATE_LIMIT_AUTH=0', async () => {
    t = await createTestApp({ env: { RATE_LIMIT_AUTH: '0', LOCKOUT_ATTEMPTS: '1000' } });
    for (let i = 0; i < 40; i++) expect((await attempt(t.app, 'y@example.com', 'whatever pass', '10.0.0.3')).statusCode).toBe(401);
  });
});
