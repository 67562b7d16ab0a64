// The prepared-statement cache that Kysely's SQLite driver prepares through (src/db/database.ts).
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { cachePreparedStatements } from '../../src/db/sqlite.js';
import { makeTempDir } from '../support/app.js';

const open: SQLite.Database[] = [];
afterEach(() => open.splice(0).forEach((sqlite) => sqlite.close()));

function database(): SQLite.Database {
  const sqlite = new SQLite(path.join(makeTempDir(), 'cache.db'));
  open.push(sqlite);
  sqlite.exec('create table items (id integer primary key, name text not null)');
  sqlite.exec("insert into items (name) values ('one'), ('two'), ('three')");
  return sqlite;
}

describe('prepared-statement cache', () => {
  it('hands out the same statement for the same SQL', () => {
    const cache = cachePreparedStatements(database());
    const first = cache.prepare('select name from items where id = ?');
    expect(cache.prepare('select name from items where id = ?')).toBe(first);
    expect(first.all([2])).toEqual([{ name: 'two' }]);
    expect(cache.cachedStatements).toBe(1);
  });

  it('keeps at most its capacity, evicting the least recently used', () => {
    const cache = cachePreparedStatements(database(), 2);
    const a = cache.prepare('select 1');
    const b = cache.prepare('select 2');
    expect(cache.prepare('select 1')).toBe(a); // now b is the least recently used
    cache.prepare('select 3');
    expect(cache.cachedStatements).toBe(2);
    expect(cache.prepare('select 1')).toBe(a);
    expect(cache.prepare('select 2')).not.toBe(b);
  });

  it('is emptied by a schema change, and queries after it see the new schema', () => {
    const cache = cachePreparedStatements(database());
    const before = cache.prepare('select * from items where id = ?');
    expect(before.all([1])).toEqual([{ id: 1, name: 'one' }]);
    cache.prepare('alter table items add column note text').run([]);
    expect(cache.cachedStatements).toBe(0);
    const after = cache.prepare('select * from items where id = ?');
    expect(after).not.toBe(before);
    expect(after.all([1])).toEqual([{ id: 1, name: 'one', note: null }]);
  });

  it('never hands out a statement that is still being iterated', () => {
    const cache = cachePreparedStatements(database());
    const sql = 'select name from items order by id';
    const iterating = cache.prepare(sql);
    const names: unknown[] = [];
    for (const row of iterating.iterate([])) {
      const other = cache.prepare(sql);
      expect(other).not.toBe(iterating);
      expect(other.all([])).toHaveLength(3);
      names.push((row as { name: string }).name);
    }
    expect(names).toEqual(['one', 'two', 'three']);
    expect(cache.prepare(sql)).toBe(iterating);
  });
});
