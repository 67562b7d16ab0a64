// Opens the SQLite file the way every process of timetrack shares it: WAL so that readers and one
// writer run side by side (serve and admin commands at once), a busy timeout so that a writer waits for
// another instead of failing, synchronous=FULL so that an acknowledged write (a revoked session
// above all) survives a power loss, and foreign keys so that deleting a user deletes what is its own.
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  CompiledQuery,
  Kysely,
  sql,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type SqliteDatabase,
  type SqliteDialectConfig,
} from 'kysely';
import type { BestEffortWriter, KeyCondition, KeyedLookup, OpenedDatabase, RowOfValues, RowsById } from './database.js';
import { backupDatabase, quickCheck, type SqliteHandle } from './sqlite-backup.js';
import type { Database } from './types.js';

export const BUSY_TIMEOUT_MS = 5000;

export interface OpenedSqliteDatabase extends OpenedDatabase {
  engine: 'sqlite';
  /** The raw handle, for this folder and tests that inspect or break the file. */
  sqlite: SqliteHandle;
}

/**
 * Creates the folder (0700) and the file (0600) before SQLite does, so neither is ever world-readable,
 * and narrows the file and its -wal/-shm to 0600 when they are wider (a restore from a backup, a copy).
 * Returns whether the folder lets its group or others in (worth a warning: they could read a
 * -wal that SQLite creates later, or replace the files).
 */
export function prepareDatabaseFile(dbPath: string): { folderAccessibleToOthers: boolean } {
  const dir = path.dirname(dbPath);
  if (!fs.existsSync(dir)) fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const fd = fs.openSync(dbPath, fs.constants.O_CREAT | fs.constants.O_RDWR, 0o600);
  fs.closeSync(fd);
  for (const file of [dbPath, `${dbPath}-wal`, `${dbPath}-shm`]) {
    const stat = fs.statSync(file, { throwIfNoEntry: false });
    if (stat && (stat.mode & 0o077) !== 0) fs.chmodSync(file, 0o600);
  }
  return { folderAccessibleToOthers: (fs.statSync(dir).mode & 0o077) !== 0 };
}

/**
 * Every transaction starts with BEGIN IMMEDIATE: the write lock is taken up front, so a
 * read-then-write cannot interleave with another process's write, and a second writer waits for the
 * busy timeout instead of failing with SQLITE_BUSY when a deferred transaction tries to upgrade.
 * Kysely's SQLite driver has one connection: never await slow work (argon2, mail) inside a transaction.
 */
class ImmediateTransactionSqliteDriver extends SqliteDriver {
  readonly #sqlite: SQLite.Database;
  constructor(config: SqliteDialectConfig, sqlite: SQLite.Database) {
    super(config);
    this.#sqlite = sqlite;
  }
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
  /**
   * SQLite ends a transaction by itself on some errors (a full disk, an I/O error, a failed COMMIT).
   * A ROLLBACK then fails with "cannot rollback - no transaction is active", and that error would
   * replace the one that says what happened: roll back only a transaction that is still open.
   */
  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (this.#sqlite.inTransaction) await super.rollbackTransaction(connection);
  }
}

class ImmediateTransactionSqliteDialect extends SqliteDialect {
  readonly #config: SqliteDialectConfig;
  readonly #sqlite: SQLite.Database;
  constructor(config: SqliteDialectConfig, sqlite: SQLite.Database) {
    super(config);
    this.#config = config;
    this.#sqlite = sqlite;
  }
  override createDriver(): Driver {
    return new ImmediateTransactionSqliteDriver(this.#config, this.#sqlite);
  }
}

/**
 * Runs writes that may be lost on a power loss (never on a crash) without waiting for the disk:
 * synchronous=NORMAL for their commit only. Used for the frequent, low-value writes of sign-in (a
 * new session, a failed-attempt count), so that a login flood does not stall every request on
 * fsync. Every other write keeps synchronous=FULL, and the next one also makes these durable (the
 * WAL is synced as a whole). The pragma is switched while holding Kysely's single connection, so no
 * other query runs in between: `fn` must use the executor it is given, never the outer `db`.
 */
function createBestEffortWriter(db: Kysely<Database>, sqlite: SQLite.Database): BestEffortWriter {
  return (fn) =>
    db.connection().execute(async (connection) => {
      sqlite.pragma('synchronous = NORMAL');
      try {
        return await fn(connection);
      } finally {
        sqlite.pragma('synchronous = FULL');
      }
    });
}

/** Enough for every query shape of the application; a few KiB each. */
const STATEMENT_CACHE_SIZE = 200;

/** A statement that may change the schema: the cached statements were prepared against the old one. */
const SCHEMA_CHANGE = /^\s*(create|alter|drop)\b/i;

export interface CachingSqliteDatabase extends SqliteDatabase {
  readonly cachedStatements: number;
}

/**
 * What Kysely prepares its statements with: the last STATEMENT_CACHE_SIZE prepared statements, by
 * their SQL (Kysely's SQLite driver would prepare every statement anew, which costs more than running
 * most of the queries here). A schema change (migrations) empties the cache, and a statement still
 * being iterated is never handed out twice.
 */
export function cachePreparedStatements(sqlite: SQLite.Database, capacity = STATEMENT_CACHE_SIZE): CachingSqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    get cachedStatements() {
      return statements.size;
    },
    close: () => sqlite.close(),
    prepare(sqlText: string) {
      const cached = statements.get(sqlText);
      if (cached && !cached.busy) {
        // Most recently used last, so that the first entry is the one to evict.
        statements.delete(sqlText);
        statements.set(sqlText, cached);
        return cached;
      }
      // Checked on a miss only: a schema change is never cached, so a hit never is one.
      if (SCHEMA_CHANGE.test(sqlText)) {
        statements.clear();
        return sqlite.prepare(sqlText);
      }
      const statement = sqlite.prepare(sqlText);
      if (!cached) {
        statements.set(sqlText, statement);
        if (statements.size > capacity) statements.delete(statements.keys().next().value!);
      }
      return statement;
    },
  };
}

