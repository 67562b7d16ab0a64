// Online backups and restores of the SQLite file. A backup is one file (no -wal or -shm beside it,
// also after a failure) with a `.sha256` beside it: SQLite's backup API copies the live database into
// a private staging folder beside the database, the copy is switched to a single-file journal and
// checked, then its bytes go through the one descriptor that created the backup file (never reopened
// by path). A restore copies the backup's bytes beside the database first (so a read-only backup
// folder works, and the file checked is the file restored), verifies the checksum, the integrity, the
// migrations and that the schema is exactly what the migrations create (a planted trigger or view is
// refused), and never leaves an old -wal/-shm beside the restored file (SQLite would replay that
// WAL's pages over the restored ones and corrupt it).
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { migrations } from '../../migrations/index.js';
import { createPrivateFile, PrivateFileError } from '../common/private-file.js';
import { BackupError, type BackupResult } from './database.js';
import { createBackupFile, installBackupFile, removeBackupFile, type BackupFile } from './backup-file.js';
import { TABLES } from './tables.js';

/** The raw better-sqlite3 handle: for tests and this folder only. */
export type SqliteHandle = SQLite.Database;

/** The checksum file of a backup, in `sha256sum` format. */
export function checksumFileOf(backup: string): string {
  return `${backup}.sha256`;
}

const COPY_CHUNK = 1 << 20;

/** Copies every byte of `fromFd` to `toFd`; returns the SHA-256 (hex) of what was copied and its size. */
function copyThrough(fromFd: number, toFd: number | undefined): { sha256: string; bytes: number } {
  const hash = createHash('sha256');
  const buffer = Buffer.alloc(COPY_CHUNK);
  let bytes = 0;
  for (;;) {
    const read = fs.readSync(fromFd, buffer, 0, COPY_CHUNK, null);
    if (read === 0) break;
    hash.update(buffer.subarray(0, read));
    if (toFd !== undefined) {
      let written = 0;
      while (written < read) written += fs.writeSync(toFd, buffer, written, read - written);
    }
    bytes += read;
  }
  if (toFd !== undefined) fs.fsyncSync(toFd);
  return { sha256: hash.digest('hex'), bytes };
}

/** `pragma integrity_check` of an open copy; throws a BackupError naming the first problem. */
function checkIntegrityOf(sqlite: SQLite.Database, what: string): void {
  const result = sqlite.pragma('integrity_check', { simple: true });
  if (result !== 'ok') throw new BackupError(`${what} fails the integrity check: ${String(result)}`);
}

/** Opens a staged copy (in the database's own folder) read-write, as one file (rollback journal). */
function openStaged(file: string, what: string): SQLite.Database {
  let sqlite: SQLite.Database | undefined;
  try {
    sqlite = new SQLite(file, { fileMustExist: true });
    sqlite.pragma('journal_mode = DELETE');
    return sqlite;
  } catch (error) {
    sqlite?.close();
    throw new BackupError(`${what} cannot be read as an SQLite database (${error instanceof Error ? error.message : String(error)})`);
  }
}

/** A private folder beside the database for copies in progress (removed afterwards, whatever happens). */
function stagingFolder(dbPath: string): string {
  return fs.mkdtempSync(path.join(path.dirname(path.resolve(dbPath)), '.timetrack-staging-'));
}

type SchemaRow = { type: string; name: string; tbl_name: string; sql: string | null };

function schemaOf(sqlite: SQLite.Database): SchemaRow[] {
  return sqlite.prepare("select type, name, tbl_name, sql from sqlite_master where name not like 'sqlite_stat%' order by type, name").all() as SchemaRow[];
}

/** The schema the migrations up to `last` create, on an empty in-memory database. */
async function schemaOfMigrations(last: string): Promise<SchemaRow[]> {
  const sqlite = new SQLite(':memory:');
  const db = new Kysely<any>({ dialect: new SqliteDialect({ database: sqlite }) });
  try {
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations }, migrationTableName: 'kysely_migration' });
    const { error } = await migrator.migrateTo(last);
    if (error) throw error;
    return schemaOf(sqlite);
  } finally {
    await db.destroy();
  }
}

/**
 * What in a database's schema the migrations did not create, or create differently: triggers, views,
 * tables or indexes added by hand (a trigger can silently undo password changes). Empty when none.
 */
