// The per-request lookup on SQLite (src/db/sqlite.ts, prepareLookup): rows read as arrays and made
// into objects by a function generated from the column names give exactly what better-sqlite3's own
// row objects give, whatever the names and values.
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteDatabase, type OpenedSqliteDatabase } from '../../src/db/sqlite.js';
import { makeTempDir } from '../support/app.js';

const opened: OpenedSqliteDatabase[] = [];
afterEach(async () => {
  for (const database of opened.splice(0)) await database.close();
});

function itemsDatabase(): OpenedSqliteDatabase {
  const database = openSqliteDatabase(path.join(makeTempDir(), 'lookup.db'));
  opened.push(database);
  database.sqlite.exec(`
    create table items (key text primary key, name text, amount integer, share real, data blob);
    insert into items values ('a', 'Anna', 3, 0.5, x'00ff'), ('b', null, null, null, null);`);
  return database;
}

// Names a generated object literal must quote: a quote, a backslash, a line break, a duplicate.
const SELECT = `select key as lookup_key, name, amount, share, data, name as "say ""hi""\\", amount as "two
lines", share as name from items where`;

describe('the prepared lookup on SQLite', () => {
  it('answers the same rows as better-sqlite3 row objects, and undefined for a key without one', () => {
    const database = itemsDatabase();
    type Row = { lookup_key: string } & Record<string, unknown>;
    const lookup = database.prepareLookup<Row>((keyIs) => sql<Row>`${sql.raw(SELECT)} ${keyIs(sql<string>`key`)}`.compile(database.db));
    const reference = database.sqlite.prepare(`${SELECT} key = ?`);
    for (const key of ['a', 'b', 'a']) {
      const row = lookup(key);
      expect(row).toEqual(reference.get(key));
      expect(Object.keys(row as object)).toEqual(Object.keys(reference.get(key) as object));
    }
    expect(lookup('a')).toMatchObject({ 'say "hi"\\': 'Anna', 'two\nlines': 3, name: 0.5, data: Buffer.from([0, 255]) });
    expect(lookup('missing')).toBeUndefined();
  });
});
