// The overtime balance sums worked_ms over every day since tracking started (years of rows). With
// worked_ms in an index beside (user_id, date), the sum reads that index alone instead of looking
// up one table row per day (five years: 130 → 90 µs a sum, measured).
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('daily_totals_worked').on('daily_totals').columns(['user_id', 'date', 'worked_ms']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('daily_totals_worked').execute();
}
