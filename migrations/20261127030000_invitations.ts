// Invitations (docs/teams.md, "Invitations"): an admin or a team's lead invites a person by e-mail
// address into a team with a role. The link's token is stored only as its SHA-256 (as reset tokens
// are); an invitation goes with its team (ON DELETE CASCADE). Frozen in time: uses Kysely<any>.
import { sql, type Kysely } from 'kysely';
import { generatedId, instantType } from './dialect.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('invitations')
    .addColumn('id', 'integer', generatedId(db))
    .addColumn('email', 'text', (col) => col.notNull())
    .addColumn('full_name', 'text', (col) => col.notNull())
    .addColumn('team_id', 'integer', (col) => col.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('role', 'text', (col) => col.notNull().check(sql`role in ('lead', 'member')`))
    .addColumn('token_hash', 'text', (col) => col.notNull().unique())
    .addColumn('invited_by', 'text', (col) => col.notNull())
    .addColumn('created_at', instantType(db), (col) => col.notNull())
    .addColumn('expires_at', instantType(db), (col) => col.notNull())
    .addColumn('accepted_at', instantType(db))
    .addColumn('withdrawn_at', instantType(db))
    .execute();
  // The pending invitations of a team (GET /api/invitations of a lead).
  await db.schema.createIndex('invitations_by_team').on('invitations').columns(['team_id', 'id']).execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('invitations').execute();
}
