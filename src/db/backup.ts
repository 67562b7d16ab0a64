// Online backups and restores of the SQLite file. A backup uses SQLite's backup API, so it is a
// consistent copy even while `serve` writes; a restore never copies a file over a live database and
// never leaves an old -wal/-shm beside the restored file (SQLite would replay that WAL's pages over
// the restored ones and corrupt it).
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { migrations } from '../../migrations/index.js';
import type { BackupResult } from './database.js';
import type { SqliteHandle } from './sqlite.js';

export class BackupError extends Error {
  override name = 'BackupError';
}

/** `pragma integrity_check` of a file, opened read-only; throws a BackupError naming the first problem. */
function checkIntegrity(file: string, what: string): void {
  let sqlite: SQLite.Database | undefined;
  try {
    sqlite = new SQLite(file, { readonly: true, fileMustExist: true });
    const result = sqlite.pragma('integrity_check', { simple: true });
    if (result !== 'ok') throw new BackupError(`${what} ${file} fails the integrity check: ${String(result)}`);
  } catch (error) {
    if (error instanceof BackupError) throw error;
    throw new BackupError(`${what} ${file} cannot be read as an SQLite database (${error instanceof Error ? error.message : String(error)})`);
  } finally {
    sqlite?.close();
  }
}

/** Copies the open database into `destination` (which must not exist), mode 0600, then checks the copy. */
export async function backupDatabase(sqlite: SqliteHandle, destination: string): Promise<BackupResult> {
  const target = path.resolve(destination);
  const started = performance.now();
  // Created by us, exclusively and 0600, before SQLite writes a page into it.
  let fd: number;
  try {
    fd = fs.openSync(target, fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_WRONLY, 0o600);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new BackupError(code === 'EEXIST' ? `${target} exists already; choose a new file name` : `cannot create ${target} (${code ?? 'error'})`);
  }
  fs.closeSync(fd);
  try {
    await sqlite.backup(target);
    fs.chmodSync(target, 0o600);
    checkIntegrity(target, 'the backup');
  } catch (error) {
    fs.rmSync(target, { force: true });
    throw error instanceof BackupError ? error : new BackupError(`backup to ${target} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return { path: target, bytes: fs.statSync(target).size, durationMs: Math.round(performance.now() - started) };
}

/** The migrations a backup records that this build does not know, after checking it is a timetrack database. */
function unknownMigrationsOf(file: string): string[] {
  const sqlite = new SQLite(file, { readonly: true, fileMustExist: true });
  try {
    const table = sqlite.prepare("select 1 from sqlite_master where type = 'table' and name = 'kysely_migration'").get();
    if (!table) throw new BackupError(`${file} is not a timetrack database (it has no migration table)`);
    const names = (sqlite.prepare('select name from kysely_migration').all() as Array<{ name: string }>).map((row) => row.name);
    return names.filter((name) => !(name in migrations));
  } finally {
    sqlite.close();
  }
}

/**
 * Replaces the database at `target` by the backup `source`: the source is checked (integrity, a
 * schema this build knows), copied beside the target through the backup API (which also takes in a
 * -wal of the source), checked again, then moved over the target with the target's stale -wal and
 * -shm removed first. The restored file keeps the owner of the file it replaces, mode 0600.
 * The caller makes sure no process has the target open.
 */
export async function restoreDatabase(source: string, target: string): Promise<{ bytes: number }> {
  const from = path.resolve(source);
  if (!fs.existsSync(from)) throw new BackupError(`no backup at ${from}`);
  checkIntegrity(from, 'the backup');
  const unknown = unknownMigrationsOf(from);
  if (unknown.length > 0) {
    throw new BackupError(`the backup ${from} was written by a newer version of timetrack (migrations this version does not know: ${unknown.join(', ')})`);
  }

  const previous = fs.existsSync(target) ? fs.statSync(target) : undefined;
  fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
  const staging = `${target}.restoring`;
  fs.rmSync(staging, { force: true });
  fs.closeSync(fs.openSync(staging, fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_WRONLY, 0o600));
  const reader = new SQLite(from, { readonly: true });
  try {
    await reader.backup(staging);
  } finally {
    reader.close();
  }
  // A copy in rollback mode holds everything in one file, so nothing but the file itself moves below.
  const staged = new SQLite(staging);
  staged.pragma('journal_mode = DELETE');
  staged.close();
  checkIntegrity(staging, 'the restored copy');

  for (const suffix of ['-wal', '-shm', '-journal']) fs.rmSync(`${target}${suffix}`, { force: true });
  fs.renameSync(staging, target);
  fs.chmodSync(target, 0o600);
  // Run as root on the service's file: give it back to the service's user.
  if (previous && process.getuid?.() === 0) fs.chownSync(target, previous.uid, previous.gid);
  return { bytes: fs.statSync(target).size };
}

/** `pragma quick_check` of the open database: 'ok', or the problems SQLite found. */
export function quickCheck(sqlite: SqliteHandle): string {
  const rows = sqlite.pragma('quick_check') as Array<{ quick_check: string }>;
  return rows.map((row) => row.quick_check).join('; ');
}
