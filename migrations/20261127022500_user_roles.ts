// Roles (docs/teams.md): every account is an `admin`, a `lead` or a `member`, `member` by default, so
// no account gains a right by the upgrade; an operator makes the first admin with
// `timetrack user role <account> admin`. The index serves the check for the last active admin.
// Frozen in time: uses Kysely<any>.
import { sql, type Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('users')
    .addColumn('role', 'text', (col) =>
      col
        .notNull()
        .defaultTo('member')
        .check(sql`role in ('admin', 'lead', 'member')`),
    )
    .execute();
  await db.schema.createIndex('users_by_role').on('users').column('role').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('users_by_role').execute();
  await db.schema.alterTable('users').dropColumn('role').execute();
}
