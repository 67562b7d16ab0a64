// The reads that run on every request, on PostgreSQL (prepareLookup and prepareRowsById of the port,
// src/db/database.ts): each a named statement that pg prepares once per connection, run on the pool
// without Kysely's executor.
import { createHash } from 'node:crypto';
import { sql, type CompiledQuery } from 'kysely';
import type pg from 'pg';
import type { KeyCondition, KeyedLookup, RowsById } from './database.js';

/** At most this many keys in one statement of a gathered lookup (prepareLookup); more go in several. */
const LOOKUP_BATCH_LIMIT = 256;

/** A named statement of this text: pg prepares it once per connection, then only binds and runs it. */
function namedStatement(text: string): { name: string; text: string } {
  return { name: `timetrack_${createHash('sha256').update(text).digest('hex').slice(0, 16)}`, text };
}

interface Waiter<R> {
  resolve: (row: R | undefined) => void;
  reject: (error: unknown) => void;
}

/**
 * The lookup of prepareLookup on PostgreSQL: the keys asked for in one turn of the event loop go out
 * together after it, in one named statement (`= any($1)`), at most LOOKUP_BATCH_LIMIT keys each.
 */
export function gatheredLookup<R extends { lookup_key: string }>(pool: pg.Pool, build: (keyIs: KeyCondition) => CompiledQuery<R>): KeyedLookup<R> {
  let statement: { name: string; text: string } | undefined;
  let pending = new Map<string, Waiter<R>[]>();
  const answer = (keys: string[], waiting: Map<string, Waiter<R>[]>) => {
    pool.query<R & Record<string, unknown>>({ ...(statement as { name: string; text: string }), values: [keys] }).then(
      (result) => {
        const rows = new Map(result.rows.map((row) => [row.lookup_key, row]));
        for (const key of keys) for (const waiter of waiting.get(key) ?? []) waiter.resolve(rows.get(key));
      },
      (error: unknown) => {
        for (const key of keys) for (const waiter of waiting.get(key) ?? []) waiter.reject(error);
      },
    );
  };
  const flush = () => {
    const waiting = pending;
    pending = new Map();
    statement ??= namedStatement(build((column) => sql<boolean>`${column} = any(${sql.val<string[]>([])}::text[])`).sql);
    const keys = [...waiting.keys()];
    for (let from = 0; from < keys.length; from += LOOKUP_BATCH_LIMIT) answer(keys.slice(from, from + LOOKUP_BATCH_LIMIT), waiting);
  };
  return (key) =>
    new Promise<R | undefined>((resolve, reject) => {
      // The keys of requests read in this turn of the event loop go out together after it (setImmediate).
      if (pending.size === 0) setImmediate(flush);
      const waiters = pending.get(key);
      if (waiters) waiters.push({ resolve, reject });
      else pending.set(key, [{ resolve, reject }]);
    });
}

/** prepareRowsById on PostgreSQL: one named statement, prepared once per connection by pg. */
export function namedRowsById<R>(pool: pg.Pool, build: () => CompiledQuery<R>): RowsById<R> {
  let statement: { name: string; text: string } | undefined;
  return async (id) => {
    statement ??= (() => {
      const { sql: text, parameters } = build();
      if (parameters.length !== 1) throw new Error('a statement of rows by id has exactly one parameter');
      return namedStatement(text);
    })();
    return (await pool.query<R & Record<string, unknown>>({ ...statement, values: [id] })).rows;
  };
}
