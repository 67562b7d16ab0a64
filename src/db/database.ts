// The port of the database, with its two engines behind it (opened by src/db/open.ts). The domains
// speak Kysely and consume this narrow port through Pick<> (docs/database.md): `transact` for every
// transaction, `lockUser` first in every read-then-write transaction of one account, prepared lookups
// for the hot path, and the error classification and error types below. SQLite (src/db/sqlite.ts) is the embedded default; PostgreSQL
// (src/db/postgres.ts) carries several `serve` processes on one database.
import type { CompiledQuery, Expression, Kysely, RawBuilder, Transaction } from 'kysely';
import type { Database } from './types.js';

export type Engine = 'sqlite' | 'postgres';

/** Where the data lives, as the settings say (TIMETRACK_DB or DATABASE_URL). */
export type DatabaseTarget = { engine: 'sqlite'; path: string } | { engine: 'postgres'; url: string; pool: PostgresPoolSettings };

/** A SQLite file (TIMETRACK_DB). */
export function databaseInFile(path: string): DatabaseTarget {
  return { engine: 'sqlite', path };
}

/** A PostgreSQL database (DATABASE_URL), with its pool's settings. */
export function databaseOnServer(url: string, pool: PostgresPoolSettings): DatabaseTarget {
  return { engine: 'postgres', url, pool };
}

/** The SQLite file of a target, or undefined for a PostgreSQL database (what exists on SQLite alone: the file, its folder, its lock). */
export function databaseFileOf(target: DatabaseTarget): string | undefined {
  return target.engine === 'sqlite' ? target.path : undefined;
}

/**
 * How many statements of one process can wait on the database at once: the pool's connections on
 * PostgreSQL, where a statement is a round trip; undefined on SQLite, whose statements run
 * synchronously in the process (the statistics' lane is sized by it: docs/performance.md).
 */
export function connectionsOf(target: DatabaseTarget): number | undefined {
  return target.engine === 'postgres' ? target.pool.max : undefined;
}

export interface PostgresPoolSettings {
  /** Connections per process. */
  max: number;
  /** How long a request waits for a connection (a new one, or a free one of the pool). */
  connectTimeoutMs: number;
  /** The longest a statement may run (statement_timeout). */
  statementTimeoutMs: number;
  /** How long a statement waits for a row lock (lock_timeout): then the request answers 503, as a busy SQLite file does. */
  lockTimeoutMs: number;
}

/** The row of one key (synchronous on SQLite outside a transaction), or undefined. */
export type KeyedLookup<R> = (key: string) => R | undefined | Promise<R | undefined>;

/** The rows of one id (prepareRowsById). */
export type RowsById<R> = (id: number) => Promise<R[]>;

/**
 * A lookup's row from its values in select order: plain code written beside the query, reading the
 * array by index and building the object literally (prepareLookup on SQLite).
 */
export type RowOfValues<R> = (values: unknown[]) => R;

/** The condition "the key column equals the looked-up key(s)", as each engine writes it (prepareLookup). */
export type KeyCondition = (column: Expression<string>) => RawBuilder<boolean>;

/**
 * Runs writes that may be lost on a power loss (never on a crash) without waiting for the disk, on
 * SQLite; on PostgreSQL the commit is the usual one. `fn` must use the executor it is given.
 */
export type BestEffortWriter = <T>(fn: (connection: Kysely<Database>) => Promise<T>) => Promise<T>;

// The errors of the database's own operations, each a sentence for the operator (src/cli/errors.ts).

/** A backup or a restore that failed. */
export class BackupError extends Error {
  override name = 'BackupError';
}

/** A migration failed, or the schema is not this build's (pending migrations, or a newer version's). */
export class MigrationError extends Error {
  override name = 'MigrationError';
}

/** `db copy` refused or failed (a target that is not empty, counts that differ): nothing was copied. */
export class CopyError extends Error {
  override name = 'CopyError';
}

/** Another process holds the SQLite file's lock (src/db/file-lock.ts). */
export class DatabaseLockedError extends Error {
  override name = 'DatabaseLockedError';
}

export interface BackupResult {
  path: string;
  bytes: number;
  durationMs: number;
}

