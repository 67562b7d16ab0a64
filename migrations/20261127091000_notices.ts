// Notices (docs/notices.md): a row per notice to an account (a reminder, a decision, a lead's digest),
// recorded once by its key, listed under the bell until read, and mailed once by `serve`'s notice job
// (its delivery state: sent_at, attempts, last_error, next_try_at, given_up_at). `notice_checks` holds
// the last day each account was looked at for a kind of reminder, so a day is looked at once. The
// account setting `reminders_enabled` (default on) turns the missing-day reminder off. Frozen in time:
// uses Kysely<any>.
import { sql, type Kysely } from 'kysely';
import { dateType, generatedId, instantType } from './dialect.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('notices')
    .addColumn('id', 'integer', generatedId(db))
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('key', 'text', (col) => col.notNull().unique())
    .addColumn('data', 'text', (col) => col.notNull())
    .addColumn('created_at', instantType(db), (col) => col.notNull())
    .addColumn('read_at', instantType(db))
    .addColumn('sent_at', instantType(db))
    .addColumn('attempts', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('next_try_at', instantType(db))
    .addColumn('given_up_at', instantType(db))
    .execute();
  // An account's notices, newest first (GET /api/notices).
  await db.schema.createIndex('notices_by_user').on('notices').columns(['user_id', 'id']).execute();
  // What the notice job still has to mail.
  await db.schema.createIndex('notices_undelivered').on('notices').columns(['next_try_at']).where(sql.ref('sent_at'), 'is', null).execute();
  await db.schema
    .createTable('notice_checks')
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('kind', 'text', (col) => col.notNull())
    .addColumn('checked_date', dateType(db), (col) => col.notNull())
    .addPrimaryKeyConstraint('notice_checks_pkey', ['user_id', 'kind'])
    .execute();
  await db.schema
    .alterTable('user_settings')
    .addColumn('reminders_enabled', 'integer', (col) =>
      col
        .notNull()
        .defaultTo(1)
        .check(sql`reminders_enabled in (0, 1)`),
    )
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('user_settings').dropColumn('reminders_enabled').execute();
  await db.schema.dropTable('notice_checks').execute();
  await db.schema.dropTable('notices').execute();
}
