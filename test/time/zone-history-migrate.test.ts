// The migration 20261126170500_zone_history (docs/time-model.md, Time zone history): each account's
// zone becomes one entry of its history from the tracking start, so no day moves and no figure changes.
// An account without a settings row gets UTC from the day it was made.
import path from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { expect, it } from 'vitest';
import { migrations } from '../../migrations/index.js';
import { createContext } from '../../src/composition-root.js';
import { openPostgresDatabase } from '../../src/db/postgres.js';
import { fastTestHashing, makeTempDir, TestClock } from '../support/app.js';
import { createPostgresDatabase, onPostgres, TEST_JWT_SECRET } from '../support/database.js';

it("turns each account's zone into one entry from its tracking start: every figure stays", async () => {
  const dbPath = path.join(makeTempDir(), 'timetrack.db');
  const url = onPostgres ? createPostgresDatabase() : undefined;
  const opened = url ? openPostgresDatabase(url, { max: 2, connectTimeoutMs: 10_000, statementTimeoutMs: 60_000, lockTimeoutMs: 10_000 }) : undefined;
  const db: Kysely<any> = opened ? (opened.db as Kysely<any>) : new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(dbPath) }) });
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  expect((await migrator.migrateTo('011_export_leases')).error).toBeUndefined();
  const created = '2026-01-10T23:30:00.000Z';
  for (const id of [1, 2])
    await db
      .insertInto('users')
      .values({ id, email: `user${id}@example.com`, full_name: `User ${id}`, created_at: created })
      .execute();
  // User 1 works in Tokyo from 5 January: 20:00–23:00 UTC is 05:00–08:00 the next day there.
  await db.insertInto('user_settings').values({ user_id: 1, timezone: 'Asia/Tokyo', tracking_start: '2026-01-05', updated_at: created }).execute();
  for (const id of [1, 2])
    await db
      .insertInto('time_entries')
      .values({ user_id: id, start_at: '2026-01-05T20:00:00.000Z', end_at: '2026-01-05T23:00:00.000Z', note: '', created_at: created, updated_at: created })
      .execute();
  await db
    .insertInto('daily_totals')
    .values({ user_id: 1, date: '2026-01-06', worked_ms: 3 * 3_600_000 })
    .execute();
  await db
    .insertInto('daily_totals')
    .values({ user_id: 2, date: '2026-01-05', worked_ms: 3 * 3_600_000 })
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
    const { statistics, settings } = ctx.services;
    expect(await settings.getSettings(1)).toMatchObject({ timezone: 'Asia/Tokyo', zones: [{ valid_from: '2026-01-05', timezone: 'Asia/Tokyo' }] });
    // Without a settings row: UTC from the day the account was made.
    expect(await settings.getSettings(2)).toMatchObject({ timezone: 'UTC', zones: [{ valid_from: '2026-01-10', timezone: 'UTC' }] });
    const tokyo = await statistics.weekOverview(1, '2026-01-05');
    expect(tokyo.days.map((day) => day.worked_minutes)).toEqual([0, 180, 0, 0, 0, 0, 0]);
    const utc = await statistics.weekOverview(2, '2026-01-05');
    expect(utc.days.map((day) => day.worked_minutes)).toEqual([180, 0, 0, 0, 0, 0, 0]);
    // Through Monday 12 January in Tokyo (six weekdays): 180 − 6 × 480.
    expect(await statistics.overtime(1)).toMatchObject({ balance_minutes: 180 - 6 * 480, through: '2026-01-12' });
  } finally {
    await ctx.close();
  }
});
