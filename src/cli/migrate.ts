import type { Command } from 'commander';
import fs from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../config/index.js';
import { databaseFileOf, DatabaseLockedError, MigrationError } from '../db/database.js';
import { lockDatabaseFile, lockHolder, type HeldLock } from '../db/file-lock.js';
import { migrateToLatest, migrationStatus, statusOfNewDatabase, type MigrationState } from '../db/migrate.js';
import { refuseWhileOlderVersionsWrite } from '../db/process-registry.js';
import { packageVersion } from '../version.js';
import { databaseLine, databaseOverrides, readEnvironment, withCommandContext, type GlobalOptions } from './command-context.js';
import { printJson, printLines, printTable } from './output.js';

export function registerMigrateCommand(program: Command): void {
  program
    .command('migrate')
    .description('create the database if missing and apply pending migrations, or list applied, pending and unknown ones with --status')
    .option('--status', 'list migrations with their state instead of applying them')
    .addHelpText('after', '\nExample:\n  timetrack migrate --status --json')
    .action(async (options: { status?: boolean }, command: Command) => {
      const global = command.optsWithGlobals<GlobalOptions>();
      const printStatus = (states: MigrationState[], database: string) => {
        if (global.json) return printJson({ migrations: states.map((m) => ({ name: m.name, state: m.state, executed_at: m.executedAt })) });
        printTable(
          ['migration', 'state', 'applied at'],
          states.map((m) => [m.name, m.state === 'unknown' ? 'unknown (written by a newer version)' : m.state, m.executedAt ?? '']),
        );
        printLines(database);
      };
      if (options.status) {
        // Reading only: a SQLite file that does not exist is reported, never created (nor its folder).
        const { database } = loadConfig(readEnvironment(global.envFile), databaseOverrides(global));
        if (database.engine === 'sqlite' && !fs.existsSync(database.path)) {
          return printStatus(statusOfNewDatabase(), `database: ${database.path} (does not exist yet; \`timetrack migrate\` creates it)`);
        }
        return withCommandContext(global, async (ctx) => printStatus(await migrationStatus(ctx.db), databaseLine(ctx)), { skipSchemaCheck: true });
      }
      const { database } = loadConfig(readEnvironment(global.envFile), databaseOverrides(global));
      const created = database.engine === 'sqlite' && !fs.existsSync(database.path);
      // SQLite: the file's lock, held while migrating; a server holding it refuses a migration (below).
      const dbPath = databaseFileOf(database);
      const lock = dbPath !== undefined && !created ? await lockUnlessHeld(dbPath) : undefined;
      try {
        await withCommandContext(
          global,
          async (ctx) => {
            const applied = await migrateToLatest(ctx.db, async (pending) => {
              if (lock?.heldBy) throw new MigrationError(refusalWhileHeld(dbPath!, lock.heldBy));
              await refuseWhileOlderVersionsWrite(ctx.database, pending);
            });
            if (global.json) return printJson({ applied, created });
            printLines(
              applied.length ? `applied ${applied.length} migration(s): ${applied.join(', ')}` : 'database is up to date',
              ...(created ? ['created a new, empty database'] : []),
              databaseLine(ctx),
            );
          },
          { createDatabase: true, skipSchemaCheck: true },
        );
      } finally {
        lock?.held?.release();
      }
    });
}

/**
 * The SQLite file's lock for the migration, or who holds it: a database that is up to date is
 * reported as such beside a running server, but nothing is applied under one.
 */
async function lockUnlessHeld(dbPath: string): Promise<{ held?: HeldLock; heldBy?: DatabaseLockedError }> {
  if (!fs.existsSync(path.dirname(dbPath))) return {};
  try {
    return { held: await lockDatabaseFile(dbPath, 'migrate', packageVersion()) };
  } catch (error) {
    // Held by another process (file-lock.ts marks a conflict with `holderGone`).
    if (error instanceof DatabaseLockedError && 'holderGone' in error) return { heldBy: error };
    // No lock to be had here (a folder this user cannot write, no flock): the migration goes on as
    // before the lock, and fails by itself where the file cannot be written.
    return {};
  }
}

/**
 * "stop the running 0.2.0 server first", with who holds the file. The lock records the version from
 * the release after 0.2.0 on; a server that does not record it is 0.2.0 (the first with the lock) or
 * an unreleased build before this one.
 */
function refusalWhileHeld(dbPath: string, error: DatabaseLockedError): string {
  const holder = lockHolder(dbPath);
  if (holder?.what !== 'serve') return error.message;
  const version = holder.version ?? '0.2.0';
  const running = holder.version
    ? `timetrack serve ${holder.version} (pid ${holder.pid})`
    : `timetrack serve (pid ${holder.pid}, 0.2.0 or older: it does not record its version)`;
  return `stop the running ${version} server first: ${running} is using ${dbPath} and would not know its new schema (systemctl stop timetrack, then migrate, then start it)`;
}
