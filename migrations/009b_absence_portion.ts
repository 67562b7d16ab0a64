// Half days of absence: an absence covers the whole day (`full`, what every absence was) or half of it
// (`half`: the day's target is halved). Frozen in time: uses Kysely<any>.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('absences')
    .addColumn('portion', 'text', (col) =>
      col
        .notNull()
        .defaultTo('full')
        .check(sql`portion in ('full', 'half')`),
    )
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('absences').dropColumn('portion').execute();
}
