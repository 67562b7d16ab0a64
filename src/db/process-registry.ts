// The `serve` processes of a PostgreSQL database announce themselves (migration
// 20261126233000_server_processes; docs/operations.md, "Several processes on PostgreSQL"): one row
// each, with its version, the newest migration it knows and whether it writes, renewed every
// HEARTBEAT_INTERVAL_MS. A row not renewed for STALE_AFTER_SECONDS belongs to a process that is gone
// and is ignored. Times are the database server's (`now()`), so the clocks of several machines do not
// matter. What reads it: `migrate` (refuses while an older version writes), a new `serve` about to
// migrate (waits until the older ones stopped writing) and every `serve` (stops writing once a newer
// version is announced). On SQLite there is one server per file (its lock): no registry.
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { sql, type Kysely } from 'kysely';
import { migrations } from '../../migrations/index.js';
import { MigrationError, type OpenedDatabase } from './database.js';
import type { Database } from './types.js';
import { packageVersion } from '../version.js';

/** How often a process renews its row and looks for a newer version. */
export const HEARTBEAT_INTERVAL_MS = 5_000;
/** A row older than this is a process that is gone. */
export const STALE_AFTER_SECONDS = 30;
/** The longest a new `serve` waits for older processes to stop writing before it migrates. */
const WAIT_LIMIT_MS = 60_000;

/** The newest migration of this build. */
export function lastKnownMigration(): string {
  return Object.keys(migrations).sort().at(-1)!;
}

export interface AnnouncedProcess {
  version: string;
  lastMigration: string;
  pid: number;
  host: string;
}

/** "0.2.0 (pid 123 on web-1)". */
export function describeProcess(process: AnnouncedProcess): string {
  return `${process.version} (pid ${process.pid} on ${process.host})`;
}

/** The table does not exist yet: a database of a version before the registry, where nobody announces. */
function tableMissing(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code === '42P01';
}

const fresh = sql<boolean>`heartbeat_at > now() - make_interval(secs => ${STALE_AFTER_SECONDS})`;

/** The processes that write and do not know `migration` (other than `exceptId`); none when there is no registry yet. */
async function writersNotKnowing(db: Kysely<Database>, migration: string, exceptId = ''): Promise<AnnouncedProcess[]> {
  try {
    const rows = await db
      .selectFrom('server_processes')
      .select(['version', 'last_migration', 'pid', 'host'])
      .where('writing', '=', 1)
      .where('last_migration', '<', migration)
      .where('id', '!=', exceptId)
      .where(fresh)
      .orderBy('host')
      .orderBy('pid')
      .execute();
    return rows.map((row) => ({ version: row.version, lastMigration: row.last_migration, pid: row.pid, host: row.host }));
  } catch (error) {
    if (tableMissing(error)) return [];
    throw error;
  }
}

export interface ProcessRegistry {
  /** Writes (or renews) this process's row; false when the database has no registry yet. */
  announce(writing: boolean): Promise<boolean>;
  /** Removes this process's row (at shutdown). */
  withdraw(): Promise<void>;
  /** Another live process that knows a migration this build does not: a newer version, about to migrate or running. */
  newerAnnounced(): Promise<AnnouncedProcess | undefined>;
  /** The live processes of older versions that still write. */
  olderWriters(): Promise<AnnouncedProcess[]>;
}

/** This process's entry in the registry of a PostgreSQL database; undefined on SQLite. */
export function processRegistryFor(database: Pick<OpenedDatabase, 'engine' | 'db'>, version: string): ProcessRegistry | undefined {
  if (database.engine !== 'postgres') return undefined;
  const { db } = database;
  const id = randomUUID();
  const lastMigration = lastKnownMigration();
  return {
    async announce(writing) {
      try {
        await db
          .insertInto('server_processes')
          .values({
            id,
            version,
            last_migration: lastMigration,
            pid: process.pid,
            host: os.hostname(),
            writing: writing ? 1 : 0,
            started_at: sql<string>`now()`,
            heartbeat_at: sql<string>`now()`,
          })
          .onConflict((conflict) => conflict.column('id').doUpdateSet({ writing: writing ? 1 : 0, heartbeat_at: sql<string>`now()` }))
          .execute();
        return true;
      } catch (error) {
        if (tableMissing(error)) return false;
        throw error;
      }
    },
    async withdraw() {
      await db
        .deleteFrom('server_processes')
        .where('id', '=', id)
        .execute()
        .catch((error: unknown) => {
          if (!tableMissing(error)) throw error;
        });
    },
    async newerAnnounced() {
      const row = await db
        .selectFrom('server_processes')
        .select(['version', 'last_migration', 'pid', 'host'])
        .where('last_migration', '>', lastMigration)
        .where('id', '!=', id)
        .where(fresh)
        .orderBy('last_migration', 'desc')
        .executeTakeFirst();
      return row && { version: row.version, lastMigration: row.last_migration, pid: row.pid, host: row.host };
    },
    olderWriters: () => writersNotKnowing(db, lastMigration, id),
  };
}

/** The refusal of `migrate` while processes of an older version still write (docs/operations.md). */
export async function refuseWhileOlderVersionsWrite(database: Pick<OpenedDatabase, 'engine' | 'db'>, pending: string[]): Promise<void> {
  if (database.engine !== 'postgres' || pending.length === 0) return;
  const writers = await writersNotKnowing(database.db, pending.at(-1)!);
  if (writers.length === 0) return;
  const versions = [...new Set(writers.map((writer) => writer.version))].join(', ');
  throw new MigrationError(
    `stop the running ${versions} server${writers.length > 1 ? 's' : ''} first: ${writers.map(describeProcess).join(', ')} still write${writers.length > 1 ? '' : 's'} to this database and would not know its new schema (or start this version's \`serve\` processes: they wait until the older ones stop writing, then migrate)`,
  );
}

/**
 * Before a `serve` migrates a PostgreSQL database: announces this build (not writing yet), which
 * makes every older process stop writing within a heartbeat, and waits until none does (or their
 * rows went stale). `warn` is told once whom it waits for.
 */
export async function waitForOlderWriters(database: Pick<OpenedDatabase, 'engine' | 'db'>, warn: (fields: object, message: string) => void): Promise<void> {
  const registry = processRegistryFor(database, packageVersion());
  if (!registry) return;
  const deadline = Date.now() + WAIT_LIMIT_MS;
  try {
    for (let told = false; ; told = true) {
      if (!(await registry.announce(false))) return;
      const writers = await registry.olderWriters();
      if (writers.length === 0) return;
      if (!told) warn({ processes: writers.map(describeProcess) }, 'waiting for the processes of an older version to stop writing before migrating');
      if (Date.now() > deadline) {
        throw new MigrationError(
          `${writers.map(describeProcess).join(', ')} still write${writers.length > 1 ? '' : 's'} after ${WAIT_LIMIT_MS / 1000} s: stop the running ${writers[0]!.version} server first`,
        );
      }
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  } finally {
    await registry.withdraw().catch(() => undefined);
  }
}
