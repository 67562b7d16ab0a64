// What every answer carries, malformed HTTP, and how clients are told apart for the rate limit
// (docs/security.md, "Headers" and "Rate limit").
import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { rateLimitKey } from '../../src/http/rate-limit-store.js';
import { createTestApp, type TestApp } from '../support/app.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const EXPECTED_HEADERS = {
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'referrer-policy': 'no-referrer',
  'cross-origin-resource-policy': 'same-origin',
};

/** Sends raw bytes to a listening app and returns what comes back before the server closes. */
function rawExchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(request));
    let answer = '';
    socket.on('data', (chunk) => (answer += chunk.toString()));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

describe('security headers', () => {
  it('are on every answer: success, 401, 404, 400, and none adds CORS or a CSP to /api', async () => {
    t = await createTestApp();
    const answers = await Promise.all([
      t.app.inject({ method: 'GET', url: '/api/health' }),
      t.app.inject({ method: 'GET', url: '/api/auth/me' }),
      t.app.inject({ method: 'GET', url: '/api/nothing-here' }),
      t.app.inject({ method: 'POST', url: '/api/auth/login', headers: { 'content-type': 'application/json' }, payload: '{nope' }),
    ]);
    expect(answers.map((a) => a.statusCode)).toEqual([200, 401, 404, 400]);
    for (const answer of answers) {
      expect(answer.headers).toMatchObject(EXPECTED_HEADERS);
      expect(answer.headers['access-control-allow-origin']).toBeUndefined();
      expect(answer.headers['content-security-policy']).toBeUndefined();
    }
  });
});

describe("errors of Node's HTTP parser", () => {
  it.each([
    [
      'a smuggling attempt (Content-Length and Transfer-Encoding)',
      'POST /api/auth/login HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      400,
    ],
    ['bad framing', 'GET /api/health HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n', 400],
    ['headers too large', `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`, 431],
  ])('%s gets the one error shape with a code and the security headers', async (_name, request, status) => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const answer = await rawExchange((t.app.server.address() as net.AddressInfo).port, request);
    const [head = '', body = ''] = answer.split('\r\n\r\n');
    expect(head).toMatch(new RegExp(`^HTTP/1.1 ${status} `));
    expect(head.toLowerCase()).toContain('x-content-type-options: nosniff');
    const parsed = JSON.parse(body);
    expect(Object.keys(parsed).sort()).toEqual(['code', 'error', 'message', 'statusCode']);
    expect(parsed.statusCode).toBe(status);
    expect(parsed.code).toMatch(/^[A-Z_]+$/);
  });
});

describe('rate limit key', () => {
  it('is the IPv4 address, or the /64 of an IPv6 address', () => {
    expect(rateLimitKey('10.0.0.1')).toBe('10.0.0.1');
    expect(rateLimitKey('::ffff:10.0.0.1')).toBe('10.0.0.1');
    expect(rateLimitKey('2001:db8:1:2:aaaa::1')).toBe(rateLimitKey('2001:db8:1:2:ffff:ffff:ffff:ffff'));
    expect(rateLimitKey('2001:db8:1:2::1')).not.toBe(rateLimitKey('2001:db8:1:3::1'));
  });

  it('gives one budget to a whole IPv6 /64', async () => {
    t = await createTestApp({ env: { RATE_LIMIT_AUTH: '3' } });
    const attempt = (remoteAddress: string) =>
      t!.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'x@example.com', password: 'whatever pass' }, remoteAddress });
    for (let i = 1; i <= 3; i += 1) expect((await attempt(`2001:db8:1:2::${i}`)).statusCode).toBe(401);
    expect((await attempt('2001:db8:1:2::99')).statusCode).toBe(429);
    expect((await attempt('2001:db8:1:3::1')).statusCode).toBe(401);
  });
});
