// SQL fragments whose spelling differs between the engines: the only dialect switches outside the
// engine files, chosen from the executor a query runs on (docs/database.md).
import { PostgresAdapter, sql, type Kysely, type RawBuilder } from 'kysely';

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
