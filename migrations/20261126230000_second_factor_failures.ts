// Wrong two-factor codes count apart from wrong passwords (docs/security.md, "Guessing codes"): per
// account the consecutive wrong codes, the wrong codes since the last lock, how many locks there have
// been and the end of the current one. Only a right code, a recovery code or `user 2fa-reset` clears
// the row; a password reset, a password change and `user unlock` leave it. And per session the wrong
// passwords it sent to the routes that take the password with a session (the third revokes it).
// Frozen in time: uses Kysely<any>.
import { sql, type Kysely } from 'kysely';
import { instantType } from './dialect.js';

export async function up(db: Kysely<any>): Promise<void> {
  const instant = instantType(db);
  await db.schema
    .createTable('two_factor_failures')
    .addColumn('user_id', 'integer', (col) => col.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('consecutive', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('since_lock', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('locks', 'integer', (col) => col.notNull().defaultTo(0))
    .addColumn('locked_until', instant)
    .addColumn('updated_at', instant, (col) => col.notNull())
    .execute();
  await db.schema
    .alterTable('auth_tokens')
    .addColumn('password_guesses', 'integer', (col) => col.notNull().defaultTo(sql`0`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('auth_tokens').dropColumn('password_guesses').execute();
  await db.schema.dropTable('two_factor_failures').execute();
}
