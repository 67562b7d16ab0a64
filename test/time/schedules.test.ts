// Target schedules (docs/time-model.md): weekly targets as a history. A change from a date changes
// no figure before it; the migration turns the targets each user had into one schedule from the
// tracking start, so no figure changes at all. On both engines.
import path from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrations } from '../../migrations/index.js';
import { createContext } from '../../src/composition-root.js';
import { openPostgresDatabase } from '../../src/db/postgres.js';
import { createTestApp, fastTestHashing, makeTempDir, type TestApp, TestClock } from '../support/app.js';
import { createPostgresDatabase, onPostgres, TEST_JWT_SECRET } from '../support/database.js';
import { expectError } from '../support/expectations.js';
import { addEntry, asUser, login, type SignedIn, signIn } from '../support/requests.js';

let t: TestApp;
let ann: SignedIn;
beforeEach(async () => {
  t = await createTestApp();
  t.clock.set('2026-02-02T09:00:00.000Z');
  ann = await signIn(t);
  await at('2026-03-02T09:00:00.000Z'); // Monday
});
afterEach(async () => {
  await t.close();
});

/** Moves the clock and signs in again (a session lasts a day). */
async function at(iso: string): Promise<void> {
  t.clock.set(iso);
  ann = asUser(t, ann.userId, await login(t.app));
}

const FULL = { mon: 480, tue: 480, wed: 480, thu: 480, fri: 480, sat: 0, sun: 0 };
const PART = { mon: 360, tue: 360, wed: 360, thu: 360, fri: 360, sat: 0, sun: 0 };

describe('the schedules routes', () => {
  it('lists the implicit default, adds one per date (409 SCHEDULE_EXISTS), refuses to delete the earliest, deletes another', async () => {
    const listed = await ann.call('GET', '/api/settings/schedules');
    expect(listed.statusCode).toBe(200);
    const [first] = listed.json().schedules;
    // The account was made on 2 February: its tracking start.
    expect(listed.json()).toEqual({ schedules: [{ id: expect.any(Number), valid_from: '2026-02-02', weekly_target_minutes: FULL }] });

    const created = await ann.call('POST', '/api/settings/schedules', { valid_from: '2026-04-01', weekly_target_minutes: { fri: 0 } });
    expect(created.statusCode).toBe(201);
    // Days not given are those of the schedule in force that day.
    expect(created.json()).toEqual({ schedule: { id: expect.any(Number), valid_from: '2026-04-01', weekly_target_minutes: { ...FULL, fri: 0 } } });
    expectError(await ann.call('POST', '/api/settings/schedules', { valid_from: '2026-04-01', weekly_target_minutes: PART }), 409, 'SCHEDULE_EXISTS');
    const bad = expectError(
      await ann.call('POST', '/api/settings/schedules', { valid_from: '2026-04-31', weekly_target_minutes: PART }),
      400,
      'VALIDATION_ERROR',
    );
    expect(bad.details).toEqual([{ field: 'valid_from', message: expect.any(String) }]);
    expectError(await ann.call('POST', '/api/settings/schedules', { valid_from: '2026-05-01', weekly_target_minutes: { mon: 1441 } }), 400, 'VALIDATION_ERROR');

    expect((await ann.call('GET', '/api/settings/schedules')).json().schedules.map((s: { valid_from: string }) => s.valid_from)).toEqual([
      '2026-02-02',
      '2026-04-01',
    ]);
    const earliest = expectError(await ann.call('DELETE', `/api/settings/schedules/${first.id}`), 400, 'VALIDATION_ERROR');
    expect(earliest.message).toMatch(/earliest/);

    // Another user's schedule does not exist for ann.
    const bob = await signIn(t, 'bob@example.com');
    expectError(await bob.call('DELETE', `/api/settings/schedules/${created.json().schedule.id}`), 404, 'NOT_FOUND');
    expect((await ann.call('DELETE', `/api/settings/schedules/${created.json().schedule.id}`)).statusCode).toBe(204);
    expect((await ann.call('GET', '/api/settings/schedules')).json().schedules).toHaveLength(1);
  });

  it('PATCH /api/settings with targets means from today on (or from targets_valid_from); GET answers the schedule in force today', async () => {
    await ann.call('PATCH', '/api/settings', { tracking_start: '2026-01-01' });
    const patched = await ann.call('PATCH', '/api/settings', { weekly_target_minutes: { mon: 300 } });
    expect(patched.json()).toMatchObject({ weekly_target_minutes: { ...FULL, mon: 300 }, targets_valid_from: '2026-03-02' });
    // Mondays before today keep 480.
    const before = (await ann.call('GET', '/api/stats/week?date=2026-02-23')).json();
    expect(before.days[0].target_minutes).toBe(480);
    expect((await ann.call('GET', '/api/stats/week?date=2026-03-02')).json().days[0].target_minutes).toBe(300);
    // The same day again changes that schedule; a future date leaves today's in force.
    await ann.call('PATCH', '/api/settings', { weekly_target_minutes: { mon: 240 } });
    const future = await ann.call('PATCH', '/api/settings', { weekly_target_minutes: PART, targets_valid_from: '2026-06-01' });
    expect(future.json()).toMatchObject({ weekly_target_minutes: { ...FULL, mon: 240 }, targets_valid_from: '2026-03-02' });
    expect(
      (await ann.call('GET', '/api/settings/schedules'))
        .json()
        .schedules.map((s: { valid_from: string; weekly_target_minutes: { mon: number } }) => [s.valid_from, s.weekly_target_minutes.mon]),
    ).toEqual([
      ['2026-01-01', 480],
      ['2026-03-02', 240],
      ['2026-06-01', 360],
    ]);
    await at('2026-06-02T09:00:00.000Z');
    expect((await ann.call('GET', '/api/settings')).json()).toMatchObject({ weekly_target_minutes: PART, targets_valid_from: '2026-06-01' });
    expectError(await ann.call('PATCH', '/api/settings', { targets_valid_from: '2026-07-01' }), 400, 'VALIDATION_ERROR');
  });

  it('targets given from a day on or before the tracking start are the earliest schedule and cover every counted day', async () => {
    await ann.call('PATCH', '/api/settings', { tracking_start: '2026-01-05', weekly_target_minutes: PART, targets_valid_from: '2026-01-05' });
    expect((await ann.call('GET', '/api/settings/schedules')).json().schedules).toEqual([
      { id: expect.any(Number), valid_from: '2026-01-05', weekly_target_minutes: PART },
    ]);
    expect((await ann.call('GET', '/api/stats/week?date=2026-01-05')).json().totals.target_minutes).toBe(5 * 360);
  });
});

