// `timetrack db copy --to <url>` (README, "Scaling out"): an install with data on SQLite, copied
// into an empty PostgreSQL database, answers every request the same afterwards — the same sign-in,
// the same open sessions, byte for byte the same entries, absences, settings and statistics.
import path from 'node:path';
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { createContext } from '../../src/composition-root.js';
import { buildApp, type App } from '../../src/http/app.js';
import { fastTestHashing, makeTempDir, PASSWORD, TestClock } from '../support/app.js';
import { BIN, cleanEnv } from '../support/cli.js';
import { createPostgresDatabase, onPostgres, TEST_JWT_SECRET } from '../support/database.js';

async function open(env: Record<string, string>, clock: TestClock): Promise<{ app: App; close: () => Promise<void> }> {
  const ctx = await createContext({
    env: { ...env, JWT_SECRET: TEST_JWT_SECRET, RATE_LIMIT_AUTH: '0', LOG_LEVEL: 'silent' },
    clock,
    migrate: true,
    passwordAlgorithm: fastTestHashing,
  });
  const app = await buildApp(ctx);
  await app.ready();
  return {
    app,
    close: async () => {
      await app.close();
      await ctx.close();
    },
  };
}

/** What the account's owner sees: every read of the API, as the bytes the server answers. */
async function everythingOf(app: App, token: string): Promise<string[]> {
  const urls = [
    '/api/auth/me',
    '/api/settings',
    '/api/time-entries?from=2026-01-01&to=2026-04-01',
    '/api/time-entries/absences?from=2026-01-01&to=2026-04-01',
    '/api/time-entries/current',
    '/api/stats/week?date=2026-02-25',
    '/api/stats/week?date=2026-03-02',
    '/api/stats/overtime?through=2026-03-01',
    '/api/stats/today',
    '/api/time-entries/export',
    '/api/settings/export',
  ];
  const bodies: string[] = [];
  for (const url of urls) {
    const response = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
    bodies.push(`${url} ${response.statusCode} ${response.body}`);
  }
  return bodies;
}

describe.skipIf(!onPostgres)('db copy from SQLite to PostgreSQL', () => {
  it('copies every table in one transaction: the same sign-in, sessions and figures; a second copy into it is refused', async () => {
    const clock = new TestClock(new Date('2026-03-02T15:00:00.000Z'));
    const sqlitePath = path.join(makeTempDir(), 'timetrack.db');
    const before = await open({ TIMETRACK_DB: sqlitePath }, clock);
    const call = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown, token?: string) =>
      before.app.inject({ method, url, payload: payload as never, headers: token ? { authorization: `Bearer ${token}` } : {} });
    expect(
      (await call('POST', '/api/auth/register', { email: 'ann@example.com', password: PASSWORD, full_name: 'Ann Example', username: 'ann' })).statusCode,
    ).toBe(201);
    expect((await call('POST', '/api/auth/register', { email: 'ben@example.com', password: PASSWORD, full_name: 'Ben' })).statusCode).toBe(201);
    const token = JSON.parse((await call('POST', '/api/auth/login', { email: 'ann@example.com', password: PASSWORD })).body).token as string;
    expect(
      (
        await call(
          'PATCH',
          '/api/settings',
          { timezone: 'Europe/Berlin', timezone_valid_from: '1970-01-01', holiday_region: 'DE-BY', tracking_start: '2026-02-02', overtime_offset_minutes: 90 },
          token,
        )
      ).statusCode,
    ).toBe(200);
    const entries = [
      ['2026-02-23T07:00:00.000Z', '2026-02-23T15:30:00.000Z'],
      ['2026-02-24T22:00:00.000Z', '2026-02-25T02:30:00.000Z'], // across local midnight
      ['2026-02-26T06:00:00.000Z', '2026-02-27T12:00:00.000Z'], // 30 hours
      ['2026-03-02T07:15:30.123Z', '2026-03-02T11:45:00.000Z'],
    ];
    for (const [start_at, end_at] of entries)
      expect((await call('POST', '/api/time-entries', { start_at, end_at, note: 'Über „quotes“ & ; =SUM()' }, token)).statusCode).toBe(201);
    expect((await call('POST', '/api/time-entries/absences', { date: '2026-02-20', type: 'vacation', note: 'ski' }, token)).statusCode).toBe(201);
    expect((await call('POST', '/api/time-entries/start', { note: 'running' }, token)).statusCode).toBe(201);
    // Two failed sign-ins of Ben: the lockout count moves too.
    for (const password of ['wrong one 1', 'wrong one 2']) await call('POST', '/api/auth/login', { email: 'ben@example.com', password });
    const seen = await everythingOf(before.app, token);
    await before.close();

    const url = createPostgresDatabase();
    const env = cleanEnv({ TIMETRACK_DB: sqlitePath });
    const copy = await execa('node', [BIN, 'db', 'copy', '--to', url], { env, extendEnv: false, reject: false, stdin: 'ignore' });
    expect(copy.stderr).toBe('');
    expect(copy.exitCode).toBe(0);
    expect(copy.stdout).toMatch(/^time_entries\s+5$/m);
    expect(copy.stdout).toMatch(/^users\s+2$/m);
    // One column of counts, the longest table name (two_factor_recovery_codes) included.
    const counts = copy.stdout.split('\n').filter((line) => /^[a-z_]+\s+\d+$/.test(line));
    expect(new Set(counts.map((line) => line.search(/\d+$/))).size).toBe(1);
    expect(copy.stdout).toContain('the counts match');
    // No account had two-factor sign-in, so no sealing key file was ever made: nothing to carry.
    expect(copy.stdout).toContain("no two-factor secrets to carry: set SECRET_KEY in the target's env file to a new key");
    expect(copy.stdout).not.toContain('timetrack-test-password');

    const after = await open({ DATABASE_URL: url }, clock);
    try {
      // The open session goes on; the old password signs in; every figure is the same, byte for byte.
      expect(await everythingOf(after.app, token)).toEqual(seen);
      const login = await after.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'ann@example.com', password: PASSWORD } });
      expect(login.statusCode).toBe(200);
      // New rows get new ids after the copied ones.
      const next = await after.app.inject({
        method: 'POST',
        url: '/api/time-entries',
        payload: { start_at: '2026-03-01T08:00:00.000Z', end_at: '2026-03-01T09:00:00.000Z' },
        headers: { authorization: `Bearer ${token}` },
      });
      expect(next.statusCode).toBe(201);
      expect(JSON.parse(next.body).entry.id).toBe(6);
    } finally {
      await after.close();
    }

    const again = await execa('node', [BIN, 'db', 'copy', '--to', url], { env, extendEnv: false, reject: false, stdin: 'ignore' });
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toMatch(/is not empty/);
    expect(again.stderr.trim().split('\n')).toHaveLength(1);
  });
});
