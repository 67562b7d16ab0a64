// Opens the configured engine behind the port of src/db/database.ts.
import type { DatabaseTarget, OpenedDatabase, OpenOptions } from './database.js';

/** Opens the configured database. PostgreSQL's code (and `pg`) is loaded only when it is the engine. */
export async function openDatabase(target: DatabaseTarget, options: OpenOptions = {}): Promise<OpenedDatabase> {
  if (target.engine === 'sqlite') {
    const { openSqliteDatabase } = await import('./sqlite.js');
    return openSqliteDatabase(target.path);
  }
  const { openPostgresDatabase } = await import('./postgres.js');
  return openPostgresDatabase(target.url, target.pool, options);
}
