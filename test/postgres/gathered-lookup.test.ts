// The per-request lookup on PostgreSQL (src/db/database.ts, prepareLookup; docs/database.md): keys
// asked for in one turn of the event loop are answered by one statement, each with its own row, and
// each read after it was asked for. Counted at the pool of a real server.
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openPostgresDatabase } from '../../src/db/postgres.js';
import { createPostgresDatabase, onPostgres, POSTGRES_SKIP_REASON } from '../support/database.js';

interface Row {
  lookup_key: string;
  name: string;
}

const opened: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  for (const database of opened.splice(0)) await database.close().catch(() => undefined);
});

async function itemsDatabase() {
  const database = openPostgresDatabase(createPostgresDatabase('lookup'), {
    max: 4,
    connectTimeoutMs: 10_000,
    statementTimeoutMs: 10_000,
    lockTimeoutMs: 10_000,
  });
  opened.push(database);
  await sql`create table items (key text primary key, name text not null)`.execute(database.db);
  await sql`insert into items select 'k' || n, 'item ' || n from generate_series(1, 400) as n`.execute(database.db);
  let statements = 0;
  const query = database.pool.query.bind(database.pool) as (...args: unknown[]) => unknown;
  (database.pool as unknown as { query: (...args: unknown[]) => unknown }).query = (...args: unknown[]) => {
    statements++;
    return query(...args);
  };
  const lookup = database.prepareLookup<Row>(
    (keyIs) => sql<Row>`select key as lookup_key, name from items where ${keyIs(sql<string>`key`)}`.compile(database.db),
    (values) => ({ lookup_key: values[0] as string, name: values[1] as string }),
  );
  return { database, lookup, statements: () => statements };
}

describe.skipIf(!onPostgres)('the gathered lookup on PostgreSQL', () => {
  it('answers 300 keys asked in one turn with two statements (at most 256 keys each), each key its own row', async () => {
    const { lookup, statements } = await itemsDatabase();
    const keys = [...Array.from({ length: 280 }, (_, i) => `k${i + 1}`), ...Array.from({ length: 20 }, (_, i) => `missing${i}`)];
    const asked = [...keys, 'k1', 'k7', 'missing3'];
    const answers = await Promise.all(asked.map((key) => lookup(key)));
    asked.forEach((key, index) => expect(answers[index]).toEqual(key.startsWith('k') ? { lookup_key: key, name: `item ${key.slice(1)}` } : undefined));
    expect(statements()).toBe(2);
  });

  it('asks once per turn: lookups awaited one after another are one statement each', async () => {
    const { lookup, statements } = await itemsDatabase();
    for (const key of ['k1', 'k2', 'k3']) expect((await lookup(key))?.name).toBe(`item ${key.slice(1)}`);
    expect(statements()).toBe(3);
  });

  it('reads a key after it was asked for: a row deleted before the question is not found', async () => {
    const { database, lookup } = await itemsDatabase();
    expect(await lookup('k5')).toBeDefined();
    await sql`delete from items where key = 'k5'`.execute(database.db);
    expect(await lookup('k5')).toBeUndefined();
  });

  it('fails every question of a statement that fails, and only those', async () => {
    const { database, lookup } = await itemsDatabase();
    const before = await lookup('k9');
    expect(before?.name).toBe('item 9');
    await database.pool.end();
    const failed = await Promise.allSettled([lookup('k1'), lookup('k2'), lookup('missing')]);
    expect(failed.map((result) => result.status)).toEqual(['rejected', 'rejected', 'rejected']);
  });
});

describe.skipIf(!onPostgres)('the rows of an id on PostgreSQL (prepareRowsById)', () => {
  it('answers each id its own rows, one named statement each, and refuses a statement of two parameters', async () => {
    const { database, statements } = await itemsDatabase();
    const rowsById = database.prepareRowsById(
      () => sql<{ name: string }>`select name from items where length(key) = ${0}::int order by key`.compile(database.db),
      (values) => ({ name: values[0] as string }),
    );
    expect((await rowsById(2)).map((row) => row.name)).toEqual(['item 1', 'item 2', 'item 3', 'item 4', 'item 5', 'item 6', 'item 7', 'item 8', 'item 9']);
    expect(await rowsById(4)).toEqual(Array.from({ length: 301 }, (_, i) => ({ name: `item ${100 + i}` })));
    expect(await rowsById(7)).toEqual([]);
    expect(statements()).toBe(3);
    const two = database.prepareRowsById(
      () => sql`select name from items where key = ${'a'} or key = ${'b'}`.compile(database.db),
      (values) => ({ name: values[0] }),
    );
    await expect(two(1)).rejects.toThrow(/exactly one parameter/);
  });
});

describe.skipIf(onPostgres)('PostgreSQL', () => {
  it.skip(POSTGRES_SKIP_REASON, () => {});
});
