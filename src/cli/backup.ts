import fs from 'node:fs';
import path from 'node:path';
// `timetrack backup <file>` and `timetrack restore <file>`.
import type { Command } from 'commander';
import { loadConfig } from '../config/index.js';
import { checksumFileOf, restoreDatabase } from '../db/sqlite-backup.js';
import { BackupError, maskDatabaseUrl, MigrationError } from '../db/database.js';
import { databaseLine, databaseOverrides, readEnvironment, recordAdminAction, withCommandContext, type GlobalOptions } from './command-context.js';
import { assertOwnerOrForced } from './file-owner.js';
import { printOutput } from './output.js';
import { lockDatabaseFile } from '../db/file-lock.js';

/** `timetrack backup` */
function backupCommand(program: Command): void {
  program
    .command('backup')
    .description('write a consistent copy of the database to a new file (mode 0600), also while serve runs, then check the copy')
    .argument('<file>', 'the new file (must not exist)')
    .addHelpText(
      'after',
      `
Example (a daily copy; keep them off the server too):
  $ sudo -u timetrack timetrack --env-file /etc/timetrack/timetrack.env backup /var/lib/timetrack/backups/$(date +%F).db`,
    )
    .action(async (file: string, _options: object, command: Command) => {
      const global = command.optsWithGlobals<GlobalOptions>();
      const output = await withCommandContext(
        global,
        async (ctx) => {
          const result = await ctx.database.backup(file);
          const checked = ctx.database.engine === 'sqlite' ? `; integrity check ok; SHA-256 in ${checksumFileOf(result.path)}` : ' (pg_dump, custom format)';
          return {
            json: {
              path: result.path,
              bytes: result.bytes,
              duration_ms: result.durationMs,
              ...(ctx.database.engine === 'sqlite' ? { checksum_file: checksumFileOf(result.path) } : {}),
            },
            text: [`backed up to ${result.path} (${result.bytes} bytes, ${result.durationMs} ms)${checked}`, databaseLine(ctx)],
          };
        },
        { skipSchemaCheck: true },
      );
      printOutput(output, global.json);
    });
}

/** `timetrack restore` */
function restoreCommand(program: Command): void {
  program
    .command('restore')
    .description('replace the database by a backup (checked first); refused while a server runs on the database')
    .argument('<file>', 'a file written by `timetrack backup`')
    .option('--no-checksum', 'restore a backup without its .sha256 beside it (one made before 0.2.0); integrity and schema are still checked')
    .addHelpText(
      'after',
      `
Stop the service first; then run \`timetrack migrate\` if the backup is older than this version:
  $ systemctl stop timetrack
  $ sudo -u timetrack timetrack --env-file /etc/timetrack/timetrack.env restore /var/lib/timetrack/backups/2026-11-20.db
  $ systemctl start timetrack`,
    )
    .action(async (file: string, options: { checksum: boolean }, command: Command) => {
      const global = command.optsWithGlobals<GlobalOptions>();
      const { database } = loadConfig(readEnvironment(global.envFile), databaseOverrides(global));
      if (database.engine === 'postgres') {
        // Other processes, on other machines too, may be using the database: only the operator can stop them all.
        // The printed command never carries the password: pg_restore reads it from PGPASSWORD or ~/.pgpass.
        const url = new URL(database.url);
        const password = url.password !== '' ? ' with the password in PGPASSWORD or ~/.pgpass' : '';
        url.password = '';
        throw new BackupError(
          `on PostgreSQL, stop every serve process, then restore with pg_restore${password} (docs/operations.md): pg_restore --clean --if-exists --no-owner --single-transaction --dbname "${maskDatabaseUrl(url.toString())}" ${file}`,
        );
      }
      const dbPath = database.path;
      assertOwnerOrForced(dbPath, global.force);
      fs.mkdirSync(path.dirname(dbPath), { recursive: true, mode: 0o700 });
      // Held while the file is replaced: a server cannot start meanwhile, and none runs now.
      const lock = await lockDatabaseFile(dbPath, 'restore');
      let result;
      let audited: boolean;
      try {
        result = await restoreDatabase(file, dbPath, { checksum: options.checksum ? 'required' : 'if present' });
        // The restore goes into the restored database's own audit trail, while no server can start yet.
        audited = await withCommandContext(global, async (ctx) => {
          await recordAdminAction(ctx, {
            action: 'database_restored',
            detail: { from: path.resolve(file), bytes: result!.bytes, sha256: result!.sha256, checksum_verified: result!.checksumVerified },
          });
          return true;
        }).catch((error: unknown) => {
          if (error instanceof MigrationError) return false;
          throw error;
        });
      } finally {
        lock.release();
      }
      const { bytes, checksumVerified } = result;
      const checksum = checksumVerified ? 'checksum ok' : `no ${checksumFileOf(file)} (--no-checksum): checksum not verified`;
      const notRecorded = 'the restore is not in the audit trail: the backup is from an older version (run `timetrack migrate`)';
      printOutput(
        {
          json: { restored: file, bytes, checksum_verified: checksumVerified, audited },
          text: [`restored ${file} (${bytes} bytes); ${checksum}; integrity check ok; schema ok`, ...(audited ? [] : [notRecorded]), `database: ${dbPath}`],
        },
        global.json,
      );
    });
}

export function registerBackupCommands(program: Command): void {
  backupCommand(program);
  restoreCommand(program);
}
