// The devices and networks an account signed in from in the last 90 days, for the new-device notice
// (docs/security.md, "New-device notice"): only a keyed hash of "device name | network" (never the
// address or the User-Agent), with when it was first and last seen. Goes with its account. Frozen in
// time: uses Kysely<any>.
import type { Kysely } from 'kysely';
import { instantType } from './dialect.js';

export async function up(db: Kysely<any>): Promise<void> {
  const instant = instantType(db);
  await db.schema
    .createTable('login_devices')
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('key_hash', 'text', (col) => col.notNull())
    .addColumn('first_seen_at', instant, (col) => col.notNull())
    .addColumn('last_seen_at', instant, (col) => col.notNull())
    .addPrimaryKeyConstraint('login_devices_pk', ['user_id', 'key_hash'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('login_devices').execute();
}
