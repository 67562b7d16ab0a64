// Which engine the suite runs on. By default every test uses SQLite files in temp folders. With
// TIMETRACK_TEST_DATABASE_URL set (a PostgreSQL server whose role may create databases; `.ci/run`
// starts a throwaway cluster for it), the same tests run on PostgreSQL: every SQLite path a test
// uses stands for a database of its own, created on first use and named after the path, so tests
// that pass `--db <file>` to the binary act on that path's PostgreSQL database instead.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';

export const TEST_DATABASE_URL = process.env.TIMETRACK_TEST_DATABASE_URL?.trim() || undefined;
export const onPostgres = TEST_DATABASE_URL !== undefined;

/** Why a test that needs PostgreSQL did not run. */
export const POSTGRES_SKIP_REASON = 'PostgreSQL tests skipped: TIMETRACK_TEST_DATABASE_URL is not set (.ci/run starts a throwaway server; see README, Test)';

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
  const result = spawnSync('psql', ['--no-psqlrc', '--quiet', '--tuples-only', '--no-align', '--set', 'ON_ERROR_STOP=1', '--dbname', url, '--command', statement], { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`psql failed (${statement}): ${result.stderr || result.error?.message}`);
  return result.stdout.trim();
}

/** A new, empty database on the test server; its URL. */
export function createPostgresDatabase(label = 'tt'): string {
  const name = `${label}_${process.pid}_${createHash('sha256').update(`${Math.random()}${Date.now()}`).digest('hex').slice(0, 10)}`;
  psql(`create database ${name}`);
  return postgresUrlFor(name);
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

/** The settings that point a process at the database of `dbPath`: the file, or its PostgreSQL database. */
export function databaseEnv(dbPath: string): Record<string, string> {
  return onPostgres ? { DATABASE_URL: postgresDatabaseFor(dbPath), JWT_SECRET: TEST_JWT_SECRET } : { TIMETRACK_DB: dbPath };
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
  return { args: translatedArgs, env: translatedEnv };
}
