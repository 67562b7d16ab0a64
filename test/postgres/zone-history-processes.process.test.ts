// A change of zone of one full account sent to two `serve` processes on one PostgreSQL database at
// once (docs/security.md, "one user's data as a load"): one rebuilds the account's per-day totals, the
// other is refused at once with 429 RATE_LIMITED and Retry-After (an advisory lock tried without
// waiting), instead of working the totals out a second time and then waiting, a pool connection held,
// for the first one's row lock.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDb } from '../support/cli-accounts.js';
import { onPostgres } from '../support/database.js';
import { createFullAccount } from '../support/full-account.js';
import { login, request } from '../support/requests.js';
import { startServer, type RunningServer } from '../support/server.js';

describe.skipIf(!onPostgres)('a change of zone of one account on two serve processes', () => {
  const servers: RunningServer[] = [];
  beforeAll(async () => {
    const db = tempDb();
    await createFullAccount(db, 'full@example.com', { entries: 30_000, noteLength: 10 });
    servers.push(...(await Promise.all([startServer(db, { LOG_LEVEL: 'warn' }), startServer(db, { LOG_LEVEL: 'warn' })])));
  }, 300_000);
  afterAll(async () => {
    for (const server of servers.splice(0)) await server.stop();
  });

  it('runs once: the other process refuses at once with Retry-After', async () => {
    const [a, b] = servers as [RunningServer, RunningServer];
    const [tokenA, tokenB] = [await login(a, 'full@example.com'), await login(b, 'full@example.com')];
    const answers = await Promise.all([
      request(a, 'PATCH', '/api/settings', { token: tokenA, payload: { timezone: 'Asia/Tokyo', timezone_valid_from: '1990-01-01' } }),
      request(b, 'PATCH', '/api/settings', { token: tokenB, payload: { timezone: 'America/New_York', timezone_valid_from: '1990-01-01' } }),
    ]);
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 429]);
    const refused = answers.find((answer) => answer.statusCode === 429);
    expect(refused?.json().code).toBe('RATE_LIMITED');
    expect(Number(refused?.headers['retry-after'])).toBeGreaterThan(0);
  }, 120_000);
});
