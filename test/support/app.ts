// A real context on a real SQLite file in a temp folder, copied from a migrated template (or, with
// TIMETRACK_TEST_DATABASE_URL, on a PostgreSQL database of its own: test/support/database.ts), with a
// clock the test moves.
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import type { Env } from '../../src/config/index.js';
import { createContext, type AppContext } from '../../src/composition-root.js';
import { buildApp, type App } from '../../src/http/app.js';
import type { PasswordAlgorithm } from '../../src/auth/passwords/hasher.js';
import type { Clock } from '../../src/common/clock.js';
import type { OpenedSqliteDatabase } from '../../src/db/sqlite.js';
import { bindPostgresDatabase, createMigratedPostgresDatabase, createMigratedSqliteDatabase, onPostgres, TEST_JWT_SECRET } from './database.js';

/** The raw SQLite handle of a context, for tests that inspect or break the file (SQLite runs only). */
export function sqliteOf(ctx: AppContext): OpenedSqliteDatabase['sqlite'] {
  if (ctx.database.engine !== 'sqlite') throw new Error('this test needs SQLite (it is skipped on PostgreSQL)');
  return (ctx.database as OpenedSqliteDatabase).sqlite;
}

export class TestClock implements Clock {
  constructor(public current = new Date('2026-03-02T09:00:00.000Z')) {}
  now(): Date {
    return new Date(this.current);
  }
  advance(seconds: number): void {
    this.current = new Date(this.current.getTime() + seconds * 1000);
  }
  set(iso: string): void {
    this.current = new Date(iso);
  }
}

/**
 * A fast, salted stand-in for argon2id (SHA-256, microseconds instead of ~45 ms), for tests whose
 * subject is not hashing. Tests of the hashing bound, rehashing, timing and enumeration ask for
 * `realHashing`; every real `serve` process hashes with argon2id.
 */
export const fastTestHashing: PasswordAlgorithm = {
  async hash(password) {
    const salt = randomBytes(16).toString('base64url');
    return `$test-sha256$${salt}$${createHash('sha256').update(salt).update(password).digest('base64url')}`;
  },
  async verify(hash, password) {
    const [, scheme, salt, digest] = hash.split('$');
    if (scheme !== 'test-sha256' || !salt || !digest) return false;
    const expected = Buffer.from(digest);
    const actual = Buffer.from(createHash('sha256').update(salt).update(password).digest('base64url'));
    return expected.length === actual.length && timingSafeEqual(expected, actual);
  },
  needsRehash: (hash) => !hash.startsWith('$test-sha256$'),
};

export function makeTempDir(prefix = 'timetrack-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export interface TestApp {
  ctx: AppContext;
  app: App;
  clock: TestClock;
  dir: string;
  dbPath: string;
  /** Everything the logger wrote, as text. */
  logs: () => string;
  /** What dev mode printed to the "terminal". */
  terminal: () => string;
  close: () => Promise<void>;
}

export interface TestAppOptions {
  env?: Env;
  clock?: TestClock;
  dir?: string;
  mailRetryDelaysMs?: number[];
  /** Hash with argon2id, as serve does (for tests whose subject is hashing). */
  realHashing?: boolean;
  /** Hash with this algorithm (a test that must hold hashing back until its flood has arrived). */
  passwordAlgorithm?: PasswordAlgorithm;
}

/** A migrated PostgreSQL database for a test app, bound to its SQLite path so that CLI runs with `--db` find it. */
async function migratedPostgresFor(dbPath: string): Promise<Record<string, string>> {
  const url = await createMigratedPostgresDatabase();
  bindPostgresDatabase(dbPath, url);
  return { DATABASE_URL: url, JWT_SECRET: TEST_JWT_SECRET };
}

export async function createTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const dir = options.dir ?? makeTempDir();
  const dbPath = path.join(dir, 'timetrack.db');
  const clock = options.clock ?? new TestClock();
  const logStream = new PassThrough();
  const terminalStream = new PassThrough();
  let logText = '';
  let terminalText = '';
  logStream.on('data', (chunk: Buffer) => (logText += chunk.toString()));
  terminalStream.on('data', (chunk: Buffer) => (terminalText += chunk.toString()));
  // Tests ask for dev mode with NODE_ENV=development in their settings; serve takes it from --dev only
  // (src/config/), so the test context passes that flag, and NODE_ENV itself stays unset.
  const { NODE_ENV: nodeEnv, ...env } = options.env ?? {};
  // A new file starts as a copy of a migrated template (test/support/database.ts); a file the test
  // brings (an old schema, a restart on the same folder) or a path of its own is migrated in place.
  if (!onPostgres && env.TIMETRACK_DB === undefined && env.DATABASE_URL === undefined && !fs.existsSync(dbPath)) await createMigratedSqliteDatabase(dbPath);
  const ctx = await createContext({
    env: {
      ...(onPostgres ? await migratedPostgresFor(dbPath) : { TIMETRACK_DB: dbPath }),
      RATE_LIMIT_AUTH: '0',
      RATE_LIMIT_EXPORT: '0',
      RATE_LIMIT_STATS: '0',
      LOG_LEVEL: 'info',
      ...env,
    },
    overrides: nodeEnv === 'development' ? { dev: true } : {},
    clock,
    migrate: true,
    logDestination: logStream,
    terminal: terminalStream,
    mailRetryDelaysMs: options.mailRetryDelaysMs,
    ...(options.passwordAlgorithm ? { passwordAlgorithm: options.passwordAlgorithm } : options.realHashing ? {} : { passwordAlgorithm: fastTestHashing }),
  });
  const app = await buildApp(ctx);
  await app.ready();
  return {
    ctx,
    app,
    clock,
    dir,
    dbPath,
    logs: () => logText,
    terminal: () => terminalText,
    close: async () => {
      await app.close();
      await ctx.close();
    },
  };
}

export const PASSWORD = 'correct horse battery staple';

export interface Account {
  email: string;
  password: string;
  full_name: string;
  username?: string;
}

export function account(overrides: Partial<Account> = {}): Account {
  return { email: 'ann@example.com', password: PASSWORD, full_name: 'Ann Example', ...overrides };
}
