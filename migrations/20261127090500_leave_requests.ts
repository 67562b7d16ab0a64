// Leave requests (docs/teams.md, "Leave requests"): a team says whether its people's vacation waits
// for a lead's approval (`teams.absence_approval`, `required` by default, or `none`); an absence is
// `approved` (it counts, as every absence before this migration) or `requested` (it holds its day but
// changes no figure); a request row per booking that waits or waited for a decision, whose id is the
// `request_id` of its absences. A request goes with its account (ON DELETE CASCADE); who decided is
// kept as an account id while that account exists. Frozen in time: uses Kysely<any>.
import { sql, type Kysely } from 'kysely';
import { dateType, instantType } from './dialect.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('teams')
    .addColumn('absence_approval', 'text', (col) =>
      col
        .notNull()
        .defaultTo('required')
        .check(sql`absence_approval in ('required', 'none')`),
    )
    .execute();
  await db.schema
    .alterTable('absences')
    .addColumn('state', 'text', (col) =>
      col
        .notNull()
        .defaultTo('approved')
        .check(sql`state in ('requested', 'approved')`),
    )
    .execute();
  await db.schema
    .createTable('leave_requests')
    .addColumn('id', 'integer', (col) => col.primaryKey())
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('state', 'text', (col) => col.notNull().check(sql`state in ('requested', 'approved', 'rejected', 'withdrawn', 'cancel_requested', 'cancelled')`))
    .addColumn('type', 'text', (col) => col.notNull())
    .addColumn('from_date', dateType(db), (col) => col.notNull())
    .addColumn('to_date', dateType(db), (col) => col.notNull())
    .addColumn('portion', 'text', (col) => col.notNull())
    .addColumn('half_days', 'integer', (col) => col.notNull())
    .addColumn('exceeds_allowance', 'integer', (col) =>
      col
        .notNull()
        .defaultTo(0)
        .check(sql`exceeds_allowance in (0, 1)`),
    )
    .addColumn('decided_by', 'integer', (col) => col.references('users.id').onDelete('set null'))
    .addColumn('decided_at', instantType(db))
    .addColumn('decision_note', 'text')
    .addColumn('created_at', instantType(db), (col) => col.notNull())
    .execute();
  // A person's own requests, and the open ones a lead lists.
  await db.schema.createIndex('leave_requests_by_user').on('leave_requests').columns(['user_id', 'id']).execute();
  await db.schema.createIndex('leave_requests_by_state').on('leave_requests').columns(['state', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('leave_requests').execute();
  await db.schema.alterTable('absences').dropColumn('state').execute();
  await db.schema.alterTable('teams').dropColumn('absence_approval').execute();
}
