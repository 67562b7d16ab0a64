import type { Command } from 'commander';
import { migrateToLatest, migrationStatus } from '../db/migrate.js';
import { databaseLine, withCommandContext, type GlobalOptions } from './command-context.js';
import { printJson, printLines, printTable } from './output.js';

export function registerMigrateCommand(program: Command): void {
  program
    .command('migrate')
    .description('create the database if missing and apply pending migrations, or list applied, pending and unknown ones with --status')
    .option('--status', 'list migrations with their state instead of applying them')
    .addHelpText('after', '\nExample:\n  timetrack migrate --status --json')
    .action(async (options: { status?: boolean }, command: Command) => {
      const global = command.optsWithGlobals<GlobalOptions>();
      await withCommandContext(global, async (ctx) => {
        if (options.status) {
          const states = await migrationStatus(ctx.db);
          if (global.json) return printJson({ migrations: states.map((m) => ({ name: m.name, state: m.state, executed_at: m.executedAt })) });
          printTable(['migration', 'state', 'applied at'], states.map((m) => [m.name, m.state === 'unknown' ? 'unknown (written by a newer version)' : m.state, m.executedAt ?? '']));
          return printLines(databaseLine(ctx));
        }
        const applied = await migrateToLatest(ctx.db);
        if (global.json) return printJson({ applied });
        printLines(applied.length ? `applied ${applied.length} migration(s): ${applied.join(', ')}` : 'database is up to date', databaseLine(ctx));
      }, { createDatabase: true, skipSchemaCheck: true });
    });
}