export async function schemaDifferences(sqlite: SQLite.Database): Promise<string[]> {
  const hasTable = sqlite.prepare("select 1 from sqlite_master where type = 'table' and name = 'kysely_migration'").get();
  if (!hasTable) return ['no migration table (not a timetrack database)'];
  const recorded = (sqlite.prepare('select name from kysely_migration order by name').all() as Array<{ name: string }>).map((row) => row.name);
  const known = recorded.filter((name) => name in migrations);
  if (known.length === 0) return ['no migration recorded'];
  const expected = new Map((await schemaOfMigrations(known.at(-1)!)).map((row) => [`${row.type} ${row.name}`, row.sql]));
  const actual = schemaOf(sqlite);
  const problems: string[] = [];
  for (const row of actual) {
    const key = `${row.type} ${row.name}`;
    if (!expected.has(key)) problems.push(`${key} is not created by the migrations`);
    else if (expected.get(key) !== row.sql) problems.push(`${key} differs from the one the migrations create`);
  }
  const present = new Set(actual.map((row) => `${row.type} ${row.name}`));
  for (const key of expected.keys()) if (!present.has(key)) problems.push(`${key} is missing`);
  return problems;
}

/**
 * Copies the open database into the new file `destination` (mode 0600), checked, with its
 * `.sha256` beside it. Both are written under temporary names beside it and proven after they get
 * their names (backup-file.ts): the file reported is the file written. Nothing else is ever left
 * beside it; a failure leaves nothing behind.
 */
