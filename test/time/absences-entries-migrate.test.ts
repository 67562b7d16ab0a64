// The migrations of absence bookings and the timer default, on a database written before them:
// every absence becomes a booking of its own, and every account keeps its timer limit (none unless it
// set one), with the one-time offer to turn it on where it has none (docs/time-model.md).
import path from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { expect, it } from 'vitest';
import { migrations } from '../../migrations/index.js';
import { makeTempDir } from '../support/app.js';
import { onPostgres } from '../support/database.js';

it.skipIf(onPostgres)(
  'old absences are bookings of their own; old accounts keep their timer limit (a SQLite file of the old schema: skipped on PostgreSQL)',
  async () => {
    const db = new Kysely<any>({ dialect: new SqliteDialect({ database: new Database(path.join(makeTempDir(), 'timetrack.db')) }) });
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo('011_export_leases')).error).toBeUndefined();
    const now = '2026-11-10T12:00:00.000Z';
    for (const id of [1, 2, 3])
      await db
        .insertInto('users')
        .values({ id, email: `user${id}@example.com`, full_name: `User ${id}`, created_at: now })
        .execute();
    // User 1 never changed a setting (no row); user 2 has a row without a limit; user 3 set 600 minutes.
    await db.insertInto('user_settings').values({ user_id: 2, timezone: 'Europe/Berlin', updated_at: now }).execute();
    await db.insertInto('user_settings').values({ user_id: 3, timer_limit_minutes: 600, updated_at: now }).execute();
    for (const date of ['2026-11-16', '2026-11-17', '2026-11-18'])
      await db.insertInto('absences').values({ user_id: 1, date, type: 'vacation', note: '', created_at: now }).execute();

    expect((await migrator.migrateToLatest()).error).toBeUndefined();
    const absences = await db.selectFrom('absences').select(['id', 'request_id']).orderBy('id').execute();
    expect(absences.map((absence) => absence.request_id)).toEqual(absences.map((absence) => absence.id));
    const settings = await db.selectFrom('user_settings').select(['user_id', 'timer_limit_minutes', 'suggest_timer_limit']).orderBy('user_id').execute();
    expect(settings).toEqual([
      { user_id: 1, timer_limit_minutes: null, suggest_timer_limit: 1 },
      { user_id: 2, timer_limit_minutes: null, suggest_timer_limit: 1 },
      { user_id: 3, timer_limit_minutes: 600, suggest_timer_limit: 0 },
    ]);
    await db.destroy();
  },
);
