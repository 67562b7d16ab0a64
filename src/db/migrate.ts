// Schema changes come only from the files in migrations/ (listed in migrations/index.ts), applied in
// name order by Kysely's Migrator.
import { Migrator, type Kysely, type MigrationResultSet } from 'kysely';
import { migrations } from '../../migrations/index.js';

export interface MigrationState {
  name: string;
  applied: boolean;
  executedAt: string | null;
}

function migratorFor(db: Kysely<any>): Migrator {
  return new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
  });
}

export class MigrationError extends Error {
  override name = 'MigrationError';
}

/** Applies every pending migration; returns the names applied now. */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const { error, results }: MigrationResultSet = await migratorFor(db).migrateToLatest();
  if (error) {
    const failed = results?.find((result) => result.status === 'Error');
    const cause = error instanceof Error ? error.message : String(error);
    throw new MigrationError(`migration ${failed?.migrationName ?? '(unknown)'} failed: ${cause}`);
  }
  return (results ?? []).filter((result) => result.status === 'Success').map((result) => result.migrationName);
}

export async function migrationStatus(db: Kysely<any>): Promise<MigrationState[]> {
  const migrations = await migratorFor(db).getMigrations();
  return migrations.map((migration) => ({
    name: migration.name,
    applied: migration.executedAt !== undefined,
    executedAt: migration.executedAt ? migration.executedAt.toISOString() : null,
  }));
}
