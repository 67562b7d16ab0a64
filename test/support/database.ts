// Which engine the suite runs on. By default every test uses SQLite files in temp folders. With
// TIMETRACK_TEST_DATABASE_URL set (a PostgreSQL server whose role may create databases; `.ci/run`
// starts a throwaway cluster for it), the same tests run on PostgreSQL: every SQLite path a test
// uses stands for a database of its own, created on first use and named after the path, so tests
// that pass `--db <file>` to the binary act on that path's PostgreSQL database instead.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export const TEST_DATABASE_URL = process.env.TIMETRACK_TEST_DATABASE_URL?.trim() || undefined;
export const onPostgres = TEST_DATABASE_URL !== undefined;

/** Why a test that needs PostgreSQL did not run. */
export const POSTGRES_SKIP_REASON = 'PostgreSQL tests skipped: TIMETRACK_TEST_DATABASE_URL is not set (.ci/run starts a throwaway server; see docs/testing.md)';

/** A fixed secret: on PostgreSQL every process needs JWT_SECRET, and all of a test's processes share it. */
export const TEST_JWT_SECRET = 'test-secret-0123456789-abcdefghijklmnopqrstuvwxyz';

const databases = new Map<string, string>();

/** The URL of a database `name` on the test server. */
export function postgresUrlFor(name: string): string {
  const url = new URL(TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  return url.toString();
}

/** Runs SQL on the test server's own database with psql (synchronous: the CLI helpers are). */
export function psql(statement: string, url = TEST_DATABASE_URL!): string {
  const result = spawnSync(
    'psql',
    ['--no-psqlrc', '--quiet', '--tuples-only', '--no-align', '--set', 'ON_ERROR_STOP=1', '--dbname', url, '--command', statement],
    { encoding: 'utf8' },
  );
  if (result.status !== 0) throw new Error(`psql failed (${statement}): ${result.stderr || result.error?.message}`);
  return result.stdout.trim();
}

/** Every database this process made: dropped when it exits, so a developer's own server does not fill up. */
const created: string[] = [];
let dropOnExit = false;

function uniqueName(label: string): string {
  const name = `${label}_${process.pid}_${createHash('sha256').update(`${Math.random()}${Date.now()}`).digest('hex').slice(0, 10)}`;
  created.push(name);
  if (!dropOnExit) {
    dropOnExit = true;
    process.once('exit', () => {
      // Synchronous (an exit handler cannot wait); one command per database, outside any transaction.
      for (let first = 0; first < created.length; first += 50) {
        const commands = created.slice(first, first + 50).flatMap((db) => ['--command', `drop database if exists ${db} with (force)`]);
        spawnSync('psql', ['--no-psqlrc', '--quiet', '--dbname', TEST_DATABASE_URL!, ...commands], { stdio: 'ignore' });
      }
    });
  }
  return name;
}

/** A new, empty database on the test server; its URL. */
export function createPostgresDatabase(label = 'tt'): string {
  const name = uniqueName(label);
  psql(`create database ${name}`);
  return postgresUrlFor(name);
}

let migratedTemplate: Promise<string> | undefined;

/**
 * A new database with every migration applied, copied from a template migrated once per process
 * (CREATE DATABASE … TEMPLATE): test apps start in milliseconds instead of migrating each time.
 * Tests of the migrations themselves use createPostgresDatabase or postgresDatabaseFor.
 */
export async function createMigratedPostgresDatabase(): Promise<string> {
  migratedTemplate ??= (async () => {
    const name = uniqueName('tt_template');
    psql(`create database ${name}`);
    const { openPostgresDatabase } = await import('../../src/db/postgres.js');
    const { migrateToLatest } = await import('../../src/db/migrate.js');
    const database = openPostgresDatabase(postgresUrlFor(name), { max: 2, connectTimeoutMs: 10_000, statementTimeoutMs: 60_000, lockTimeoutMs: 10_000 });
    try {
      await migrateToLatest(database.db);
    } finally {
      await database.close();
    }
    return name;
  })();
  const template = await migratedTemplate;
  const name = uniqueName('tt');
  psql(`create database ${name} template ${template}`);
  return postgresUrlFor(name);
}

let migratedSqliteTemplate: Promise<string> | undefined;

/**
 * Puts a SQLite file with every migration applied at `dbPath` (which must not exist yet): a copy of a
 * template file migrated once per process, as PostgreSQL test apps copy a template database. The
 * template is checkpointed and closed before the first copy, so it is whole without its -wal and
 * -shm files. Tests of the migrations themselves start from an empty or an old file instead.
 */
export async function createMigratedSqliteDatabase(dbPath: string): Promise<void> {
  migratedSqliteTemplate ??= (async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'timetrack-template-'));
    process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
    const file = path.join(dir, 'template.db');
    const { openSqliteDatabase } = await import('../../src/db/sqlite.js');
    const { migrateToLatest } = await import('../../src/db/migrate.js');
    const database = openSqliteDatabase(file);
    try {
      await migrateToLatest(database.db);
      database.sqlite.pragma('wal_checkpoint(TRUNCATE)');
    } finally {
      await database.close();
    }
    for (const side of [`${file}-wal`, `${file}-shm`]) if (fs.existsSync(side)) throw new Error(`the SQLite template kept ${side} after closing`);
    return file;
  })();
  fs.copyFileSync(await migratedSqliteTemplate, dbPath, fs.constants.COPYFILE_EXCL);
}

/** The PostgreSQL database that stands for the SQLite file `dbPath` in this run (made on first use). */
export function postgresDatabaseFor(dbPath: string): string {
  const key = path.resolve(dbPath);
  let url = databases.get(key);
  if (url === undefined) {
    url = createPostgresDatabase();
    databases.set(key, url);
  }
  return url;
}

