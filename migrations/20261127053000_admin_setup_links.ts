// The first admin's setup links (docs/teams.md, "The first admin"): while no account is an active
// admin, each start of `serve` prints a one-time link; registering through it makes the account an
// admin. Only the SHA-256 of a link's token is stored (as reset tokens are). Frozen in time: uses Kysely<any>.
import type { Kysely } from 'kysely';
import { instantType } from './dialect.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('admin_setup_links')
    .addColumn('token_hash', 'text', (col) => col.primaryKey())
    .addColumn('created_at', instantType(db), (col) => col.notNull())
    .addColumn('expires_at', instantType(db), (col) => col.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('admin_setup_links').execute();
}
