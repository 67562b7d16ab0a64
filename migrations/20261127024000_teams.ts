// Teams (docs/teams.md): a team has a name, unique without regard to case (a unique index on
// lower(name), on both engines), and members, each a `lead` or a `member` of it. A membership goes
// with its team or its account (ON DELETE CASCADE). Frozen in time: uses Kysely<any>.
import { sql, type Kysely } from 'kysely';
import { generatedId, instantType } from './dialect.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('teams')
    .addColumn('id', 'integer', generatedId(db))
    .addColumn('name', 'text', (col) => col.notNull())
    .addColumn('created_at', instantType(db), (col) => col.notNull())
    .execute();
  await db.schema
    .createIndex('teams_name_unique')
    .on('teams')
    .unique()
    .expression(sql`lower(name)`)
    .execute();
  await db.schema
    .createTable('team_members')
    .addColumn('team_id', 'integer', (col) => col.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('role', 'text', (col) => col.notNull().check(sql`role in ('lead', 'member')`))
    .addPrimaryKeyConstraint('team_members_one_per_account', ['team_id', 'user_id'])
    .execute();
  // The teams of an account (GET /api/auth/me, how an actor stands to another account).
  await db.schema.createIndex('team_members_by_user').on('team_members').columns(['user_id', 'team_id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('team_members').execute();
  await db.schema.dropTable('teams').execute();
}
