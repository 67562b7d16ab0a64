// The migration that moved team names' case-insensitive uniqueness from the engine's lower() to a key
// timetrack computes (docs/teams.md, "Teams"): on SQLite, whose lower() folds ASCII only, two teams
// "Ärzte" and "ärzte" could exist before it. The migration keeps both (the later one's key carries its
// id), and from then on a third spelling of the name is refused.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { migrations } from '../../migrations/index.js';
import { migrateToLatest } from '../../src/db/migrate.js';
import { openSqliteDatabase } from '../../src/db/sqlite.js';
import { makeTempDir } from '../support/app.js';
import { createMigratedSqliteDatabase, onPostgres } from '../support/database.js';

const MIGRATION = '20261127054500_team_name_key';

describe.skipIf(onPostgres)('the team name key migration (SQLite, where lower() folds ASCII only)', () => {
  it('keeps two names that only Unicode case folding makes one, and refuses a third spelling afterwards', async () => {
    const file = path.join(makeTempDir(), 'timetrack.db');
    await createMigratedSqliteDatabase(file);
    const database = openSqliteDatabase(file);
    try {
      const { db } = database;
      // Back to before the migration (it and anything after it), as an install of the previous build.
      const later = Object.keys(migrations)
        .filter((name) => name >= MIGRATION)
        .sort()
        .reverse();
      for (const name of later) {
        await migrations[name]!.down!(db);
        await db
          .deleteFrom('kysely_migration' as never)
          .where('name' as never, '=', name as never)
          .execute();
      }
      const now = new Date().toISOString();
      const insertOld = (name: string) => database.sqlite.prepare('insert into teams (name, created_at) values (?, ?)').run(name, now);
      insertOld('Ärzte');
      insertOld('ärzte');
      // The old index: the same name again is refused, but not one that differs beyond ASCII in case.
      expect(() => insertOld('ärzte')).toThrow(/UNIQUE/);

      await migrateToLatest(db);
      const rows = database.sqlite.prepare('select id, name, name_key from teams order by id').all() as Array<{ id: number; name: string; name_key: string }>;
      expect(rows).toEqual([
        { id: 1, name: 'Ärzte', name_key: 'ärzte' },
        { id: 2, name: 'ärzte', name_key: 'ärzte#2' },
      ]);
      expect(() => database.sqlite.prepare("insert into teams (name, name_key, created_at) values ('ÄRZTE', 'ärzte', ?)").run(now)).toThrow(/UNIQUE/);
    } finally {
      await database.close();
    }
  });
});