/**
 * A prepared statement of one parameter whose rows are built by object literals. better-sqlite3
 * builds a row object key by key through V8's API (a string-table lookup and a hidden-class step per
 * column); these reads run on every authenticated request, so they ask for the rows' values as arrays
 * and the mapper written beside the query (`fromValues`) makes each object in one allocation of a
 * known shape: about 5 µs less a lookup with a server's cold caches
 * (docs/decisions/0002-sqlite-row-lookup.md). The mapper is checked once against the statement's
 * columns. While a transaction is open on the connection (Kysely's one connection, whose transactions
 * await between their statements and may yield to the event loop), a read here would run inside it
 * and see writes that may still roll back (a session revoked, then not): it then goes through Kysely,
 * which answers it after that transaction has ended.
 */
function directStatement<R>(
  db: Kysely<Database>,
  sqlite: SQLite.Database,
  compiled: CompiledQuery<R>,
  fromValues: RowOfValues<R>,
): { first: (parameter: unknown) => R | undefined | Promise<R | undefined>; all: (parameter: unknown) => Promise<R[]> } {
  if (compiled.parameters.length !== 1) throw new Error('a direct statement has exactly one parameter');
  const statement = sqlite.prepare<[unknown], unknown[]>(compiled.sql).raw();
  assertMapperMatches(
    statement.columns().map((column) => column.name),
    fromValues,
  );
  const throughKysely = (parameter: unknown) => db.executeQuery<R>({ ...compiled, parameters: [parameter] }).then((result) => result.rows);
  return {
    first(parameter) {
      if (sqlite.inTransaction) return throughKysely(parameter).then((rows) => rows[0]);
      const values = statement.get(parameter);
      return values === undefined ? undefined : fromValues(values);
    },
    all(parameter) {
      if (sqlite.inTransaction) return throughKysely(parameter);
      return Promise.resolve(statement.all(parameter).map(fromValues));
    },
  };
}

/**
 * A mapper that reads the values by index must give, for the values 0, 1, 2…, the object
 * better-sqlite3 would build from the column names (a repeated name keeps its first place and its
 * last value): a query and its mapper that went out of step fail at the first lookup, not silently.
 */
function assertMapperMatches<R>(names: string[], fromValues: RowOfValues<R>): void {
  const expected: Record<string, number> = {};
  names.forEach((name, index) => {
    expected[name] = index;
  });
  const built = fromValues(names.map((_, index) => index)) as Record<string, unknown>;
  const same = Object.keys(built).join('\0') === Object.keys(expected).join('\0') && Object.keys(expected).every((name) => built[name] === expected[name]);
  if (!same) throw new Error(`a lookup's row mapper does not match its query's columns (${names.join(', ')})`);
}

export function openSqliteDatabase(dbPath: string): OpenedSqliteDatabase {
  const { folderAccessibleToOthers } = prepareDatabaseFile(dbPath);
  const sqlite = new SQLite(dbPath, { timeout: BUSY_TIMEOUT_MS });
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = FULL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
  const db = new Kysely<Database>({ dialect: new ImmediateTransactionSqliteDialect({ database: cachePreparedStatements(sqlite) }, sqlite) });
  return {
    engine: 'sqlite',
    location: dbPath,
    db,
    folderAccessibleToOthers,
    sqlite,
    // BEGIN IMMEDIATE holds the only write lock of the file: nothing to retry, nothing more to lock.
    transact: (fn) => db.transaction().execute(fn),
    lockUser: async () => {},
    bestEffort: createBestEffortWriter(db, sqlite),
    quickCheck: () => quickCheck(sqlite),
    backup: (destination) => backupDatabase(sqlite, destination),
    exclusively: (_job, fn) => fn(),
    close: () => db.destroy(),
    prepareLookup<R extends { lookup_key: string }>(build: (keyIs: KeyCondition) => CompiledQuery<R>, fromValues: RowOfValues<R>): KeyedLookup<R> {
      // In process and synchronous: nothing to gain from gathering keys.
      let statement: ReturnType<typeof directStatement<R>> | undefined;
      return (key) =>
        (statement ??= directStatement(
          db,
          sqlite,
          build((column) => sql<boolean>`${column} = ${''}`),
          fromValues,
        )).first(key);
    },
    prepareRowsById<R>(build: () => CompiledQuery<R>, fromValues: RowOfValues<R>): RowsById<R> {
      let statement: ReturnType<typeof directStatement<R>> | undefined;
      return (id) => (statement ??= directStatement(db, sqlite, build(), fromValues)).all(id);
    },
    async probe() {
      // `select 1` is answered by the SQLite library alone and would say "ok" for a file that cannot be read.
      await sql`pragma schema_version`.execute(db);
    },
  };
}
