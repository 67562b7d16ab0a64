// What operators asked for on day 2: an audit table of what admin commands and security events
// changed; per session the client's address and user agent at sign-in (so `token list` can tell the
// lost phone from the laptop) and the key id of the secret that signed it (so sessions of a secret
// that is no longer configured can be deleted at start).
import { sql, type Kysely } from 'kysely';
import { generatedId, instantType } from './dialect.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('audit_events')
    .addColumn('id', 'integer', generatedId(db))
    .addColumn('at', instantType(db), (col) => col.notNull())
    .addColumn('actor', 'text', (col) => col.notNull())
    .addColumn('action', 'text', (col) => col.notNull())
    // No foreign key: the record of a deleted account must outlive it.
    .addColumn('user_id', 'integer')
    .addColumn('user_email', 'text')
    .addColumn('detail', 'text', (col) => col.notNull().defaultTo(sql`'{}'`))
    .execute();
  await db.schema.createIndex('audit_events_at').on('audit_events').column('at').execute();
  await db.schema.createIndex('audit_events_user_id').on('audit_events').columns(['user_id', 'at']).execute();
  await db.schema.alterTable('auth_tokens').addColumn('client_address', 'text').execute();
  await db.schema.alterTable('auth_tokens').addColumn('user_agent', 'text').execute();
  await db.schema.alterTable('auth_tokens').addColumn('key_id', 'text').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('auth_tokens').dropColumn('key_id').execute();
  await db.schema.alterTable('auth_tokens').dropColumn('user_agent').execute();
  await db.schema.alterTable('auth_tokens').dropColumn('client_address').execute();
  await db.schema.dropTable('audit_events').execute();
}
