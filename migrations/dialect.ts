// What a migration needs to know of the engine it runs on: the column types that differ. SQLite keeps
// instants as ISO text and days as YYYY-MM-DD text; PostgreSQL has timestamptz and date, and states
// more rules as constraints (docs/database.md). Frozen like the migrations: no application types.
import { PostgresAdapter, type ColumnDataType, type ColumnDefinitionBuilder, type Kysely } from 'kysely';

export function isPostgres(db: Kysely<any>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/** An instant: ISO 8601 text in UTC on SQLite, timestamptz on PostgreSQL. */
export function instantType(db: Kysely<any>): ColumnDataType {
  return isPostgres(db) ? 'timestamptz' : 'text';
}

/** A calendar day: YYYY-MM-DD text on SQLite, date on PostgreSQL. */
export function dateType(db: Kysely<any>): ColumnDataType {
  return isPostgres(db) ? 'date' : 'text';
}

/** An integer key the database numbers: AUTOINCREMENT on SQLite, an identity column on PostgreSQL. */
export function generatedId(db: Kysely<any>): (col: ColumnDefinitionBuilder) => ColumnDefinitionBuilder {
  return isPostgres(db) ? (col) => col.primaryKey().generatedByDefaultAsIdentity() : (col) => col.primaryKey().autoIncrement();
}
