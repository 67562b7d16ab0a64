// Team names unique without regard to case on both engines alike (docs/teams.md, "Teams"): the unique
// index on lower(name) folded only ASCII letters on SQLite, and on PostgreSQL what the database's
// LC_CTYPE folds, so "Ärzte" and "ärzte" were one name on one engine and two on the other. The key is
// now computed by timetrack (NFC, then JavaScript's Unicode lower case) into `name_key`, which carries
// the unique index. Rows that only now collide (possible only on SQLite) keep apart with their id in
// the key. Frozen in time: uses Kysely<any> and its own copy of the key.
import { sql, type Kysely } from 'kysely';

const keyOf = (name: string) => name.normalize('NFC').toLowerCase();

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('teams')
    .addColumn('name_key', 'text', (col) => col.notNull().defaultTo(''))
    .execute();
  const taken = new Set<string>();
  for (const team of await db.selectFrom('teams').select(['id', 'name']).orderBy('id').execute()) {
    const key = taken.has(keyOf(team.name)) ? `${keyOf(team.name)}#${team.id}` : keyOf(team.name);
    taken.add(key);
    await db.updateTable('teams').set({ name_key: key }).where('id', '=', team.id).execute();
  }
  await db.schema.dropIndex('teams_name_unique').execute();
  await db.schema.createIndex('teams_name_key_unique').on('teams').unique().column('name_key').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex('teams_name_key_unique').execute();
  await db.schema.alterTable('teams').dropColumn('name_key').execute();
  await db.schema
    .createIndex('teams_name_unique')
    .on('teams')
    .unique()
    .expression(sql`lower(name)`)
    .execute();
}
