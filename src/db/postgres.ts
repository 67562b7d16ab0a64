// PostgreSQL behind the port of src/db/database.ts: Kysely's PostgreSQL dialect on a `pg` pool, so
// that any number of `serve` processes (on one machine or several) share one database. The schema is
// PostgreSQL's own (timestamptz, date, an exclusion constraint: migrations/), and the type parsers
// below turn its values back into exactly the strings the API answers on SQLite: instants as
// `2026-11-22T08:00:00.000Z`, days as `2026-11-22`, counts and sums as numbers.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import path from 'node:path';
import { Kysely, PostgresDialect, sql, type Transaction } from 'kysely';
import pg from 'pg';
import {
  BackupError,
  isRetryableTransactionError,
  maskDatabaseUrl,
  type BackupResult,
  type OpenedDatabase,
  type OpenOptions,
  type PostgresPoolSettings,
} from './database.js';
import { createBackupFile, installBackupFile, removeBackupFile } from './backup-file.js';
import { gatheredLookup, namedRowsById } from './postgres-reads.js';
import { TABLES } from './tables.js';
import type { Database } from './types.js';

const TIMESTAMPTZ_OID = 1184;
const DATE_OID = 1082;
const [INT8_OID, NUMERIC_OID] = [20, 1700];

/** At most this many statement texts of a process become named (prepared) statements; others run unnamed. */
const NAMED_STATEMENT_LIMIT = 500;

/** How often a transaction that lost a serialization race or a deadlock is tried in all. */
const TRANSACTION_ATTEMPTS = 4;

/** An instant as PostgreSQL writes it (TimeZone=UTC: `2026-11-22 08:00:00.123+00`) in the API's form. */
export function isoInstant(text: string): string {
  const match = /^(\d{4}-\d\d-\d\d) (\d\d:\d\d:\d\d)(?:\.(\d+))?\+00$/.exec(text);
  if (match) return `${match[1]}T${match[2]}.${(match[3] ?? '').padEnd(3, '0').slice(0, 3)}Z`;
  // Another session time zone (set by hand): the offset as ±hh or ±hh:mm.
  return new Date(text.replace(' ', 'T').replace(/([+-]\d\d)$/, '$1:00')).toISOString();
}

const typeParsers = {
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    switch (oid) {
      case TIMESTAMPTZ_OID:
        return isoInstant;
      case DATE_OID:
        return (text: string) => text;
      // Sums and counts: far below 2^53 here (a count of rows, milliseconds of one account).
      case INT8_OID:
      case NUMERIC_OID:
        return (text: string) => Number(text);
      default:
        return pg.types.getTypeParser(oid, format);
    }
  },
};

/** The connection's settings: UTC (so instants parse on the fast path) and the wait limits, after any `options` of the URL. */
function connectionOptions(url: string, settings: PostgresPoolSettings): string {
  const fromUrl = URL.canParse(url) ? (new URL(url).searchParams.get('options') ?? '') : '';
  // A transaction left open by a hung client is ended by the server (its locks freed).
  const idle = `-c idle_in_transaction_session_timeout=${settings.statementTimeoutMs}`;
  return [fromUrl, '-c TimeZone=UTC', `-c statement_timeout=${settings.statementTimeoutMs}`, `-c lock_timeout=${settings.lockTimeoutMs}`, idle]
    .filter(Boolean)
    .join(' ');
}

/** The URL without its password, and the password apart (libpq's PGPASSWORD): never on a command line. */
function splitPassword(url: string): { url: string; password: string | undefined } {
  const parsed = new URL(url);
  const password = parsed.password ? decodeURIComponent(parsed.password) : undefined;
  parsed.password = '';
  return { url: parsed.toString(), password };
}

/** A job name as the two-key advisory lock PostgreSQL takes for it (the first key names timetrack). */
function advisoryKeys(job: string): [number, number] {
  return [0x7417, createHash('sha256').update(job).digest().readInt32BE(0)];
}

/**
 * Runs `pg_dump` into a file created here, exclusively and 0600, under a temporary name, then proves
 * the name reported holds the file written (backup-file.ts); the password goes through the environment.
 */
async function dumpTo(url: string, destination: string): Promise<BackupResult> {
  const target = path.resolve(destination);
  const started = performance.now();
  const file = createBackupFile(target);
  const { fd } = file;
  const { url: withoutPassword, password } = splitPassword(url);
  try {
    await new Promise<void>((resolve, reject) => {
      const child = spawn('pg_dump', ['--format=custom', '--no-owner', '--no-privileges', `--dbname=${withoutPassword}`], {
        stdio: ['ignore', fd, 'pipe'],
        env: { ...process.env, ...(password !== undefined ? { PGPASSWORD: password } : {}) },
      });
      let stderr = '';
      child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
      child.on('error', (error: NodeJS.ErrnoException) =>
        reject(
          error.code === 'ENOENT'
            ? new BackupError(
                `pg_dump is not installed; install PostgreSQL's client programs, or run: pg_dump --format=custom --file ${target} "${withoutPassword}" (docs/operations.md)`,
              )
            : error,
        ),
      );
      child.on('close', (code) =>
        code === 0 ? resolve() : reject(new BackupError(`pg_dump failed (exit ${code}): ${stderr.trim().split('\n').pop() ?? ''}`)),
      );
    });
  } catch (error) {
    removeBackupFile(file);
    throw error;
  }
  const { bytes } = installBackupFile(file);
  return { path: target, bytes, durationMs: Math.round(performance.now() - started) };
}

