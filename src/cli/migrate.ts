import type { Command } from 'commander';
import fs from 'node:fs';
import { loadConfig } from '../config/index.js';
import { migrateToLatest, migrationStatus, statusOfNewDatabase, type MigrationState } from '../db/migrate.js';
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
      await withCommandContext(
        global,
        async (ctx) => {
          const applied = await migrateToLatest(ctx.db);
          if (global.json) return printJson({ applied, created });
          printLines(
            applied.length ? `applied ${applied.length} migration(s): ${applied.join(', ')}` : 'database is up to date',
            ...(created ? ['created a new, empty database'] : []),
            databaseLine(ctx),
          );
        },
        { createDatabase: true, skipSchemaCheck: true },
      );
    });
}
