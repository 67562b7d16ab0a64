// The database settings: TIMETRACK_DB (or --db) names a SQLite file, DATABASE_URL (or --database-url)
// a PostgreSQL database, with the DATABASE_* settings of its pool.
import path from 'node:path';
import { databaseInFile, databaseOnServer, type DatabaseTarget, type PostgresPoolSettings } from '../db/database.js';
import { ConfigError, durationSetting, fail, integerSetting, valueOf, type Env } from './parse.js';

export interface ConfigOverrides {
  dev?: boolean;
  host?: string;
  port?: number;
  dbPath?: string;
  databaseUrl?: string;
}

/** A PostgreSQL URL: postgres:// or postgresql://, with a host and a database name. */
export function parsePostgresUrl(raw: string, name: string): string {
  const value = raw.trim();
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    fail(name, 'is not a URL (postgres://user:password@host:5432/database)');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') fail(name, `must start with postgres:// (got ${url.protocol}//)`);
  if (!url.hostname && !url.searchParams.get('host')) fail(name, 'names no host (postgres://user:password@host:5432/database)');
  if (url.pathname.replace(/^\//, '') === '') fail(name, 'names no database (postgres://user:password@host:5432/database)');
  return value;
}

/**
 * The SQLite file when neither TIMETRACK_DB nor --db names one: `timetrack.db` in the service's state
 * directory under systemd (STATE_DIRECTORY, which the unit's StateDirectory= sets: where 0.1.0's unit
 * kept it), else ./data/timetrack.db under the working directory.
 */
function defaultDatabasePath(env: Env): string {
  // Set by systemd, not a setting of timetrack's own.
  const stateDirectory = env.STATE_DIRECTORY?.split(':')[0]?.trim();
  return stateDirectory ? path.join(stateDirectory, 'timetrack.db') : path.resolve('./data/timetrack.db');
}

/** Whether the SQLite file was named (TIMETRACK_DB or --db) rather than taken by default. */
export function databaseFileNamed(env: Env, overrides: ConfigOverrides): boolean {
  return overrides.dbPath !== undefined || valueOf(env, 'TIMETRACK_DB') !== undefined;
}

/**
 * TIMETRACK_DB (or --db) names a SQLite file, DATABASE_URL (or --database-url) a PostgreSQL
 * database; both at once is refused, since either could be the one meant.
 */
export function parseDatabase(env: Env, overrides: ConfigOverrides): DatabaseTarget {
  const file = overrides.dbPath ?? valueOf(env, 'TIMETRACK_DB')?.trim();
  const urlSource = overrides.databaseUrl !== undefined ? '--database-url' : 'DATABASE_URL';
  const url = overrides.databaseUrl ?? valueOf(env, 'DATABASE_URL');
  if (file !== undefined && url !== undefined) {
    const fileSource = overrides.dbPath !== undefined ? '--db' : 'TIMETRACK_DB';
    fail(urlSource, `and ${fileSource} are both set: ${fileSource} names a SQLite file, ${urlSource} a PostgreSQL database; keep the one you mean`);
  }
  if (url === undefined) return databaseInFile(path.resolve(file ?? defaultDatabasePath(env)));
  return databaseOnServer(parsePostgresUrl(url, urlSource), postgresPoolSettings(env));
}

/** DATABASE_POOL_SIZE and the DATABASE_*_TIMEOUT settings (all bad ones in one ConfigError). */
export function postgresPoolSettings(env: Env): PostgresPoolSettings {
  const problems: string[] = [];
  const read = <T>(setting: () => T): T => {
    try {
      return setting();
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(error.message);
      return undefined as T;
    }
  };
  const pool: PostgresPoolSettings = {
    // At least 2: a job run `exclusively` holds one connection for its advisory lock while it works on another.
    max: read(() => integerSetting(env, 'DATABASE_POOL_SIZE')),
    connectTimeoutMs: read(() => durationSetting(env, 'DATABASE_CONNECT_TIMEOUT')) * 1000,
    statementTimeoutMs: read(() => durationSetting(env, 'DATABASE_STATEMENT_TIMEOUT')) * 1000,
    lockTimeoutMs: read(() => durationSetting(env, 'DATABASE_LOCK_TIMEOUT')) * 1000,
  };
  if (problems.length > 0) throw new ConfigError(problems.join('; '));
  return pool;
}
