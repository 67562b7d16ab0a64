// The migration that works out again the breaks of days that counted a split shift's gap as a break
// (docs/time-model.md, Break rules: a gap of more than 3 hours splits the shift and is no break).
import path from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { migrations } from '../../migrations/index.js';
import { createTestApp, makeTempDir, type TestApp } from '../support/app.js';
import { onPostgres } from '../support/database.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
});

const MINUTE = 60_000;

it.skipIf(onPostgres)(
  'leaves the breaks of 3 hours or less and drops the longer gaps, in the user zone (a SQLite file of the schema before: skipped on PostgreSQL)',
  async () => {
    const dir = makeTempDir();
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(path.join(dir, 'timetrack.db')) }) });
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo('011_export_leases')).error).toBeUndefined();
    const now = '2026-11-10T12:00:00.000Z';
    await db.insertInto('users').values({ id: 1, email: 'ann@example.com', full_name: 'Ann', created_at: now }).execute();
    await db.insertInto('user_settings').values({ user_id: 1, timezone: 'Europe/Berlin', min_break_minutes: 15, updated_at: now }).execute();
    const entries: Array<[string, string]> = [
      // Mon 2 March (Berlin, UTC+1): 08:00–12:00 and 17:00–20:00, a 5-hour gap: no break.
      ['2026-03-02T07:00:00.000Z', '2026-03-02T11:00:00.000Z'],
      ['2026-03-02T16:00:00.000Z', '2026-03-02T19:00:00.000Z'],
      // Tue 3 March: 08:00–12:00, 12:30–14:00, then 18:30–20:00: a 30-minute break, and a 4.5-hour gap that is none.
      ['2026-03-03T07:00:00.000Z', '2026-03-03T11:00:00.000Z'],
      ['2026-03-03T11:30:00.000Z', '2026-03-03T13:00:00.000Z'],
      ['2026-03-03T17:30:00.000Z', '2026-03-03T19:00:00.000Z'],
      // Wed 4 March: 08:00–11:00 and 14:00–17:00, a gap of exactly 3 hours: a break.
      ['2026-03-04T07:00:00.000Z', '2026-03-04T10:00:00.000Z'],
      ['2026-03-04T13:00:00.000Z', '2026-03-04T16:00:00.000Z'],
    ];
    for (const [start_at, end_at] of entries) {
      await db.insertInto('time_entries').values({ user_id: 1, start_at, end_at, created_at: now, updated_at: now }).execute();
    }
    // What the rule before wrote: every gap of at least 15 minutes.
    await db
      .insertInto('daily_totals')
      .values([
        { user_id: 1, date: '2026-03-02', worked_ms: 420 * MINUTE, break_ms: 300 * MINUTE },
        { user_id: 1, date: '2026-03-03', worked_ms: 420 * MINUTE, break_ms: 300 * MINUTE },
        { user_id: 1, date: '2026-03-04', worked_ms: 360 * MINUTE, break_ms: 180 * MINUTE },
      ])
      .execute();
    await db.destroy();

    t = await createTestApp({ dir });
    const rows = await t.ctx.db.selectFrom('daily_totals').select(['date', 'worked_ms', 'break_ms']).where('user_id', '=', 1).orderBy('date').execute();
    expect(rows).toEqual([
      { date: '2026-03-02', worked_ms: 420 * MINUTE, break_ms: 0 },
      { date: '2026-03-03', worked_ms: 420 * MINUTE, break_ms: 30 * MINUTE },
      { date: '2026-03-04', worked_ms: 360 * MINUTE, break_ms: 180 * MINUTE },
    ]);
  },
);