/**
 * Runs Kysely's statements as named statements, so that PostgreSQL parses and plans each text once
 * per connection instead of on every request (a statistics request sends seven to seventeen small
 * statements; docs/decisions/0005-postgres-named-statements.md). Only reads and writes with an
 * explicit column list: a cached `select *` (count(*) aside) would fail once another process's
 * migration adds a column. A `create`, `alter` or `drop` run here (a migration) starts new names, so
 * no statement prepared before it is used after it.
 */
function nameStatements(pool: pg.Pool): void {
  let names = new Map<string, string>();
  let generation = 0;
  const nameOf = (text: string): string | undefined => {
    if (/^\s*(create|alter|drop)\b/i.test(text)) {
      generation += 1;
      names = new Map();
      return undefined;
    }
    let name = names.get(text);
    if (
      name === undefined &&
      names.size < NAMED_STATEMENT_LIMIT &&
      /^\s*(select|insert|update|delete|with)\b/i.test(text) &&
      !text.replace(/count\(\*\)/gi, '').includes('*')
    ) {
      name = `timetrack_q${generation}_${createHash('sha256').update(text).digest('hex').slice(0, 16)}`;
      names.set(text, name);
    }
    return name;
  };
  pool.on('connect', (client) => {
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    // Kysely calls query(text, values); pg-pool's own query passes a callback as well: kept as it is.
    (client as unknown as { query: unknown }).query = (...args: unknown[]) => {
      const [config, values, callback] = args;
      const name = typeof config === 'string' && Array.isArray(values) ? nameOf(config) : undefined;
      if (name === undefined) return query(...args);
      return callback === undefined ? query({ name, text: config, values }) : query({ name, text: config, values }, callback);
    };
  });
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function openPostgresDatabase(
  url: string,
  settings: PostgresPoolSettings,
  options: OpenOptions = {},
): OpenedDatabase & { engine: 'postgres'; pool: pg.Pool } {
  const pool = new pg.Pool({
    connectionString: url,
    max: settings.max,
    connectionTimeoutMillis: settings.connectTimeoutMs,
    idleTimeoutMillis: 30_000,
    // A hung server (not refusing) fails the query here too; TCP keep-alive notices a dead peer.
    query_timeout: settings.statementTimeoutMs + 5_000,
    keepAlive: true,
    application_name: 'timetrack',
    options: connectionOptions(url, settings),
    types: typeParsers,
  });
  // A pooled connection that the server closes while idle (a restart) emits here; without a
  // listener the process would die. The next query opens a new connection.
  pool.on('error', (error) => options.onBackgroundError?.(error));
  // A connection ended while checked out (a job's advisory lock held while the round runs, a
  // transaction between statements or rolling back, a statement's answer read together with the
  // server's FATAL) emits on its client, where pg-pool does not listen: that would end the process
  // too. The work on it fails with the outage (a 503, a round logged as one); the pool drops it.
  pool.on('connect', (client) => client.on('error', () => undefined));
  nameStatements(pool);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });

  async function transact<T>(fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await db.transaction().execute(fn);
      } catch (error) {
        if (attempt >= TRANSACTION_ATTEMPTS || !isRetryableTransactionError(error)) throw error;
        // Apart again, not in lockstep: a few ms, more each time.
        await sleep(Math.random() * 10 * attempt);
      }
    }
  }

  return {
    engine: 'postgres',
    location: maskDatabaseUrl(url),
    db,
    pool,
    folderAccessibleToOthers: false,
    transact,
    async lockUser(trx, userId) {
      await sql`select id from users where id = ${userId} for no key update`.execute(trx);
    },
    // Commits of different connections do not wait for each other here (group commit): no need to
    // trade durability for speed as on SQLite.
    bestEffort: (fn) => fn(db),
    prepareLookup: (build) => gatheredLookup(pool, build),
    prepareRowsById: (build) => namedRowsById(pool, build),
    async probe() {
      await sql`select 1`.execute(db);
    },
    async quickCheck() {
      // PostgreSQL checks its own pages (checksums, WAL); what can be wrong from here is the schema
      // or the privileges: every table of the application is read.
      for (const table of TABLES)
        await db
          .selectFrom(table)
          .select(sql`1`.as('one'))
          .limit(1)
          .execute();
      return 'ok';
    },
    backup: (destination) => dumpTo(url, destination),
    async exclusively(job, fn) {
      const [classKey, jobKey] = advisoryKeys(job);
      return db.connection().execute(async (connection) => {
        const { rows } = await sql<{ locked: boolean }>`select pg_try_advisory_lock(${classKey}, ${jobKey}) as locked`.execute(connection);
        if (!rows[0]?.locked) return undefined;
        try {
          return await fn();
        } finally {
          await sql`select pg_advisory_unlock(${classKey}, ${jobKey})`.execute(connection);
        }
      });
    },
    close: () => db.destroy(),
  };
}
