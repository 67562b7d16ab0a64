// Two-factor sign-in across two `serve` processes on one PostgreSQL database: wrong codes sent to
// both count against one lockout (the reservation is one atomic UPDATE in the database), and a code
// is accepted once across processes (its step is stored in the database).
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir, PASSWORD } from '../support/app.js';
import { bindPostgresDatabase, createPostgresDatabase, onPostgres } from '../support/database.js';
import { callJson as call, startServer, type RunningServer } from '../support/server.js';
import { totpCode, wrongCode } from '../support/totp.js';

const running: RunningServer[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) await server.stop();
});

async function twoServersWithTwoFactor(): Promise<{ a: RunningServer; b: RunningServer; secret: string }> {
  const dbPath = path.join(makeTempDir(), 'timetrack.db');
  bindPostgresDatabase(dbPath, createPostgresDatabase());
  const a = await startServer(dbPath);
  running.push(a);
  const b = await startServer(dbPath);
  running.push(b);
  expect((await call(a, 'POST', '/api/auth/register', { email: 'ann@example.com', password: PASSWORD, full_name: 'Ann' })).status).toBe(201);
  const session = (await call(b, 'POST', '/api/auth/login', { email: 'ann@example.com', password: PASSWORD })).body.token;
  const { secret } = (await call(a, 'POST', '/api/auth/2fa/setup', { password: PASSWORD }, session)).body;
  expect((await call(b, 'POST', '/api/auth/2fa/enable', { code: totpCode(secret, Date.now()) }, session)).status).toBe(200);
  return { a, b, secret };
}

describe.skipIf(!onPostgres)('two-factor sign-in on two serve processes', () => {
  it('30 parallel wrong codes spread over both processes: at most 5 checked before the lock', async () => {
    const { a, b, secret } = await twoServersWithTwoFactor();
    const { challenge } = (await call(a, 'POST', '/api/auth/login', { email: 'ann@example.com', password: PASSWORD })).body;
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) => call(i % 2 === 0 ? a : b, 'POST', '/api/auth/login/2fa', { challenge, code: wrongCode(secret, Date.now(), i) })),
    );
    const checked = answers.filter((r) => r.status === 403).length;
    expect(checked).toBeLessThanOrEqual(4);
    expect(answers.filter((r) => r.status === 423).length).toBe(30 - checked);
  });

  it('one code sent to both processes at once signs in once', async () => {
    const { a, b, secret } = await twoServersWithTwoFactor();
    const first = (await call(a, 'POST', '/api/auth/login', { email: 'ann@example.com', password: PASSWORD })).body.challenge;
    const second = (await call(b, 'POST', '/api/auth/login', { email: 'ann@example.com', password: PASSWORD })).body.challenge;
    // A code of the next step: the one used to enable is spent.
    const code = totpCode(secret, Date.now() + 30_000);
    const answers = await Promise.all([
      call(a, 'POST', '/api/auth/login/2fa', { challenge: first, code }),
      call(b, 'POST', '/api/auth/login/2fa', { challenge: second, code }),
    ]);
    expect(answers.map((r) => r.status).sort()).toEqual([200, 403]);
  });
});
