// At most one export of an account at a time, across every process on the database (several
// `serve` processes on PostgreSQL, an admin command beside `serve` on SQLite): an export holds a
// lease row of its account while it runs, renewed as it goes, deleted when it ends. A lease whose
// holder died (a crash, a stalled client) expires by itself. Frozen in time: uses Kysely<any>.
import type { Kysely } from 'kysely';
import { instantType } from './dialect.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('export_leases')
    .addColumn('user_id', 'integer', (col) => col.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('holder', 'text', (col) => col.notNull())
    .addColumn('expires_at', instantType(db), (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('export_leases').execute();
}