export interface OpenedDatabase {
  engine: Engine;
  /** The file, or the URL with its password masked: what the logs, health and admin commands name. */
  location: string;
  db: Kysely<Database>;
  /**
   * Runs `fn` in one transaction: BEGIN IMMEDIATE on SQLite (the one write lock up front); on
   * PostgreSQL READ COMMITTED, retried a few times on a serialization failure or deadlock, so `fn`
   * must do nothing but database work (no mail, no hashing) and may run more than once.
   */
  transact<T>(fn: (trx: Transaction<Database>) => Promise<T>): Promise<T>;
  /**
   * Serializes the read-then-write transactions of one account across processes: called first in
   * each of them. A no-op on SQLite (BEGIN IMMEDIATE already holds the only write lock); on
   * PostgreSQL `select … for no key update` of the account's users row.
   */
  lockUser(trx: Transaction<Database>, userId: number): Promise<void>;
  bestEffort: BestEffortWriter;
  /**
   * A lookup by one text key that runs on every request (the session of a bearer token). `build`
   * gets the engine's condition on the key column, and selects that column as `lookup_key`; its
   * query is compiled on first use (after the migrations have run). SQLite runs it as a prepared
   * statement, synchronously; while a transaction of another request is open on the one connection,
   * through Kysely after it (a read then would run inside it and see its uncommitted writes), so it
   * is never called inside a transaction of its own caller (it would wait for itself). PostgreSQL
   * gathers the keys asked for in one turn of the event loop and answers them with one named
   * statement (`= any($1)`): one round trip for all of them instead of one each, and each key is
   * still read after it was asked for (docs/database.md). `fromValues` builds the row from its values
   * in select order, by index (SQLite reads the row as an array).
   */
  prepareLookup<R extends { lookup_key: string }>(build: (keyIs: KeyCondition) => CompiledQuery<R>, fromValues: RowOfValues<R>): KeyedLookup<R>;
  /**
   * A read of the rows of one id that runs on every request (the teams of `/me`). `build` compiles
   * the statement with the id as its one parameter (on first use, after the migrations have run).
   * SQLite runs it as a prepared statement whose rows `fromValues` builds, as prepareLookup's (and
   * as that one, never inside a transaction of its caller); PostgreSQL as a named statement. Neither goes through Kysely's executor (a connection, a mutex
   * and several promise turns each time: docs/performance.md, "Deliberate optimisations").
   */
  prepareRowsById<R>(build: () => CompiledQuery<R>, fromValues: RowOfValues<R>): RowsById<R>;
  /** Reads the database (its schema, under a read transaction); throws when it cannot. */
  probe(): Promise<void>;
  /** 'ok', or the problems found: SQLite's quick_check; on PostgreSQL a read of every table. */
  quickCheck(): Promise<string>;
  /** A consistent copy while the server runs: SQLite's backup API; on PostgreSQL pg_dump. */
  backup(destination: string): Promise<BackupResult>;
  /**
   * Runs `fn` unless another process runs the job of this name right now (then undefined): a
   * PostgreSQL advisory lock; on SQLite `fn` always runs (one server per file).
   */
  exclusively<T>(job: string, fn: () => Promise<T>): Promise<T | undefined>;
  /** The database folder lets its group or others in (SQLite; false on PostgreSQL). */
  folderAccessibleToOthers: boolean;
  close(): Promise<void>;
}

const SQLITE_UNAVAILABLE = /^SQLITE_(BUSY|LOCKED|FULL|READONLY|IOERR|CANTOPEN|PROTOCOL|NOLFS)/;
const SQLITE_BUSY = /^SQLITE_(BUSY|LOCKED)/;
/**
 * PostgreSQL SQLSTATEs of an outage: connection exceptions (08), insufficient resources (53), the
 * server shutting down or starting (57P01-57P03), system errors (58), a read-only standby (25006).
 */
const PG_UNAVAILABLE = /^(08...|53...|57P0[1-3]|58...|25006)$/;
/** lock_not_available (lock_timeout passed), query_canceled (statement_timeout passed). */
const PG_BUSY = /^(55P03|57014)$/;
/** serialization_failure, deadlock_detected: the transaction may simply be run again. */
const PG_RETRY = /^(40001|40P01)$/;
/** Errors of the socket or the pool rather than of a query. */
const NETWORK_CODES = /^(ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|ENOTFOUND|EAI_AGAIN|EHOSTUNREACH|ENETUNREACH)$/;
const PG_CLIENT_MESSAGES = /Connection terminated|connection timeout|not queryable|Client was closed|Connection ended|server closed the connection/i;
const POOL_WAIT = /timeout exceeded when trying to connect/i;

function codeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : '';
}

/** The pool waited too long for a free connection: every connection is busy. */
function isPoolWait(error: unknown): boolean {
  return codeOf(error) === '' && POOL_WAIT.test(messageOf(error));
}

