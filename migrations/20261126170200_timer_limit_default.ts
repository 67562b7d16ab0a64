// The forgotten-timer limit is on for new accounts (docs/time-model.md, Forgotten timer): an account
// without a settings row, and every new row, has 720 minutes (12 hours). Every account that exists
// now gets its row here, so that it keeps what it had (no limit unless it set one); those without a
// limit are offered it once on Today (`suggest_timer_limit`, until turned on or dismissed). Frozen in
// time: uses Kysely<any>.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('user_settings')
    .addColumn('suggest_timer_limit', 'integer', (col) =>
      col
        .notNull()
        .defaultTo(0)
        .check(sql`suggest_timer_limit in (0, 1)`),
    )
    .execute();
  await sql`insert into user_settings (user_id, updated_at)
    select id, created_at from users where id not in (select user_id from user_settings)`.execute(db);
  await sql`update user_settings set suggest_timer_limit = 1 where timer_limit_minutes is null`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  // The rows added keep the defaults they were given.
  await db.schema.alterTable('user_settings').dropColumn('suggest_timer_limit').execute();
}
