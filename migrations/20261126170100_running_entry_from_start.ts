// A running entry no longer blocks every later day (docs/time-model.md): the timer may start while
// an entry is planned for a later day (tomorrow's appointment), and a stop ends it at the planned
// entry's start at the latest. On PostgreSQL the exclusion constraint therefore takes a running entry
// as its start instant only, not [start, ∞); the service checks the rest of the day. SQLite has no
// such constraint. Frozen in time: uses Kysely<any>.
import { sql, type Kysely } from 'kysely';
import { isPostgres } from './dialect.js';

export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`alter table time_entries drop constraint time_entries_no_overlap`.execute(db);
  await sql`alter table time_entries add constraint time_entries_no_overlap
    exclude using gist (user_id with =, (case when end_at is null then tstzrange(start_at, start_at, '[]') else tstzrange(start_at, end_at, '[)') end) with &&)`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`alter table time_entries drop constraint time_entries_no_overlap`.execute(db);
  await sql`alter table time_entries add constraint time_entries_no_overlap
    exclude using gist (user_id with =, tstzrange(start_at, coalesce(end_at, 'infinity'::timestamptz), '[)') with &&)`.execute(db);
}
