import type { Command } from 'commander';
import { migrateToLatest, migrationStatus } from '../db/migrate.js';
import { withCommandContext, type GlobalOptions } from './command-context.js';
import { printJson, printLines, printTable } from './output.js';

export function registerMigrateCommand(program: Command): void {
  program
    .command('migrate')
    .description('apply pending migrations from migrations/, or list applied and pending ones with --status')
    .option('--status', 'list migrations with their state instead of applying them')
    .addHelpText('after', '\nExample:\n  timetrack migrate --status --json')
    .action(async (options: { status?: boolean }, command: Command) => {
      const global = command.optsWithGlobals<GlobalOptions>();
      await withCommandContext(global, async (ctx) => {
        if (options.status) {
          const states = await migrationStatus(ctx.db);
          if (global.json) return printJson({ migrations: states.map((m) => ({ name: m.name, applied: m.applied, executed_at: m.executedAt })) });
          printTable(['migration', 'state', 'applied at'], states.map((m) => [m.name, m.applied ? 'applied' : 'pending', m.executedAt ?? '']));
          return;
        }
        const applied = await migrateToLatest(ctx.db);
        if (global.json) return printJson({ applied });
        printLines(applied.length ? `applied ${applied.length} migration(s): ${applied.join(', ')}` : 'database is up to date');
      }, { migrate: false });
    });
}
