// The forgotten timer (docs/time-model.md): setting `timer_limit_minutes` (null: off), and entries the
// server stopped at their start plus that limit marked `auto_stopped` (1) until their end is set again.
// Frozen in time: uses Kysely<any>.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('user_settings')
    .addColumn('timer_limit_minutes', 'integer', (col) => col.check(sql`timer_limit_minutes between 1 and 44640`))
    .execute();
  await db.schema
    .alterTable('time_entries')
    .addColumn('auto_stopped', 'integer', (col) =>
      col
        .notNull()
        .defaultTo(0)
        .check(sql`auto_stopped in (0, 1)`),
    )
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('time_entries').dropColumn('auto_stopped').execute();
  await db.schema.alterTable('user_settings').dropColumn('timer_limit_minutes').execute();
}
