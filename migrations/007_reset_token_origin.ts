// Who issued a reset token: an anonymous request (`request`) or an administrator (`admin`, with
// `timetrack reset issue`). A request never voids an administrator's link. Tokens issued before this
// migration are counted as requested. Frozen in time: uses Kysely<any>.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('reset_tokens')
    .addColumn('issued_by', 'text', (col) => col.notNull().defaultTo('request'))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('reset_tokens').dropColumn('issued_by').execute();
}
