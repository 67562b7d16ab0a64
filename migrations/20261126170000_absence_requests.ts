// Absences booked together (docs/time-model.md, Absences): `request_id` groups the days of one
// booking (one POST of a day, a half day or a range), so that the client shows and removes what was
// booked. It is the id of the group's first absence; every absence that was there before this
// migration is a booking of its own. A later leave request (several days asked for and approved
// together) is such a group. Frozen in time: uses Kysely<any>.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('absences')
    .addColumn('request_id', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();
  await sql`update absences set request_id = id`.execute(db);
  await db.schema.createIndex('absences_user_request').on('absences').columns(['user_id', 'request_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('absences_user_request').execute();
  await db.schema.alterTable('absences').dropColumn('request_id').execute();
}