describe('a change of targets from a date', () => {
  it('changes no figure before that date: weeks, days and the balance through the day before stay as they were', async () => {
    await ann.call('PATCH', '/api/settings', { tracking_start: '2026-01-05', holiday_region: 'DE-BY' });
    for (let day = 5; day <= 27; day++) {
      const date = `2026-02-${String(day).padStart(2, '0')}`;
      if (new Date(`${date}T00:00:00Z`).getUTCDay() % 6 !== 0) await addEntry(ann, `${date}T08:00:00Z`, `${date}T15:30:00Z`);
    }
    await ann.call('POST', '/api/time-entries/absences', { date: '2026-02-11', type: 'vacation' });
    const weeks = ['2026-01-05', '2026-01-26', '2026-02-02', '2026-02-09', '2026-02-16'];
    const read = async () => Promise.all(weeks.map(async (monday) => (await ann.call('GET', `/api/stats/week?date=${monday}`)).json()));
    await at('2026-02-23T09:00:00.000Z'); // balance through Sunday 22 February
    const weeksBefore = await read();
    const overtimeBefore = (await ann.call('GET', '/api/stats/overtime')).json();

    // 30 hours a week from Monday 23 February.
    const changed = await ann.call('POST', '/api/settings/schedules', { valid_from: '2026-02-23', weekly_target_minutes: PART });
    expect(changed.statusCode).toBe(201);
    expect(await read()).toEqual(weeksBefore);
    expect((await ann.call('GET', '/api/stats/overtime')).json()).toEqual(overtimeBefore);

    // From the date on, the new targets: the week of 23 February asks 5 × 360.
    const week = (await ann.call('GET', '/api/stats/week?date=2026-02-23')).json();
    expect(week.days.map((day: { target_minutes: number }) => day.target_minutes)).toEqual([360, 360, 360, 360, 360, 0, 0]);
    // A week later the balance counts that week with 360 a day: 450 − 360 = +90 a day.
    await at('2026-03-02T09:00:00.000Z');
    const later = (await ann.call('GET', '/api/stats/overtime')).json();
    expect(later.balance_minutes).toBe(overtimeBefore.balance_minutes + 5 * 90);
    // The same through the PATCH route with a from-date: the figures before it stay.
    await ann.call('PATCH', '/api/settings', { weekly_target_minutes: { fri: 0 }, targets_valid_from: '2026-02-27' });
    expect(await read()).toEqual(weeksBefore);
    expect((await ann.call('GET', '/api/stats/overtime')).json().balance_minutes).toBe(overtimeBefore.balance_minutes + 4 * 90 + 450);
  });
});

