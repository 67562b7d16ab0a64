// The migration that rebuilds the per-day totals: a database whose totals were written under the old
// day boundary (an hour on the wrong day, or on no day) comes out with the figures of docs/time-model.md.
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

it.skipIf(onPostgres)(
  'rebuilds the totals of every user from the entries, each in their own time zone (a SQLite file of the old schema: skipped on PostgreSQL)',
  async () => {
    const dir = makeTempDir();
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(path.join(dir, 'timetrack.db')) }) });
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo('003_daily_totals_covering_index')).error).toBeUndefined();

    const now = '2026-11-10T12:00:00.000Z';
    for (const [id, timezone] of [
      [1, 'America/Havana'],
      [2, 'America/Santiago'],
      [3, null],
    ] as const) {
      await db
        .insertInto('users')
        .values({ id, email: `user${id}@example.com`, full_name: `User ${id}`, created_at: now })
        .execute();
      if (timezone) await db.insertInto('user_settings').values({ user_id: id, timezone, updated_at: now }).execute();
    }
    const entries: Array<[number, string, string | null]> = [
      [1, '2026-11-01T04:10:00.000Z', '2026-11-01T04:50:00.000Z'], // Havana, first pass of the repeated midnight
      [2, '2026-09-06T04:00:00.000Z', '2026-09-07T06:00:00.000Z'], // Santiago, across the skipped midnight
      [3, '2026-03-02T23:59:30.000Z', '2026-03-03T00:00:30.500Z'], // UTC
      [3, '2026-03-04T08:00:00.000Z', null], // running: in no total
    ];
    for (const [user_id, start_at, end_at] of entries) {
      await db.insertInto('time_entries').values({ user_id, start_at, end_at, created_at: now, updated_at: now }).execute();
    }
    // What the old boundary wrote (and a stray row): all of it must go.
    await db
      .insertInto('daily_totals')
      .values([
        { user_id: 1, date: '2026-10-31', worked_ms: 2_400_000 },
        { user_id: 2, date: '2026-09-06', worked_ms: 86_400_000 },
        { user_id: 2, date: '2026-09-07', worked_ms: 7_200_000 },
        { user_id: 3, date: '2026-03-05', worked_ms: 60_000 },
      ])
      .execute();
    await db.destroy();

    t = await createTestApp({ dir });
    const rows = await t.ctx.db.selectFrom('daily_totals').select(['user_id', 'date', 'worked_ms']).orderBy('user_id').orderBy('date').execute();
    expect(rows).toEqual([
      { user_id: 1, date: '2026-11-01', worked_ms: 2_400_000 },
      { user_id: 2, date: '2026-09-06', worked_ms: 1380 * 60_000 },
      { user_id: 2, date: '2026-09-07', worked_ms: 180 * 60_000 },
      { user_id: 3, date: '2026-03-02', worked_ms: 30_000 },
      { user_id: 3, date: '2026-03-03', worked_ms: 30_500 },
    ]);
  },
);