export async function backupDatabase(sqlite: SqliteHandle, destination: string): Promise<BackupResult> {
  const target = path.resolve(destination);
  const started = performance.now();
  const backup = createBackupFile(target);
  let sum: BackupFile | undefined;
  const staging = stagingFolder(sqlite.name);
  let bytes: number;
  try {
    sum = createBackupFile(checksumFileOf(target));
    const staged = path.join(staging, 'copy.db');
    await sqlite.backup(staged);
    const copy = openStaged(staged, 'the backup');
    try {
      checkIntegrityOf(copy, `the backup ${target}`);
    } finally {
      copy.close();
    }
    const from = fs.openSync(staged, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
    let written: { sha256: string; bytes: number };
    try {
      written = copyThrough(from, backup.fd);
    } finally {
      fs.closeSync(from);
    }
    ({ bytes } = installBackupFile(backup, written.sha256));
    fs.writeSync(sum.fd, `${written.sha256}  ${path.basename(target)}\n`);
    installBackupFile(sum);
  } catch (error) {
    for (const file of [backup, sum]) if (file) removeBackupFile(file);
    throw error instanceof BackupError || error instanceof PrivateFileError
      ? new BackupError(error.message)
      : new BackupError(`backup to ${target} failed: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
  return { path: target, bytes, durationMs: Math.round(performance.now() - started) };
}

/** The SHA-256 a backup's `.sha256` states, or undefined when there is none (a backup made before 0.2.0). */
function statedChecksum(backup: string): string | undefined {
  let text: string;
  try {
    text = fs.readFileSync(checksumFileOf(backup), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new BackupError(`cannot read ${checksumFileOf(backup)} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  const match = /^([0-9a-f]{64})\b/.exec(text.trim());
  if (!match) throw new BackupError(`${checksumFileOf(backup)} holds no SHA-256`);
  return match[1];
}

export interface RestoreResult {
  bytes: number;
  /** Whether a `.sha256` beside the backup was verified (backups made before 0.2.0 have none). */
  checksumVerified: boolean;
  /** The SHA-256 of the bytes restored (hex), for the audit row. */
  sha256: string;
}

/**
 * Replaces the database at `target` by the backup `source`. The backup must not be writable by
 * others; its bytes are copied through one descriptor beside the target, verified against its
 * `.sha256`, checked (integrity, a timetrack schema this build knows, nothing the migrations did not
 * create), then moved over the target with the target's stale -wal and -shm removed first. The
 * restored file keeps the owner of the file it replaces, mode 0600. The caller holds the file's lock.
 */
/**
 * `checksum: 'required'` (the default) refuses a backup without its `.sha256` (a deleted or forgotten
 * checksum file is no proof the file is the one written); `'if present'` restores one without it
 * (a backup made before 0.2.0), still checking integrity and schema.
 */
export async function restoreDatabase(
  source: string,
  target: string,
  options: { checksum: 'required' | 'if present' } = { checksum: 'required' },
): Promise<RestoreResult> {
  const from = path.resolve(source);
  let fromFd: number;
  try {
    fromFd = fs.openSync(from, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new BackupError(`no backup at ${from}`);
    if (code === 'ELOOP') throw new BackupError(`${from} is a symbolic link; give the backup file itself`);
    throw new BackupError(`cannot read ${from} (${code ?? 'error'})`);
  }
  const previous = fs.statSync(target, { throwIfNoEntry: false });
  const staging = stagingFolder(target);
  const staged = path.join(staging, 'restoring.db');
  try {
    const stat = fs.fstatSync(fromFd);
    if (!stat.isFile()) throw new BackupError(`${from} is not a regular file`);
    const uid = process.geteuid?.();
    if ((stat.mode & 0o022) !== 0) {
      throw new BackupError(
        `${from} is writable by other users (mode ${(stat.mode & 0o777).toString(8)}), so it may have been changed; refused (chmod 600 ${from} if you trust it)`,
      );
    }
    if (uid !== undefined && stat.uid !== uid && stat.uid !== 0) {
      throw new BackupError(`${from} belongs to uid ${stat.uid}, another user, who could have changed it; refused (chown it if you trust it)`);
    }
    const expected = statedChecksum(from);
    if (expected === undefined && options.checksum === 'required') {
      throw new BackupError(
        `${from} has no ${checksumFileOf(from)}: refused, nothing proves it is the file a backup wrote; restore it anyway with --no-checksum (a backup made before 0.2.0 has none)`,
      );
    }
    const toFd = createPrivateFile(staged);
    let copied: { sha256: string; bytes: number };
    try {
      copied = copyThrough(fromFd, toFd);
    } finally {
      fs.closeSync(toFd);
    }
    if (expected !== undefined && copied.sha256 !== expected) {
      throw new BackupError(`${from} does not match its checksum ${checksumFileOf(from)}: the file was changed or damaged; refused`);
    }
    const copy = openStaged(staged, `the backup ${from}`);
    try {
      checkIntegrityOf(copy, `the backup ${from}`);
      const table = copy.prepare("select 1 from sqlite_master where type = 'table' and name = 'kysely_migration'").get();
      if (!table) throw new BackupError(`${from} is not a timetrack database (it has no migration table)`);
      const names = (copy.prepare('select name from kysely_migration').all() as Array<{ name: string }>).map((row) => row.name);
      const unknown = names.filter((name) => !(name in migrations));
      if (unknown.length > 0) {
        throw new BackupError(`the backup ${from} was written by a newer version of timetrack (migrations this version does not know: ${unknown.join(', ')})`);
      }
      const differences = await schemaDifferences(copy);
      if (differences.length > 0) throw new BackupError(`the backup ${from} holds a schema the migrations did not create (${differences.join('; ')}); refused`);
    } finally {
      copy.close();
    }
    for (const suffix of ['-wal', '-shm', '-journal']) fs.rmSync(`${target}${suffix}`, { force: true });
    fs.renameSync(staged, target);
    fs.chmodSync(target, 0o600);
    // Run as root on the service's file: give it back to the service's user.
    if (previous && process.getuid?.() === 0) fs.chownSync(target, previous.uid, previous.gid);
    return { bytes: copied.bytes, checksumVerified: expected !== undefined, sha256: copied.sha256 };
  } catch (error) {
    throw error instanceof PrivateFileError ? new BackupError(error.message) : error;
  } finally {
    fs.closeSync(fromFd);
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

/** `pragma quick_check` of the open database, its schema against the migrations and every table of TABLES: 'ok', or the problems found. */
export async function quickCheck(sqlite: SqliteHandle): Promise<string> {
  const rows = sqlite.pragma('quick_check') as Array<{ quick_check: string }>;
  const integrity = rows.map((row) => row.quick_check).join('; ');
  const schema = await schemaDifferences(sqlite);
  const present = new Set((sqlite.prepare("select name from sqlite_master where type = 'table'").all() as Array<{ name: string }>).map((row) => row.name));
  for (const table of TABLES) if (!present.has(table) && !schema.includes(`table ${table} is missing`)) schema.push(`table ${table} is missing`);
  const problems = [...(integrity === 'ok' ? [] : [integrity]), ...(schema.length ? [`schema: ${schema.join('; ')}`] : [])];
  return problems.length ? problems.join('; ') : 'ok';
}
