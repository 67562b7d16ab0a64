// `timetrack db copy --to <postgres url>`: the way from a SQLite install to PostgreSQL (README,
// "Scaling out"; docs/database.md).
import fs from 'node:fs';
import type { Command } from 'commander';
import { ConfigError, loadConfig, parsePostgresUrl, postgresPoolSettings } from '../config/index.js';
import { copyToPostgres } from '../db/copy.js';
import { lockDatabaseFile } from '../db/file-lock.js';
import { CopyError, maskDatabaseUrl } from '../db/database.js';
import { sealingKeySource } from '../auth/secret.js';
import type { AppContext } from '../composition-root.js';
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
the new database (DATABASE_URL, a JWT_SECRET, and SECRET_KEY as the last line of the copy says, so
that two-factor sign-in goes on; docs/operations.md, "Moving to PostgreSQL"):
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
      // The single-server lock, without waiting: a running server's writes would be missing from the copy.
      const lock = await lockDatabaseFile(database.path, 'db copy');
      const output = await withCommandContext(global, async (ctx) => {
        const secrets = await twoFactorSecretsToCopy(ctx);
        // Each two-factor secret is carried sealed under the sealing key (re-sealed if it was under the old one).
        const result = await copyToPostgres(ctx.database, to, pool, {
          two_factor: (row) => ({ ...row, secret_ciphertext: ctx.services.twoFactor.sealedForCopy(row as { user_id: number; secret_ciphertext: string }) }),
        });
        const rows = result.tables.reduce((sum, table) => sum + table.rows, 0);
        return {
          json: {
            to: maskDatabaseUrl(to),
            tables: result.tables,
            duration_ms: result.durationMs,
            two_factor_secrets: secrets,
            carry: whatToCarry(ctx, secrets),
          },
          text: [
            ...result.tables.map((table) => `${table.table.padEnd(Math.max(...result.tables.map(({ table: name }) => name.length)))}  ${table.rows}`),
            `copied ${rows} rows to ${maskDatabaseUrl(to)} in ${result.durationMs} ms; the counts match`,
            whatToCarry(ctx, secrets),
            databaseLine(ctx),
          ],
        };
      }).finally(() => lock.release());
      printOutput(output, global.json);
    });
}

/** The two-factor secrets to copy; refused when one opens under no key of this install (it could not be re-sealed). */
async function twoFactorSecretsToCopy(ctx: AppContext): Promise<number> {
  const counts = await ctx.services.twoFactor.countSealedSecrets();
  if (counts.notOpening > 0) {
    throw new CopyError(
      `${counts.notOpening} of ${counts.total} two-factor secrets do not open with this install's keys (SECRET_KEY or its key file, JWT_SECRET or its secret file changed since they were set up), so they cannot be carried; set the key they were sealed with, or reset those accounts with \`timetrack user 2fa-reset\`; nothing was copied`,
    );
  }
  return counts.total;
}

/** The one sentence of what the target needs besides the rows (never a secret's value). */
function whatToCarry(ctx: AppContext, secrets: number): string {
  const source = sealingKeySource(ctx.config.secretKey !== undefined, ctx.database.engine === 'sqlite' ? ctx.database.location : undefined);
  if (secrets === 0 && source.kind === 'file' && !fs.existsSync(source.file))
    // Generated on first use: nothing was sealed, so there is no file to carry.
    return `no two-factor secrets to carry: set SECRET_KEY in the target's env file to a new key (\`openssl rand -base64 32\`), so that the ones sealed from now on do not depend on JWT_SECRET (docs/operations.md, "Moving to PostgreSQL")`;
  const value = source.kind === 'file' ? `the contents of ${source.file}` : "this install's SECRET_KEY";
  return `copied ${secrets} two-factor secrets sealed under this install's secret key: set SECRET_KEY in the target's env file to ${value} (docs/operations.md, "Moving to PostgreSQL")`;
}
