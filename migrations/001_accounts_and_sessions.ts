// Accounts, session tokens, reset tokens and failures against unknown identifiers.
// Frozen in time: uses Kysely<any>, never the application's current table types. On PostgreSQL the
// same tables with its own types (timestamptz); the username's case-insensitive uniqueness is the
// index on lower(username) of migration 008 there.
import { sql, type Kysely } from 'kysely';
import { generatedId, instantType, isPostgres } from './dialect.js';

export async function up(db: Kysely<any>): Promise<void> {
  const instant = instantType(db);
  const postgres = isPostgres(db);
  const users = db.schema
    .createTable('users')
    .addColumn('id', 'integer', generatedId(db))
    .addColumn('email', 'text', (col) => (postgres ? col.notNull() : col.notNull().unique()))
    .addColumn('full_name', 'text', (col) => col.notNull())
    .addColumn('username', postgres ? 'text' : sql`text collate nocase`, (col) => (postgres ? col : col.unique()))
    .addColumn('created_at', instant, (col) => col.notNull());
  await (postgres ? users.addUniqueConstraint('users_email_unique', ['email']) : users).execute();

  await db.schema
    .createTable('auth_info')
    .addColumn('user_id', 'integer', (col) => col.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('password_hash', 'text', (col) => col.notNull())
    .addColumn('failed_attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('locked_until', instant)
    .addColumn('status', 'text', (col) =>
      col
        .notNull()
        .defaultTo('active')
        .check(sql`status in ('active', 'disabled')`),
    )
    .addColumn('updated_at', instant, (col) => col.notNull())
    .execute();

  await db.schema
    .createTable('auth_tokens')
    .addColumn('id', 'integer', generatedId(db))
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    .addColumn('created_at', instant, (col) => col.notNull())
    .addColumn('expires_at', instant, (col) => col.notNull())
    .execute();
  await db.schema.createIndex('auth_tokens_user_id').on('auth_tokens').column('user_id').execute();
  await db.schema.createIndex('auth_tokens_expires_at').on('auth_tokens').column('expires_at').execute();

  await db.schema
    .createTable('reset_tokens')
    .addColumn('id', 'integer', generatedId(db))
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    .addColumn('created_at', instant, (col) => col.notNull())
    .addColumn('expires_at', instant, (col) => col.notNull())
    .addColumn('used_at', instant)
    .execute();
  await db.schema.createIndex('reset_tokens_user_id').on('reset_tokens').column('user_id').execute();
  await db.schema.createIndex('reset_tokens_expires_at').on('reset_tokens').column('expires_at').execute();

  await db.schema
    .createTable('unknown_login_failures')
    .addColumn('identifier', 'text', (col) => col.primaryKey())
    .addColumn('failed_attempts', 'integer', (col) => col.notNull())
    .addColumn('locked_until', instant)
    .addColumn('updated_at', instant, (col) => col.notNull())
    .execute();
  await db.schema.createIndex('unknown_login_failures_updated_at').on('unknown_login_failures').column('updated_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['unknown_login_failures', 'reset_tokens', 'auth_tokens', 'auth_info', 'users']) {
    await db.schema.dropTable(table).execute();
  }
}
