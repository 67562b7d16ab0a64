// Named API tokens for scripts (docs/api.md, "API tokens"): stored only as the SHA-256 of the token,
// with a name, an expiry (1-365 days) and the last use (to 5 minutes, src/auth/activity.ts). They
// belong to their account and go with it. Frozen in time: uses Kysely<any>.
import type { Kysely } from 'kysely';
import { generatedId, instantType } from './dialect.js';

export async function up(db: Kysely<any>): Promise<void> {
  const instant = instantType(db);
  await db.schema
    .createTable('api_tokens')
    .addColumn('id', 'integer', generatedId(db))
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    .addColumn('created_at', instant, (col) => col.notNull())
    .addColumn('expires_at', instant, (col) => col.notNull())
    .addColumn('last_used_at', instant)
    .execute();
  await db.schema.createIndex('api_tokens_user_id').on('api_tokens').columns(['user_id', 'expires_at']).execute();
  await db.schema.createIndex('api_tokens_expires_at').on('api_tokens').column('expires_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('api_tokens').execute();
}
