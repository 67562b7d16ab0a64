// Time tracking: per-user settings, time entries, absences, and per-day totals of worked time
// (kept in the same transaction as every entry write, so statistics never scan all entries).
// Frozen in time: uses Kysely<any>, never the application's current table types. On PostgreSQL the
// same tables with timestamptz and date, and the rule that a user's entries never overlap (a running
// one occupies [start, ∞)) as an exclusion constraint: it holds whatever a process does.
import { sql, type Kysely } from 'kysely';
import { dateType, generatedId, instantType, isPostgres } from './dialect.js';

const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

export async function up(db: Kysely<any>): Promise<void> {
  const instant = instantType(db);
  const date = dateType(db);
  let settings = db.schema
    .createTable('user_settings')
    .addColumn('user_id', 'integer', (col) => col.primaryKey().references('users.id').onDelete('cascade'))
    .addColumn('timezone', 'text', (col) => col.notNull().defaultTo('UTC'))
    .addColumn('holiday_region', 'text')
    .addColumn('overtime_offset_minutes', 'integer', (col) => col.notNull().defaultTo(0))
    // Null: the day the account was made (in the user's time zone).
    .addColumn('tracking_start', date)
    .addColumn('updated_at', instant, (col) => col.notNull());
  for (const day of WEEKDAYS) {
    const weekend = day === 'sat' || day === 'sun';
    settings = settings.addColumn(`target_${day}_minutes`, 'integer', (col) =>
      col
        .notNull()
        .defaultTo(weekend ? 0 : 480)
        .check(sql.raw(`target_${day}_minutes between 0 and 1440`)),
    );
  }
  await settings.execute();

  await db.schema
    .createTable('time_entries')
    .addColumn('id', 'integer', generatedId(db))
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('start_at', instant, (col) => col.notNull())
    .addColumn('end_at', instant)
    .addColumn('note', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('created_at', instant, (col) => col.notNull())
    .addColumn('updated_at', instant, (col) => col.notNull())
    .addCheckConstraint('time_entries_end_after_start', sql`end_at is null or end_at > start_at`)
    .execute();
  // Serves "entries of a user overlapping a range": the entries of a user never overlap, so they are
  // ordered by start_at, and a range query is two seeks on this index (see services/time-entries.ts).
  await db.schema.createIndex('time_entries_user_start').on('time_entries').columns(['user_id', 'start_at']).execute();
  // At most one running entry per user, even if a rule in the service were bypassed.
  await db.schema.createIndex('time_entries_one_running_per_user').on('time_entries').column('user_id').unique().where(sql.ref('end_at'), 'is', null).execute();
  if (isPostgres(db)) {
    // btree_gist lets a GiST index compare user_id with =; trusted, so the database's owner may create it.
    await sql`create extension if not exists btree_gist`.execute(db);
    await sql`alter table time_entries add constraint time_entries_no_overlap
      exclude using gist (user_id with =, tstzrange(start_at, coalesce(end_at, 'infinity'::timestamptz), '[)') with &&)`.execute(db);
  }

  await db.schema
    .createTable('absences')
    .addColumn('id', 'integer', generatedId(db))
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('date', date, (col) => col.notNull())
    .addColumn('type', 'text', (col) => col.notNull().check(sql`type in ('vacation', 'sick', 'holiday')`))
    .addColumn('note', 'text', (col) => col.notNull().defaultTo(''))
    .addColumn('created_at', instant, (col) => col.notNull())
    .addUniqueConstraint('absences_one_per_user_and_day', ['user_id', 'date'])
    .execute();

  await db.schema
    .createTable('daily_totals')
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('date', date, (col) => col.notNull())
    .addColumn('worked_ms', 'integer', (col) => col.notNull())
    .addPrimaryKeyConstraint('daily_totals_pk', ['user_id', 'date'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['daily_totals', 'absences', 'time_entries', 'user_settings']) {
    await db.schema.dropTable(table).execute();
  }
}
