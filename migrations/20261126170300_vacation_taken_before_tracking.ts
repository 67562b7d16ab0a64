// Vacation already taken in the year of tracking_start before it (docs/time-model.md, Vacation
// allowance), in half days; null: none. Frozen in time: uses Kysely<any>.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('user_settings')
    .addColumn('vacation_taken_before_tracking_half_days', 'integer', (col) => col.check(sql`vacation_taken_before_tracking_half_days between 0 and 732`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('user_settings').dropColumn('vacation_taken_before_tracking_half_days').execute();
}
