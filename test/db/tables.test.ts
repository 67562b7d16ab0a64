// The one list of tables (src/db/tables.ts) against the schema the migrations make, on the engine of
// the run: `db copy` and both integrity checks go through that list, so a table it lacked would be
// neither copied nor checked. (A table of `Database` missing from the list does not compile.)
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { TABLES } from '../../src/db/tables.js';
import { createTestApp, type TestApp } from '../support/app.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

describe('the list of tables', () => {
  it('is every table the migrations make, each once', async () => {
    t = await createTestApp();
    const made = (await t.ctx.db.introspection.getTables()).map((table) => table.name);
    expect([...TABLES].sort()).toEqual(made.sort());
    expect(new Set(TABLES).size).toBe(TABLES.length);
  });

  it('puts every table after the tables it refers to (the order db copy writes them in)', async () => {
    t = await createTestApp();
    const position = new Map<string, number>(TABLES.map((table, at) => [table, at]));
    const references =
      t.ctx.database.engine === 'sqlite'
        ? await Promise.all(
            TABLES.map(async (table) => {
              const { rows } = await sql<{ table: string }>`select "table" from pragma_foreign_key_list(${table})`.execute(t!.ctx.db);
              return rows.map((row) => ({ from: table as string, to: row.table }));
            }),
          ).then((lists) => lists.flat())
        : (
            await sql<{
              from: string;
              to: string;
            }>`select conrelid::regclass::text as "from", confrelid::regclass::text as "to" from pg_constraint where contype = 'f'`.execute(t.ctx.db)
          ).rows;
    expect(references.length).toBeGreaterThan(0);
    for (const { from, to } of references) expect(position.get(to), `${from} → ${to}`).toBeLessThanOrEqual(position.get(from)!);
  });

  it('is what the integrity check reads: it reports ok on a new database', async () => {
    t = await createTestApp();
    expect(await t.ctx.database.quickCheck()).toBe('ok');
  });

  it("is what the integrity check reads: a table gone is noticed (bookings, which PostgreSQL's check once left out)", async () => {
    t = await createTestApp();
    await sql`drop table bookings`.execute(t.ctx.db);
    const result = t.ctx.database.quickCheck();
    // SQLite reports its findings; PostgreSQL's read of the missing table fails.
    if (t.ctx.database.engine === 'sqlite') expect(await result).toMatch(/bookings/);
    else await expect(result).rejects.toThrow(/bookings/);
  });
});