/** The database cannot serve now (down, restarting, busy, full, read-only, failing): an outage, not a bug. */
export function isDatabaseUnavailable(error: unknown): boolean {
  const code = codeOf(error);
  if (SQLITE_UNAVAILABLE.test(code) || PG_UNAVAILABLE.test(code) || PG_BUSY.test(code) || NETWORK_CODES.test(code)) return true;
  return code === '' && (PG_CLIENT_MESSAGES.test(messageOf(error)) || isPoolWait(error));
}

/**
 * The server cannot be reached or is going down or starting (PostgreSQL): unlike a full disk, a
 * probe of health sees this by itself, and it ends when the server is back.
 */
export function isDatabaseUnreachable(error: unknown): boolean {
  const code = codeOf(error);
  return NETWORK_CODES.test(code) || /^(08...|57P0[1-3])$/.test(code) || (code === '' && PG_CLIENT_MESSAGES.test(messageOf(error)));
}

/** Another writer held what this one needed past the wait limit: a wait, not a broken database. */
export function isDatabaseBusy(error: unknown): boolean {
  const code = codeOf(error);
  return SQLITE_BUSY.test(code) || PG_BUSY.test(code) || isPoolWait(error);
}

/** The file or its folder cannot be written by this process (owner, mode, read-only mount). SQLite only. */
export function isDatabaseReadOnly(error: unknown): boolean {
  return /^SQLITE_(READONLY|PERM|CANTOPEN)/.test(codeOf(error));
}

/**
 * PostgreSQL refused a text value it cannot store (a NUL character: `22021`, or one its encoding
 * lacks: `22P05`). SQLite stores such text; the client sent something no field allows.
 */
export function isUnstorableText(error: unknown): boolean {
  return /^(22021|22P05)$/.test(codeOf(error));
}

/** A PostgreSQL transaction that lost a race and may be run again as it is. */
export function isRetryableTransactionError(error: unknown): boolean {
  return PG_RETRY.test(codeOf(error));
}

/** The rules the schema states as unique indexes or constraints, by the names the services know. */
export type StoredRule = 'email' | 'username' | 'absence_day' | 'running_entry' | 'entry_overlap' | 'schedule_day' | 'team_name';

/** PostgreSQL constraint and index names (migrations), and SQLite's "UNIQUE constraint failed: …" subjects. */
const RULES: Record<StoredRule, { postgres: string; sqlite: string[] }> = {
  email: { postgres: 'users_email_unique', sqlite: ['users.email'] },
  username: { postgres: 'users_username_lower_unique', sqlite: ['users.username', "index 'users_username_lower_unique'"] },
  absence_day: { postgres: 'absences_one_per_user_and_day', sqlite: ['absences.user_id, absences.date'] },
  running_entry: { postgres: 'time_entries_one_running_per_user', sqlite: ['time_entries.user_id'] },
  entry_overlap: { postgres: 'time_entries_no_overlap', sqlite: [] },
  schedule_day: { postgres: 'target_schedules_one_per_day', sqlite: ['target_schedules.user_id, target_schedules.valid_from'] },
  team_name: { postgres: 'teams_name_key_unique', sqlite: ['teams.name_key'] },
};

/** Which of the stored rules a failed write broke (a unique or exclusion violation), if any. */
export function violatedRule(error: unknown): StoredRule | undefined {
  const code = codeOf(error);
  if (code === '23505' || code === '23P01') {
    const constraint = (error as { constraint?: unknown }).constraint;
    return (Object.keys(RULES) as StoredRule[]).find((rule) => RULES[rule].postgres === constraint);
  }
  if (code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY') {
    const subject = /constraint failed: (.*)$/.exec(messageOf(error))?.[1]?.trim();
    return (Object.keys(RULES) as StoredRule[]).find((rule) => subject !== undefined && RULES[rule].sqlite.includes(subject));
  }
  return undefined;
}

/** A PostgreSQL URL with its password replaced by "****" (for logs, `config`, health). */
export function maskDatabaseUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '****';
    return parsed.toString();
  } catch {
    return 'postgres://(unparsable URL)';
  }
}

export interface OpenOptions {
  /** Errors of idle pooled connections (the server went away between queries): logged, never thrown. */
  onBackgroundError?: (error: unknown) => void;
}

/** What a domain service that writes needs of the port. */
export type TransactionalDatabase = Pick<OpenedDatabase, 'db' | 'transact' | 'lockUser'>;
