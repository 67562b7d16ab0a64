// SQL fragments whose spelling differs between the engines: the only dialect switches outside the
// engine files, chosen from the executor a query runs on (docs/database.md).
import { PostgresAdapter, sql, type Kysely, type RawBuilder } from 'kysely';
import { jsonArrayFrom as postgresJsonArray } from 'kysely/helpers/postgres';
import { jsonArrayFrom as sqliteJsonArray } from 'kysely/helpers/sqlite';

function onPostgres(executor: Kysely<any>): boolean {
  return executor.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * An instant (ISO string) as a value where nothing else tells its type, e.g. a branch of CASE:
 * PostgreSQL would take an untyped parameter there for text and refuse to store it in a timestamptz.
 */
export function instantValue(executor: Kysely<any>, iso: string): RawBuilder<string> {
  return onPostgres(executor) ? sql<string>`cast(${iso} as timestamptz)` : sql<string>`${iso}`;
}

/** The day of the week of a table's `date` column as an integer, 0 = Sunday … 6 = Saturday. */
export function weekdayOfDate(executor: Kysely<any>): RawBuilder<number> {
  return onPostgres(executor) ? sql<number>`cast(extract(dow from date) as integer)` : sql<number>`cast(strftime('%w', date) as integer)`;
}

/**
 * The rows of a subquery as one JSON array value beside the outer query's row (one statement where
 * two would cost a round trip each on PostgreSQL). Only for columns whose JSON spelling is the
 * driver's (text, integers, dates as `YYYY-MM-DD`), not instants; read with `rowsOfJson`.
 */
export function jsonRows<O>(executor: Kysely<any>, subquery: Parameters<typeof sqliteJsonArray<unknown>>[0]): RawBuilder<O[] | string> {
  // The caller names the rows' type: inside a join Kysely types a subquery's columns as nullable.
  return (onPostgres(executor) ? postgresJsonArray(subquery) : sqliteJsonArray(subquery)) as RawBuilder<O[] | string>;
}

/** The rows of a `jsonRows` value: PostgreSQL's driver parses JSON, SQLite answers its text. */
export function rowsOfJson<O>(value: O[] | string): O[] {
  return typeof value === 'string' ? (JSON.parse(value) as O[]) : value;
}