describe('migration 009_target_schedules', () => {
  it("turns each user's targets into one schedule from the tracking start: every figure stays", async () => {
    const dir = makeTempDir();
    const dbPath = path.join(dir, 'timetrack.db');
    const url = onPostgres ? createPostgresDatabase() : undefined;
    const opened = url ? openPostgresDatabase(url, { max: 2, connectTimeoutMs: 10_000, statementTimeoutMs: 60_000, lockTimeoutMs: 10_000 }) : undefined;
    const db: Kysely<any> = opened ? (opened.db as Kysely<any>) : new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(dbPath) }) });
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo('008_username_lookup_by_lower')).error).toBeUndefined();
    const created = '2026-01-10T23:30:00.000Z';
    for (const id of [1, 2])
      await db
        .insertInto('users')
        .values({ id, email: `user${id}@example.com`, full_name: `User ${id}`, created_at: created })
        .execute();
    // User 1 works 4 days of 7 hours from 5 January in Tokyo; user 2 kept the defaults and has no settings row.
    await db
      .insertInto('user_settings')
      .values({
        user_id: 1,
        timezone: 'Asia/Tokyo',
        tracking_start: '2026-01-05',
        updated_at: created,
        target_mon_minutes: 420,
        target_tue_minutes: 420,
        target_wed_minutes: 420,
        target_thu_minutes: 420,
        target_fri_minutes: 0,
      })
      .execute();
    await db
      .insertInto('time_entries')
      .values({ user_id: 1, start_at: '2026-01-05T00:00:00.000Z', end_at: '2026-01-05T08:00:00.000Z', note: '', created_at: created, updated_at: created })
      .execute();
    await db
      .insertInto('daily_totals')
      .values({ user_id: 1, date: '2026-01-05', worked_ms: 8 * 3_600_000 })
      .execute();
    if (opened) await opened.close();
    else await db.destroy();

    const clock = new TestClock(new Date('2026-01-13T03:00:00.000Z'));
    const ctx = await createContext({
      env: url ? { DATABASE_URL: url, JWT_SECRET: TEST_JWT_SECRET, LOG_LEVEL: 'warn' } : { TIMETRACK_DB: dbPath, LOG_LEVEL: 'warn' },
      clock,
      migrate: true,
      passwordAlgorithm: fastTestHashing,
    });
    try {
      const { schedules, statistics, settings } = ctx.services;
      expect(await schedules.listSchedules(1)).toEqual([
        { id: expect.any(Number), valid_from: '2026-01-05', weekly_target_minutes: { mon: 420, tue: 420, wed: 420, thu: 420, fri: 0, sat: 0, sun: 0 } },
      ]);
      // Without a settings row: from the day the account was made (in UTC), with the defaults.
      expect(await schedules.listSchedules(2)).toEqual([{ id: expect.any(Number), valid_from: '2026-01-10', weekly_target_minutes: FULL }]);
      expect((await settings.getSettings(1)).weekly_target_minutes.mon).toBe(420);
      const week = await statistics.weekOverview(1, '2026-01-05');
      expect(week.days.map((day) => day.target_minutes)).toEqual([420, 420, 420, 420, 0, 0, 0]);
      expect(week.totals).toMatchObject({ target_minutes: 1680, worked_minutes: 480, booked_minutes: 0, balance_minutes: -1200 });
      // Through Monday 12 January (Tokyo): 480 − 4 × 420 − 420.
      expect((await statistics.overtime(1)).balance_minutes).toBe(480 - 5 * 420);
    } finally {
      await ctx.close();
    }
  });
});
