// Schema changes come only from the files in migrations/ (listed in migrations/index.ts), applied in
// name order by Kysely's Migrator. A database that records a migration this build does not know was
// written by a newer version: it is refused, never migrated or served. On PostgreSQL the Migrator
// applies them in one transaction under an advisory lock, so of several `serve` processes starting
// together one migrates and the others find the schema current.
import { Migrator, type Kysely, type MigrationResultSet } from 'kysely';
import { migrations } from '../../migrations/index.js';
import { MigrationError } from './database.js';

export interface MigrationState {
  name: string;
  state: 'applied' | 'pending' | 'unknown';
  executedAt: string | null;
}

const MIGRATION_TABLE = 'kysely_migration';

function migratorFor(db: Kysely<any>): Migrator {
  return new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    migrationTableName: MIGRATION_TABLE,
  });
}

/** The migrations recorded in the database (none for a new file). */
async function recordedMigrations(db: Kysely<any>): Promise<Map<string, string>> {
  const tables = await db.introspection.getTables({ withInternalKyselyTables: true });
  if (!tables.some((table) => table.name === MIGRATION_TABLE)) return new Map();
  const rows = await db.selectFrom(MIGRATION_TABLE).select(['name', 'timestamp']).orderBy('name').execute();
  return new Map(rows.map((row: { name: string; timestamp: string }) => [row.name, row.timestamp]));
}

/** The status of a database that does not exist yet: every migration pending. */
export function statusOfNewDatabase(): MigrationState[] {
  return Object.keys(migrations)
    .sort()
    .map((name) => ({ name, state: 'pending', executedAt: null }));
}

export async function migrationStatus(db: Kysely<any>): Promise<MigrationState[]> {
  const recorded = await recordedMigrations(db);
  const known = Object.keys(migrations).sort();
  const states: MigrationState[] = known.map((name) => ({
    name,
    state: recorded.has(name) ? 'applied' : 'pending',
    executedAt: recorded.has(name) ? new Date(recorded.get(name)!).toISOString() : null,
  }));
  for (const [name, timestamp] of recorded) {
    if (!(name in migrations)) states.push({ name, state: 'unknown', executedAt: new Date(timestamp).toISOString() });
  }
  return states.sort((a, b) => a.name.localeCompare(b.name));
}

function newerVersionError(unknown: MigrationState[]): MigrationError {
  return new MigrationError(
    `the database was written by a newer version of timetrack (migrations this version does not know: ${unknown.map((m) => m.name).join(', ')}); install that version or restore a backup made by this one`,
  );
}

/** Throws unless the schema is exactly this build's: no pending and no unknown migration. */
export async function assertSchemaCurrent(db: Kysely<any>): Promise<void> {
  const states = await migrationStatus(db);
  const unknown = states.filter((m) => m.state === 'unknown');
  if (unknown.length > 0) throw newerVersionError(unknown);
  const pending = states.filter((m) => m.state === 'pending');
  if (pending.length > 0) {
    throw new MigrationError(`the database needs ${pending.length} migration(s) (${pending.map((m) => m.name).join(', ')}); run \`timetrack migrate\` first`);
  }
}

/**
 * The migrations recorded that this build does not know: a newer version migrated the database. One
 * small read, cheap enough for every few seconds (src/http/schema-guard.ts).
 */
export async function unknownMigrations(db: Kysely<any>): Promise<string[]> {
  const rows: { name: string }[] = await db.selectFrom(MIGRATION_TABLE).select('name').execute();
  return rows.map((row) => row.name).filter((name) => !(name in migrations));
}

/**
 * Applies every pending migration; returns the names applied now. `beforeApplying` runs first when
 * something is pending, with the names: it may wait, or refuse by throwing (src/db/process-registry.ts).
 */
export async function migrateToLatest(db: Kysely<any>, beforeApplying?: (pending: string[]) => Promise<void>): Promise<string[]> {
  const states = await migrationStatus(db);
  const unknown = states.filter((m) => m.state === 'unknown');
  if (unknown.length > 0) throw newerVersionError(unknown);
  const pending = states.filter((m) => m.state === 'pending').map((m) => m.name);
  if (pending.length > 0) await beforeApplying?.(pending);
  const { error, results }: MigrationResultSet = await migratorFor(db).migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === 'Error');
    const cause = error instanceof Error ? error.message : String(error);
    throw new MigrationError(`migration ${failed?.migrationName ?? '(unknown)'} failed: ${cause}`);
  }
  return (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName);
}
