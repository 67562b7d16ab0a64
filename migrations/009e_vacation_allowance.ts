// The vacation allowance (docs/time-model.md): days per year and the most days carried over, both kept in
// half days (halves are allowed); null: not tracked, or no limit. Frozen in time: uses Kysely<any>.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('user_settings')
    .addColumn('vacation_half_days_per_year', 'integer', (col) => col.check(sql`vacation_half_days_per_year between 0 and 732`))
    .execute();
  await db.schema
    .alterTable('user_settings')
    .addColumn('vacation_carry_over_max_half_days', 'integer', (col) => col.check(sql`vacation_carry_over_max_half_days between 0 and 732`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('user_settings').dropColumn('vacation_carry_over_max_half_days').execute();
  await db.schema.alterTable('user_settings').dropColumn('vacation_half_days_per_year').execute();
}
