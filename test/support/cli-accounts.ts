// Shared steps of the CLI tests: a temp database and accounts created through the real binary.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'vitest';
import { makeTempDir, PASSWORD } from './app.js';
import { execaSync } from 'execa';
import { BIN, cleanEnv, runCli } from './cli.js';
import { cliInProcess } from './cli-in-process.js';
import { forEngine, onPostgres } from './database.js';

/** A path where no database exists yet (only serve and migrate create one). */
export function tempDbPath(): string {
  return path.join(makeTempDir('timetrack-cli-'), 'timetrack.db');
}

/** The file the binary migrated for this worker (SQLite), and its bytes. */
let migratedByCli: { file: string; bytes: Buffer } | undefined;

/** Runs `timetrack migrate` on `db` through the real binary. */
function migrateWithCli(db: string): void {
  // On PostgreSQL the database that stands for this path is migrated, like every later command's.
  const { args, env } = forEngine(['--db', db, 'migrate'], {});
  execaSync('node', [BIN, ...args], { env: cleanEnv(env), extendEnv: false });
}

/**
 * A new, migrated database, as `timetrack migrate` leaves it. On SQLite the binary migrates one file
 * per worker process and each call copies it (a node process and 25 migrations less per database;
 * docs/testing.md, "How fast"); a closed SQLite file is whole without -wal and -shm, and the copy
 * keeps its mode. On PostgreSQL each path's database is migrated by the binary.
 */
export function tempDb(): string {
  const db = tempDbPath();
  if (onPostgres) {
    migrateWithCli(db);
    return db;
  }
  if (migratedByCli === undefined) {
    const template = tempDbPath();
    process.once('exit', () => fs.rmSync(path.dirname(template), { recursive: true, force: true }));
    migrateWithCli(template);
    for (const side of ['-wal', '-shm']) if (fs.existsSync(`${template}${side}`)) throw new Error(`migrate left ${template}${side} behind`);
    migratedByCli = { file: template, bytes: fs.readFileSync(template) };
  }
  fs.copyFileSync(migratedByCli.file, db, fs.constants.COPYFILE_EXCL);
  return db;
}

/** Runs a command against `db`; `--db` goes first, like an operator would type it. */
export function cli(db: string, args: string[], options: { input?: string; env?: Record<string, string> } = {}) {
  return runCli(['--db', db, ...args], options);
}

/** A closed SQLite file (no -wal, -shm or -journal beside it, so no connection holds it open). */
function closedSqliteFile(db: string): boolean {
  return !onPostgres && fs.existsSync(db) && !['-wal', '-shm', '-journal'].some((side) => fs.existsSync(`${db}${side}`));
}

/** Files the binary left after creating one account in a copy of the migrated file, by the arguments. */
const afterFirstAccount = new Map<string, string>();

/**
 * Creates an account with the test password through the built CLI's `user create`, run in this
 * process (test/support/cli-in-process.ts). In a new database from `tempDb` (SQLite, byte for byte the
 * migrated file), the first run with the same arguments in this worker is kept, and later ones copy
 * the file it left (its salt, times and audit record included): an argon2id hash less per test
 * (docs/testing.md, "How fast"). A test about `user create` itself runs `cli(db, ['user', 'create', …])`.
 */
export async function createAccountWithCli(db: string, email: string, extra: string[] = []): Promise<void> {
  const key = JSON.stringify([email, ...extra]);
  const fresh = migratedByCli !== undefined && closedSqliteFile(db) && fs.readFileSync(db).equals(migratedByCli.bytes);
  const kept = fresh ? afterFirstAccount.get(key) : undefined;
  if (kept !== undefined) {
    fs.copyFileSync(kept, db);
    return;
  }
  const result = await cliInProcess(db, ['user', 'create', '--email', email, '--name', 'Test Person', '--password-stdin', ...extra], {
    input: `${PASSWORD}\n`,
  });
  expect(result.stderr).toBe('');
  expect(result.exitCode).toBe(0);
  if (fresh && migratedByCli !== undefined && closedSqliteFile(db)) {
    const copy = path.join(path.dirname(migratedByCli.file), `account-${afterFirstAccount.size}.db`);
    fs.copyFileSync(db, copy);
    afterFirstAccount.set(key, copy);
  }
}

/** A failure of the CLI: the given exit code, one line on stderr, no stack trace. */
export function expectFailure(result: { exitCode?: number; stderr: unknown; stdout: unknown }, exitCode: number, message: RegExp): void {
  const stderr = String(result.stderr);
  expect(result.exitCode).toBe(exitCode);
  expect(stderr).toMatch(message);
  expect(stderr).not.toMatch(/\n\s+at /);
  expect(String(result.stdout)).toBe('');
}

/** The e-mail addresses of a SQLite file's accounts (a backup, a restored file), in order. */
export function emailsIn(file: string): string[] {
  const sqlite = new Database(file, { readonly: true });
  try {
    return (sqlite.prepare('select email from users order by email').all() as Array<{ email: string }>).map((row) => row.email);
  } finally {
    sqlite.close();
  }
}

/** The team Kitchen of the lead Lea (role lead) and the member Max, made at the shell on `db`. */
export async function kitchenWithLeaAndMax(db: string): Promise<void> {
  await createAccountWithCli(db, 'lea@example.com', ['--role', 'lead']);
  await createAccountWithCli(db, 'max@example.com');
  for (const args of [
    ['team', 'create', 'Kitchen'],
    ['team', 'add', 'Kitchen', 'lea@example.com', '--lead'],
    ['team', 'add', 'Kitchen', 'max@example.com'],
  ]) {
    expect((await cliInProcess(db, args)).exitCode).toBe(0);
  }
}
