// The `timetrack` program. Command modules return or throw; only this entry point turns errors
// into exit codes: 0 success, 1 failure (one line on stderr), 2 usage error.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Command, CommanderError } from 'commander';
import { ConfigError } from '../config.js';
import { MigrationError } from '../db/migrate.js';
import { ServiceError } from '../shared/errors.js';
import { SecretFileError } from '../auth/secret.js';
import { registerAuditCommand } from './audit.js';
import { registerEntriesCommand } from './entries.js';
import { UsageError } from './errors.js';
import { registerMigrateCommand } from './migrate.js';
import { registerResetCommand } from './reset.js';
import { registerServeCommand } from './serve.js';
import { registerTokenCommand } from './token.js';
import { registerUserCommand } from './user.js';

/** The version in package.json, found upwards from this file (dist/cli in the bundle, src/cli in tests). */
function packageVersion(): string {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (fs.existsSync(file)) {
      const manifest = JSON.parse(fs.readFileSync(file, 'utf8')) as { name?: string; version: string };
      if (manifest.name === 'timetrack') return manifest.version;
    }
    if (path.dirname(dir) === dir) return 'unknown';
  }
}

export function buildProgram(): Command {
  const program = new Command('timetrack')
    .description('Self-hosted time tracking: the HTTP API (serve) and the admin commands that share its database')
    .version(packageVersion(), '-V, --version')
    .option('--db <path>', 'SQLite database file (env TIMETRACK_DB, default ./data/timetrack.db)')
    .option('--env-file <path>', 'read settings from this file (the environment wins over it)')
    .option('--json', 'machine-readable output on stdout')
    .option('--verbose', 'print details on stderr: the stack trace of an unexpected error, how long an import held the write lock')
    .showHelpAfterError('(run with --help for usage)')
    .exitOverride();
  registerServeCommand(program);
  registerMigrateCommand(program);
  registerUserCommand(program);
  registerTokenCommand(program);
  registerResetCommand(program);
  registerEntriesCommand(program);
  registerAuditCommand(program);
  return program;
}

/** Errors a user can act on: their message is the whole story. */
function isExpectedError(error: unknown): error is Error {
  return (
    error instanceof ServiceError ||
    error instanceof ConfigError ||
    error instanceof MigrationError ||
    error instanceof SecretFileError
  );
}

export async function main(argv: string[]): Promise<number> {
  const program = buildProgram();
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version "errors" are successes; commander has already printed the message.
      if (['commander.helpDisplayed', 'commander.help', 'commander.version'].includes(error.code)) return 0;
      return 2;
    }
    if (error instanceof UsageError) {
      process.stderr.write(`timetrack: ${error.message}\n`);
      return 2;
    }
    if (isExpectedError(error)) {
      process.stderr.write(`timetrack: ${error.message}\n`);
      return 1;
    }
    const verbose = program.opts<{ verbose?: boolean }>().verbose;
    const detail = error instanceof Error ? (verbose ? (error.stack ?? error.message) : error.message) : String(error);
    process.stderr.write(`timetrack: unexpected error: ${detail}\n`);
    return 1;
  }
}
