// The processes that serve a PostgreSQL database, each announcing itself (docs/operations.md,
// "Several processes on PostgreSQL"): one row per running `serve`, with its version, the newest
// migration it knows and whether it writes, renewed every few seconds (`heartbeat_at`). A row whose
// heartbeat is older than half a minute belongs to a process that is gone and is ignored. `migrate`
// reads it to refuse while an older version still writes; an older process that finds a newer one
// announced stops writing. SQLite has one server per file (its lock) and leaves the table empty.
// Frozen in time: uses Kysely<any>.
import type { Kysely } from 'kysely';
import { instantType } from './dialect.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('server_processes')
    // Only if missing: a database taken back to before this migration may keep the table (nothing in it lasts).
    .ifNotExists()
    .addColumn('id', 'text', (col) => col.primaryKey())
    .addColumn('version', 'text', (col) => col.notNull())
    .addColumn('last_migration', 'text', (col) => col.notNull())
    .addColumn('pid', 'integer', (col) => col.notNull())
    .addColumn('host', 'text', (col) => col.notNull())
    .addColumn('writing', 'integer', (col) => col.notNull())
    .addColumn('started_at', instantType(db), (col) => col.notNull())
    .addColumn('heartbeat_at', instantType(db), (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('server_processes').execute();
}
