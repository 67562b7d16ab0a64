// The per-request reads on SQLite (src/db/sqlite.ts, prepareLookup and prepareRowsById): rows read as
// arrays and made into objects by the mapper written beside the query give exactly what
// better-sqlite3's own row objects give, whatever the names and values; a mapper out of step with its
// query is refused; a read while another request's transaction is open on the connection answers what
// is committed, after that transaction.
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import type { KeyCondition } from '../../src/db/database.js';
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

// Names an object literal must quote: a quote, a backslash, a line break, a duplicate.
const SELECT = `select key as lookup_key, name, amount, share, data, name as "say ""hi""\\", amount as "two
lines", share as name from items where`;

type Row = { lookup_key: string } & Record<string, unknown>;

/** The row of SELECT, by index: a repeated name keeps its first place and its last value, as in better-sqlite3. */
function rowOfValues(values: unknown[]): Row {
  return {
    lookup_key: values[0] as string,
    name: values[7],
    amount: values[2],
    share: values[3],
    data: values[4],
    'say "hi"\\': values[5],
    'two\nlines': values[6],
  };
}

describe('the prepared lookup on SQLite', () => {
  it('answers the same rows as better-sqlite3 row objects, and undefined for a key without one', () => {
    const database = itemsDatabase();
    const lookup = database.prepareLookup<Row>((keyIs) => sql<Row>`${sql.raw(SELECT)} ${keyIs(sql<string>`key`)}`.compile(database.db), rowOfValues);
    const reference = database.sqlite.prepare(`${SELECT} key = ?`);
    for (const key of ['a', 'b', 'a']) {
      const row = lookup(key);
      expect(row).toEqual(reference.get(key));
      expect(Object.keys(row as object)).toEqual(Object.keys(reference.get(key) as object));
    }
    expect(lookup('a')).toMatchObject({ 'say "hi"\\': 'Anna', 'two\nlines': 3, name: 0.5, data: Buffer.from([0, 255]) });
    expect(lookup('missing')).toBeUndefined();
  });

  it('refuses a mapper whose names or places are not those of its query', () => {
    const database = itemsDatabase();
    const query = (keyIs: KeyCondition) => sql<Row>`select key as lookup_key, name from items where ${keyIs(sql<string>`key`)}`.compile(database.db);
    const swapped = database.prepareLookup<Row>(query, (values) => ({ lookup_key: values[1] as string, name: values[0] }));
    expect(() => swapped('a')).toThrow(/does not match/);
    const renamed = database.prepareLookup<Row>(query, (values) => ({ lookup_key: values[0] as string, full_name: values[1] }));
    expect(() => renamed('a')).toThrow(/does not match/);
  });

  it('answers what is committed when a transaction is open on the connection, after it has ended', async () => {
    const database = itemsDatabase();
    const lookup = database.prepareLookup<Row>((keyIs) => sql<Row>`${sql.raw(SELECT)} ${keyIs(sql<string>`key`)}`.compile(database.db), rowOfValues);
    const rowsById = database.prepareRowsById(
      () => sql<{ name: string | null }>`select name from items where amount = ${0}`.compile(database.db),
      (values) => ({ name: values[0] as string | null }),
    );
    const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));
    let duringLookup: unknown;
    let duringRows: unknown;
    // A transaction that yields to the event loop between its statements (as a long one does), then
    // rolls back: the reads of a request that arrives meanwhile must not see its writes.
    await expect(
      database.transact(async (trx) => {
        await sql`update items set name = 'Changed' where key = 'a'`.execute(trx);
        await nextTurn();
        duringLookup = lookup('a');
        duringRows = rowsById(3);
        await nextTurn();
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    await expect(duringLookup).resolves.toMatchObject({ lookup_key: 'a', name: 0.5, 'say "hi"\\': 'Anna' });
    await expect(duringRows).resolves.toEqual([{ name: 'Anna' }]);
    // Outside a transaction, synchronous again.
    expect(lookup('a')).toMatchObject({ 'say "hi"\\': 'Anna' });
  });

  it('reads the rows of an id as better-sqlite3 row objects, with one parameter only', async () => {
    const database = itemsDatabase();
    database.sqlite.exec(`insert into items values ('c', 'Carla', 3, 1.5, null), ('d', 'Dora', 4, null, null);`);
    const rowsById = database.prepareRowsById(
      () => sql<Record<string, unknown>>`select key, name, share from items where amount = ${0} order by key`.compile(database.db),
      (values) => ({ key: values[0], name: values[1], share: values[2] }),
    );
    const reference = database.sqlite.prepare('select key, name, share from items where amount = ? order by key');
    for (const id of [3, 4, 5]) expect(await rowsById(id)).toEqual(reference.all(id));
    expect(await rowsById(3)).toHaveLength(2);
    const two = database.prepareRowsById(
      () => sql`select name from items where amount = ${0} or amount = ${1}`.compile(database.db),
      (values) => ({ name: values[0] }),
    );
    expect(() => two(3)).toThrow(/exactly one parameter/);
  });
});
