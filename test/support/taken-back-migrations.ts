// Plays a database an older server runs on: the newest migrations of this build taken back behind
// the back of the processes on it (test/deploy/migrate-*.test.ts).
import { migrations } from '../../migrations/index.js';
import { openPostgresDatabase } from '../../src/db/postgres.js';
import { openSqliteDatabase } from '../../src/db/sqlite.js';
import { onPostgres, postgresDatabaseFor, queryRows } from './database.js';

/** The migration of the process registry: taken back, with every later one. */
export const TAKEN_BACK = '20261126233000_server_processes';

/** The migrations takeBackMigrations takes back, oldest first. */
export const TAKEN_BACK_MIGRATIONS = Object.keys(migrations)
  .filter((name) => name >= TAKEN_BACK)
  .sort();

/**
 * Takes back every migration from TAKEN_BACK on, newest first, each by its own `down`, except the
 * registry's table, which stays (its migration creates it only where missing): the database then
 * needs migrations that the running server's schema lacks.
 */
export async function takeBackMigrations(db: string): Promise<void> {
  const database = onPostgres
    ? openPostgresDatabase(postgresDatabaseFor(db), { max: 1, connectTimeoutMs: 10_000, statementTimeoutMs: 60_000, lockTimeoutMs: 10_000 })
    : openSqliteDatabase(db);
  try {
    // Only what is applied is taken back: a test may take them back twice without a migrate between.
    const applied = new Set((await queryRows<{ name: string }>(db, 'select name from kysely_migration')).map((row) => row.name));
    for (const name of [...TAKEN_BACK_MIGRATIONS].reverse()) {
      if (name !== TAKEN_BACK && applied.has(name)) await migrations[name]!.down?.(database.db);
      await queryRows(db, 'delete from kysely_migration where name = ?', [name]);
    }
  } finally {
    await database.close();
  }
}

/** The migrations recorded in the database of `db`. */
export async function appliedMigrations(db: string): Promise<string[]> {
  return (await queryRows<{ name: string }>(db, 'select name from kysely_migration order by name')).map((row) => row.name);
}
