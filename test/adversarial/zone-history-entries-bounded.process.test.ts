// One account's settings change never stalls the others, and every due timer is stopped
// (docs/security.md, "one user's data as a load"), against a real `serve`:
// - a change of zone or shortest break rebuilds the account's per-day totals: one at a time per
//   account (a second one while it runs: 429 RATE_LIMITED with Retry-After), within a budget;
// - the forgotten-timer stop reaches a due timer behind any number of running timers not due yet.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccountWithCli, tempDb } from '../support/cli-accounts.js';
import { queryRows } from '../support/database.js';
import { login, request } from '../support/requests.js';
import { startServer, type RunningServer } from '../support/server.js';

const ENTRIES = 30_000;
/** Running timers not due yet, more than one batch of the stop (500). */
const NOT_DUE = 600;

/**
 * `count` one-hour entries of the account, one every 5 hours from 2000 on (those of `createFullAccount`),
 * written in SQL: an import of 30,000 costs two seconds of CPU in the time zone of each, and what is
 * tested reads the entries only. Their per-day totals are left to the rebuild that recounts every day.
 */
async function plantEntries(db: string, email: string, count: number): Promise<void> {
  const [user] = await queryRows<{ id: number }>(db, 'select id from users where email = ?', [email]);
  const first = Date.UTC(2000, 0, 1, 8);
  const now = new Date().toISOString();
  for (let start = 0; start < count; start += 1000) {
    const rows = Array.from({ length: Math.min(1000, count - start) }, (_, i) => first + (start + i) * 5 * 3_600_000);
    await queryRows(
      db,
      `insert into time_entries (user_id, start_at, end_at, note, created_at, updated_at) values ${rows.map(() => '(?, ?, ?, ?, ?, ?)').join(', ')}`,
      rows.flatMap((at) => [user!.id, new Date(at).toISOString(), new Date(at + 3_600_000).toISOString(), 'x'.repeat(10), now, now]),
    );
  }
}

describe('a change of zone or shortest break of a full account', () => {
  let db: string;
  let server: RunningServer;
  let token: string;

  beforeAll(async () => {
    db = tempDb();
    await createAccountWithCli(db, 'full@example.com');
    await plantEntries(db, 'full@example.com', ENTRIES);
    await createAccountWithCli(db, 'small@example.com');
    server = await startServer(db, { LOG_LEVEL: 'warn' });
    token = await login(server, 'full@example.com');
  }, 300_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('runs one rebuild of the account at a time: the others are refused with Retry-After, not queued', async () => {
    const zones = ['America/New_York', 'Asia/Tokyo', 'Europe/Lisbon', 'Australia/Sydney'];
    const answers = await Promise.all(
      zones.map((timezone) => request(server, 'PATCH', '/api/settings', { token, payload: { timezone, timezone_valid_from: '1990-01-01' } })),
    );
    const statuses = answers.map((answer) => answer.statusCode).sort();
    expect(statuses.filter((status) => status === 200).length, JSON.stringify(statuses)).toBeGreaterThanOrEqual(1);
    const refused = answers.filter((answer) => answer.statusCode !== 200);
    expect(refused.length, JSON.stringify(statuses)).toBeGreaterThanOrEqual(1);
    for (const answer of refused) {
      expect(answer.statusCode, answer.body).toBe(429);
      expect(answer.json().code).toBe('RATE_LIMITED');
      expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
    }
    // The one that ran left totals in its zone: the figures of a day of the year 2000 still add up.
    const week = await request(server, 'GET', '/api/stats/week?date=2000-01-03', { token });
    expect(week.statusCode, week.body).toBe(200);
  }, 120_000);

  it('keeps a budget of changes per account (429 RATE_LIMITED with Retry-After once spent)', async () => {
    const small = await login(server, 'small@example.com');
    const statuses: number[] = [];
    let last;
    for (let i = 0; i < 11; i += 1) {
      last = await request(server, 'PATCH', '/api/settings', { token: small, payload: { min_break_minutes: 10 + i } });
      statuses.push(last.statusCode);
    }
    expect(statuses.slice(0, 10)).toEqual(Array(10).fill(200));
    expect(last?.statusCode).toBe(429);
    expect(last?.json().code).toBe('RATE_LIMITED');
    expect(Number(last?.headers['retry-after'])).toBeGreaterThan(0);
    // Settings that recount nothing are not counted against it.
    expect((await request(server, 'PATCH', '/api/settings', { token: small, payload: { overtime_offset_minutes: 5 } })).statusCode).toBe(200);
  }, 60_000);
});

describe('the forgotten-timer stop of serve', () => {
  let db: string;
  let server: RunningServer | undefined;
  afterAll(async () => {
    await server?.stop();
  });

  it('stops a due timer behind more running timers than one batch that are not due yet', async () => {
    db = tempDb();
    await createAccountWithCli(db, 'due@example.com');
    const now = Date.now();
    const iso = (ms: number) => new Date(ms).toISOString();
    // NOT_DUE accounts whose timers started an hour ago (the default limit, 12 hours: not due).
    await queryRows(
      db,
      `INSERT INTO users (email, full_name, username, created_at)
       WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${NOT_DUE})
       SELECT 'runner' || i || '@example.com', 'Runner', NULL, ? FROM n`,
      [iso(now - 86_400_000)],
    );
    await queryRows(
      db,
      `INSERT INTO time_entries (user_id, start_at, end_at, note, created_at, updated_at)
       SELECT id, ?, NULL, '', ?, ? FROM users WHERE email LIKE 'runner%'`,
      [iso(now - 3_600_000), iso(now), iso(now)],
    );
    server = await startServer(db, { LOG_LEVEL: 'warn', HOUSEKEEPING_INTERVAL: '1s' });
    const token = await login(server, 'due@example.com');
    expect((await request(server, 'PATCH', '/api/settings', { token, payload: { timer_limit_minutes: 30 } })).statusCode).toBe(200);
    // Its timer started 50 minutes ago, after all the others: due for 20 minutes.
    const [due] = await queryRows<{ id: number }>(db, `SELECT id FROM users WHERE email = 'due@example.com'`);
    await queryRows(db, `INSERT INTO time_entries (user_id, start_at, end_at, note, created_at, updated_at) VALUES (?, ?, NULL, '', ?, ?)`, [
      due?.id,
      iso(now - 50 * 60_000),
      iso(now),
      iso(now),
    ]);
    let current: unknown = 'running';
    for (let waited = 0; waited < 15_000 && current !== null; waited += 250) {
      await new Promise((resolve) => setTimeout(resolve, 250));
      current = (await request(server, 'GET', '/api/time-entries/current', { token })).json().entry;
    }
    expect(current).toBeNull();
    const [stopped] = await queryRows<{ n: number }>(db, `SELECT COUNT(*) AS n FROM time_entries WHERE end_at IS NULL`);
    expect(Number(stopped?.n)).toBe(NOT_DUE);
  }, 120_000);
});
