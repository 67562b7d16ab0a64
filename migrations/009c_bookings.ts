// Bookings on the balance: overtime paid out (negative), or a correction agreed with the employer,
// counted on their date (docs/time-model.md). Frozen in time: uses Kysely<any>.
import { sql, type Kysely } from 'kysely';
import { dateType, generatedId, instantType } from './dialect.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('bookings')
    .addColumn('id', 'integer', generatedId(db))
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('date', dateType(db), (col) => col.notNull())
    .addColumn('minutes', 'integer', (col) => col.notNull())
    .addColumn('kind', 'text', (col) => col.notNull().check(sql`kind in ('payout', 'correction')`))
    .addColumn('note', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('created_at', instantType(db), (col) => col.notNull())
    .addCheckConstraint('bookings_minutes_not_zero', sql`minutes <> 0`)
    .addCheckConstraint('bookings_payout_negative', sql`kind <> 'payout' or minutes < 0`)
    .execute();
  await db.schema.createIndex('bookings_user_date').on('bookings').columns(['user_id', 'date']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('bookings').execute();
}
