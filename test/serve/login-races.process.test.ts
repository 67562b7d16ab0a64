// The lockout and sign-in races against a real `timetrack serve` (argon2id) over real sockets
// (docs/security.md, "Lockout" and "Sessions").
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../support/app.js';
import { call, startServer, type RunningServer } from '../support/server.js';

const PASSWORD = 'correct horse battery staple';
const running: RunningServer[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) await server.stop();
});

async function serve(env: Record<string, string> = {}): Promise<RunningServer> {
  const server = await startServer(path.join(makeTempDir(), 'timetrack.db'), env);
  running.push(server);
  return server;
}

async function registerAndLogin(server: RunningServer): Promise<string> {
  expect((await call(server, 'POST', '/api/auth/register', { email: 'ann@example.com', password: PASSWORD, full_name: 'Ann' })).status).toBe(201);
  const login = await call(server, 'POST', '/api/auth/login', { email: 'ann@example.com', password: PASSWORD });
  expect(login.status).toBe(200);
  return JSON.parse(login.text).token as string;
}

describe('lockout against a real server', () => {
  it('30 parallel guesses, the right one among them: at most 4 × 401 and identical 423s, the right one included', async () => {
    const server = await serve();
    await registerAndLogin(server);
    const guesses = Array.from({ length: 30 }, (_, i) => (i === 2 ? PASSWORD : `wrong guess number ${i}`));
    const responses = await Promise.all(guesses.map((password) => call(server, 'POST', '/api/auth/login', { email: 'ann@example.com', password })));
    expect(responses.filter((r) => r.status === 200)).toEqual([]);
    const unauthorized = responses.filter((r) => r.status === 401).length;
    expect(unauthorized).toBeLessThanOrEqual(4);
    const locked = responses.filter((r) => r.status === 423);
    expect(locked.length).toBe(30 - unauthorized);
    expect(responses[2]!.status).toBe(423);
    // One body, and one lock end behind every Retry-After (it may tick over one second during the burst).
    expect(new Set(locked.map((r) => r.text)).size).toBe(1);
    const retryAfter = locked.map((r) => Number(r.headers.get('retry-after')));
    expect(Math.max(...retryAfter) - Math.min(...retryAfter)).toBeLessThanOrEqual(1);
    expect(Math.max(...retryAfter)).toBeLessThanOrEqual(15 * 60);
  });
});

describe('sign-in racing a password change, against a real server', () => {
  it('no login that overlapped the change keeps a session; the changing session does', async () => {
    const server = await serve({ LOCKOUT_ATTEMPTS: '1000', HASH_CONCURRENCY: '2' });
    const changer = await registerAndLogin(server);
    const logins: Array<Promise<Awaited<ReturnType<typeof call>>>> = [];
    let change: Promise<Awaited<ReturnType<typeof call>>> | undefined;
    for (let i = 0; i < 40; i += 1) {
      logins.push(call(server, 'POST', '/api/auth/login', { email: 'ann@example.com', password: PASSWORD }));
      if (i === 8) change = call(server, 'POST', '/api/auth/change-password', { old_password: PASSWORD, new_password: 'another fine passphrase' }, changer);
      await new Promise((resolve) => setTimeout(resolve, 15));
    }
    expect((await change!).status).toBe(200);
    const tokens = (await Promise.all(logins)).filter((r) => r.status === 200).map((r) => JSON.parse(r.text).token as string);
    expect(tokens.length).toBeGreaterThan(0);
    const survivors = (await Promise.all(tokens.map((token) => call(server, 'GET', '/api/auth/me', undefined, token)))).filter((r) => r.status !== 401);
    expect(survivors).toEqual([]);
    expect((await call(server, 'GET', '/api/auth/me', undefined, changer)).status).toBe(200);
  });
});
