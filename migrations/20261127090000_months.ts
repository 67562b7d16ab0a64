// Closed months (docs/teams.md, "Closed months"): one row per account and month once the month has
// been submitted (no row: open). The state, who submitted and who decided (and when), the lead's
// comment, and the month's figures sealed at approval (their canonical JSON and its SHA-256). A team may lock its
// members' months by itself some days after their end (`teams.auto_lock_after_days`, null: never).
// Frozen in time: uses Kysely<any>.
import { sql, type Kysely } from 'kysely';
import { instantType } from './dialect.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('months')
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('month', 'text', (col) => col.notNull().check(sql`length(month) = 7`))
    .addColumn('state', 'text', (col) => col.notNull().check(sql`state in ('open', 'submitted', 'returned', 'approved', 'locked')`))
    .addColumn('submitted_by', 'integer')
    .addColumn('submitted_at', instantType(db))
    .addColumn('decided_by', 'integer')
    .addColumn('decided_at', instantType(db))
    .addColumn('comment', 'text')
    .addColumn('digest', 'text')
    // The canonical JSON the digest was taken of: what verifying names the differences from.
    .addColumn('figures', 'text')
    .addPrimaryKeyConstraint('months_one_per_account', ['user_id', 'month'])
    .execute();
  // Months that housekeeping may lock, and a team's month: by month.
  await db.schema.createIndex('months_by_month').on('months').columns(['month', 'state']).execute();
  await db.schema
    .alterTable('teams')
    .addColumn('auto_lock_after_days', 'integer', (col) => col.check(sql`auto_lock_after_days between 0 and 366`))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('teams').dropColumn('auto_lock_after_days').execute();
  await db.schema.dropTable('months').execute();
}
