// `timetrack db copy --to <postgres url>`: the way from a SQLite install to PostgreSQL (README,
// "Scaling out"; docs/database.md).
import type { Command } from 'commander';
import { ConfigError, loadConfig, parsePostgresUrl, postgresPoolSettings } from '../config/index.js';
import { copyToPostgres } from '../db/copy.js';
import { maskDatabaseUrl } from '../db/database.js';
import { databaseLine, databaseOverrides, readEnvironment, withCommandContext, type GlobalOptions } from './command-context.js';
import { printOutput } from './output.js';

export function registerDbCommand(program: Command): void {
  const db = program.command('db').description('move the data between engines');
  db.command('copy')
    .description('copy everything from the configured SQLite database into a new, empty PostgreSQL database, in one transaction, and compare the counts')
    .requiredOption('--to <url>', 'the PostgreSQL database: postgres://user:password@host:5432/db (must be empty)')
    .addHelpText(
      'after',
      `
Stop the service first (writes made during the copy would not be in it). Then point the settings at
the new database (DATABASE_URL, and JWT_SECRET or JWT_SECRET_FILE so that sessions stay valid):
  $ systemctl stop timetrack
  $ sudo -u timetrack timetrack --env-file /etc/timetrack/timetrack.env db copy --to postgres://timetrack@db.example.org/timetrack`,
    )
    .action(async (options: { to: string }, command: Command) => {
      const global = command.optsWithGlobals<GlobalOptions>();
      const to = parsePostgresUrl(options.to, '--to');
      const env = readEnvironment(global.envFile);
      const { database } = loadConfig(env, databaseOverrides(global));
      if (database.engine !== 'sqlite') throw new ConfigError('db copy reads a SQLite database (TIMETRACK_DB or --db); DATABASE_URL names a PostgreSQL one');
      // The target's pool settings are those the settings would give it (DATABASE_POOL_SIZE, …).
      const pool = postgresPoolSettings(env);
      const output = await withCommandContext(global, async (ctx) => {
        const result = await copyToPostgres(ctx.database, to, pool);
        const rows = result.tables.reduce((sum, table) => sum + table.rows, 0);
        return {
          json: { to: maskDatabaseUrl(to), tables: result.tables, duration_ms: result.durationMs },
          text: [
            ...result.tables.map((table) => `${table.table.padEnd(24)} ${table.rows}`),
            `copied ${rows} rows to ${maskDatabaseUrl(to)} in ${result.durationMs} ms; the counts match`,
            databaseLine(ctx),
          ],
        };
      });
      printOutput(output, global.json);
    });
}
