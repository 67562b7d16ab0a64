// Usernames are unique and looked up without regard to case on both engines the same way: through
// lower(username), which this index makes unique and fast. (SQLite also keeps the column's COLLATE
// NOCASE of migration 001; PostgreSQL has only this index.) Usernames are ASCII, where SQLite's
// lower() and PostgreSQL's agree. Frozen in time: uses Kysely<any>.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('users_username_lower_unique')
    .on('users')
    .unique()
    .expression(sql`lower(username)`)
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('users_username_lower_unique').execute();
}