/** Makes `url` the database that stands for the SQLite file `dbPath` (a test app's, for the CLI runs beside it). */
export function bindPostgresDatabase(dbPath: string, url: string): void {
  databases.set(path.resolve(dbPath), url);
}

/** The settings that point a process at the database of `dbPath`: the file, or its PostgreSQL database. */
function databaseEnv(dbPath: string): Record<string, string> {
  return onPostgres ? { DATABASE_URL: postgresDatabaseFor(dbPath) } : { TIMETRACK_DB: dbPath };
}

/**
 * Command-line arguments and settings of a test as the engine needs them: on PostgreSQL `--db <file>`
 * and TIMETRACK_DB become the database that stands for that file. Unchanged on SQLite.
 */
export function forEngine(args: string[], env: Record<string, string>): { args: string[]; env: Record<string, string> } {
  if (!onPostgres) return { args, env };
  const translatedArgs: string[] = [];
  const translatedEnv: Record<string, string> = { ...env };
  for (let index = 0; index < args.length; index += 1) {
    const arg = args[index]!;
    if (arg === '--db' && index + 1 < args.length) {
      Object.assign(translatedEnv, databaseEnv(args[index + 1]!));
      index += 1;
    } else if (arg.startsWith('--db=')) {
      Object.assign(translatedEnv, databaseEnv(arg.slice('--db='.length)));
    } else {
      translatedArgs.push(arg);
    }
  }
  if (translatedEnv.TIMETRACK_DB !== undefined) {
    Object.assign(translatedEnv, databaseEnv(translatedEnv.TIMETRACK_DB));
    delete translatedEnv.TIMETRACK_DB;
  }
  // A test that sets its own JWT_SECRET (a bad one, on purpose), or reads settings from an env file
  // (which may hold one), keeps it.
  const envFile = args[args.indexOf('--env-file') + 1];
  const fileHasSecret =
    args.includes('--env-file') && envFile !== undefined && fs.existsSync(envFile) && /^JWT_SECRET=\S/m.test(fs.readFileSync(envFile, 'utf8'));
  if (!fileHasSecret) translatedEnv.JWT_SECRET ??= TEST_JWT_SECRET;
  return { args: translatedArgs, env: translatedEnv };
}

/** The line an admin command ends its text output with: the file, or the URL with its password masked. */
export function databaseLine(dbPath: string): string {
  if (!onPostgres) return `database: ${dbPath}`;
  const url = new URL(postgresDatabaseFor(dbPath));
  if (url.password) url.password = '****';
  return `database: ${url.toString()}`;
}

/**
 * Runs one statement on the database of `dbPath` (either engine) and answers its rows: for tests that
 * look at or plant rows behind the application's back. `?` placeholders, as in SQLite.
 */
export async function queryRows<T = Record<string, unknown>>(dbPath: string, sqlText: string, params: unknown[] = []): Promise<T[]> {
  if (!onPostgres) {
    const { default: SQLite } = await import('better-sqlite3');
    const sqlite = new SQLite(dbPath, { fileMustExist: true });
    try {
      const statement = sqlite.prepare(sqlText);
      return statement.reader ? (statement.all(...params) as T[]) : (statement.run(...params), []);
    } finally {
      sqlite.close();
    }
  }
  const { default: pg } = await import('pg');
  const { isoInstant } = await import('../../src/db/postgres.js');
  let index = 0;
  const client = new pg.Client({
    connectionString: postgresDatabaseFor(dbPath),
    options: '-c TimeZone=UTC',
    types: {
      getTypeParser: (oid: number, format?: 'text' | 'binary') =>
        (oid === 20 ? Number : oid === 1184 ? isoInstant : oid === 1082 ? (text: string) => text : pg.types.getTypeParser(oid, format)) as never,
    },
  });
  await client.connect();
  try {
    return (
      await client.query(
        sqlText.replace(/\?/g, () => `$${(index += 1)}`),
        params,
      )
    ).rows as T[];
  } finally {
    await client.end();
  }
}

/** The application's tables in the database of `dbPath`. */
export async function tableNames(dbPath: string): Promise<string[]> {
  const rows = await queryRows<{ name: string }>(
    dbPath,
    onPostgres
      ? "select table_name as name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'"
      : "select name from sqlite_master where type = 'table' and name not like 'sqlite_%'",
  );
  return rows.map((row) => row.name).sort();
}

/**
 * A shell command line run through `script` (a terminal) as the engine needs it: on PostgreSQL its
 * `--db <file>` becomes the settings of that file's database.
 */
export function forEngineCommand(command: string, env: Record<string, string> = {}): { command: string; env: Record<string, string> } {
  if (!onPostgres) return { command, env };
  const match = /'?--db'?\s+'?([^\s']+)'?/.exec(command);
  if (!match) return { command, env };
  const translated = forEngine(['--db', match[1]!], env);
  return { command: command.replace(match[0], ''), env: translated.env };
}

/** The env-file lines that point at the database of `dbPath`. */
export function databaseSettingLines(dbPath: string): string[] {
  return onPostgres ? [`DATABASE_URL=${postgresDatabaseFor(dbPath)}`, `JWT_SECRET=${TEST_JWT_SECRET}`] : [`TIMETRACK_DB=${dbPath}`];
}

/**
 * The tables whose rows belong to no one account (users itself aside): failed sign-ins of unknown names,
 * the serve processes (PostgreSQL), teams and invitations (team_members does belong), the first admin's
 * setup links. Deleting or closing an account leaves every other table without a row of it.
 */
export const TABLES_OF_NO_ACCOUNT = ['unknown_login_failures', 'server_processes', 'teams', 'invitations', 'admin_setup_links'];
