// The `timetrack` program. Command modules return or throw; only this entry point turns errors
// into exit codes (errors.ts: 0 success, 1 failure, 2 usage, 3 not found, 4 database busy, 130
// aborted) and one line on stderr.
import { Command, CommanderError } from 'commander';
import { registerAuditCommand } from './audit.js';
import { registerBackupCommands } from './backup.js';
import { registerBalanceCommand } from './balance.js';
import { registerReportCommand } from './report.js';
import { registerCheckCommand } from './check.js';
import { registerConfigCommand } from './config-command.js';
import { registerDbCommand } from './db.js';
import { registerEntriesCommand } from './entries.js';
import { describeFailure, EXIT_CODES } from './errors.js';
import { adoptServiceEnvFile } from './env-file.js';
import { registerMigrateCommand } from './migrate.js';
import { registerResetCommand } from './reset.js';
import { registerServeCommand } from './serve.js';
import { registerTokenCommand } from './token.js';
import { registerUserCommand } from './user.js';
import { registerTeamCommand } from './team.js';
import { registerRequestCommand } from './request.js';
import { registerMonthCommand } from './month.js';
import { versionLine } from '../version.js';
import { stdoutRole, terminalSafe } from './output.js';

export function buildProgram(): Command {
  const program = new Command('timetrack')
    .description('Self-hosted time tracking: the HTTP API (serve) and the admin commands that share its database')
    .version(versionLine(), '-V, --version', 'print the version and the commit it was built from')
    .option('--db <path>', 'SQLite database file (env TIMETRACK_DB, default ./data/timetrack.db)')
    .option('--database-url <url>', 'PostgreSQL database instead of a SQLite file: postgres://user:password@host:5432/db (env DATABASE_URL)')
    .option('--env-file <path>', 'read settings from this file (the environment wins over it)')
    .option('--json', 'machine-readable output on stdout')
    .option('--force', 'act on a database file owned by another user than the one running the command')
    .option('--verbose', 'print details on stderr: the stack trace of an unexpected error, how long an import held the write lock')
    .showHelpAfterError('(run with --help for usage)')
    // Subcommands inherit this: their --help lists --db, --env-file and --json too.
    .configureHelp({ showGlobalOptions: true })
    .exitOverride()
    // A command (not a group's help) acts on the service's database when nothing else names one.
    .hook('preAction', (_program, action) => {
      if (action.commands.length === 0) adoptServiceEnvFile(program);
    });
  registerServeCommand(program);
  registerMigrateCommand(program);
  registerUserCommand(program);
  registerTeamCommand(program);
  registerRequestCommand(program);
  registerMonthCommand(program);
  registerTokenCommand(program);
  registerResetCommand(program);
  registerEntriesCommand(program);
  registerBalanceCommand(program);
  registerReportCommand(program);
  registerBackupCommands(program);
  registerConfigCommand(program);
  registerCheckCommand(program);
  registerDbCommand(program);
  registerAuditCommand(program);
  for (const [name, example] of Object.entries(EXAMPLES)) {
    const [group, leaf] = name.split(' ');
    const command = program.commands.find((c) => c.name() === group);
    const target = leaf ? command?.commands.find((c) => c.name() === leaf) : command;
    target?.addHelpText('after', `\nExample:\n  $ ${example}`);
  }
  helpWhenBare(program);
  return program;
}

/** One example per command whose definition does not carry its own. */
const EXAMPLES: Record<string, string> = {
  serve: 'timetrack serve --host 0.0.0.0 --port 8080',
  'user list': 'timetrack user list --json',
  'user show': 'timetrack user show ann@example.com',
  'user unlock': 'timetrack user unlock ann@example.com',
  'user disable': 'timetrack user disable ann@example.com',
  'user enable': 'timetrack user enable ann@example.com',
  'user delete': 'timetrack user delete ann@example.com --yes',
  'entries export': 'timetrack entries export --user ann@example.com --from 2026-01-01 > entries.csv',
};

/**
 * `timetrack` and `timetrack user` alone print their help on stdout (exit 0), as asked for; a word
 * that is no command is still a usage error.
 */
function helpWhenBare(command: Command): void {
  if (command.commands.length === 0) return;
  command.allowExcessArguments(true).action((_options: object, self: Command) => {
    if (self.args.length > 0) self.error(`error: unknown command '${self.args[0]}'`, { code: 'commander.unknownCommand' });
    self.help();
  });
  command.commands.forEach(helpWhenBare);
}

/** --json anywhere before `--`: errors are then JSON too, even when parsing failed before commander read it. */
function wantsJson(argv: string[]): boolean {
  const end = argv.indexOf('--');
  return (end === -1 ? argv : argv.slice(0, end)).includes('--json');
}

function reportFailure(json: boolean, code: string, message: string): void {
  if (json) process.stderr.write(`${JSON.stringify({ error: { code, message } })}\n`);
  else process.stderr.write(`timetrack: ${terminalSafe(message)}\n`);
}

/**
 * stdout's reader went away (`timetrack user list | head -1`): the rest is not wanted. The command
 * ends quietly with success, as a pipe's writer does in a pipeline, instead of a stack or a sentence
 * about the database (EPIPE is also a network error of a database connection). Not for `serve`,
 * whose stdout is its log (output.ts, stdoutRole).
 */
function endQuietlyOnClosedPipe(): () => boolean {
  let closed = false;
  process.stdout.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'EPIPE' || stdoutRole.log) throw error;
    closed = true;
    process.exit(EXIT_CODES.success);
  });
  return () => closed || process.stdout.destroyed;
}

export async function main(argv: string[]): Promise<number> {
  const json = wantsJson(argv);
  const stdoutClosed = endQuietlyOnClosedPipe();
  const program = buildProgram();
  // With --json, commander's own messages (unknown option, missing argument) come out as JSON below.
  if (json) {
    const silence = (command: Command): void => {
      command.configureOutput({ outputError: () => {} }).showHelpAfterError(false);
      command.commands.forEach(silence);
    };
    silence(program);
  }
  try {
    await program.parseAsync(argv);
    return EXIT_CODES.success;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version "errors" are successes; commander has already printed the message.
      if (['commander.helpDisplayed', 'commander.help', 'commander.version'].includes(error.code)) return EXIT_CODES.success;
      if (json) reportFailure(true, 'USAGE_ERROR', error.message.replace(/^error: /, ''));
      return EXIT_CODES.usage;
    }
    if ((error as { code?: unknown } | null)?.code === 'EPIPE' && stdoutClosed()) return EXIT_CODES.success;
    const failure = describeFailure(error);
    if (failure) {
      reportFailure(json, failure.code, failure.message);
      return failure.exitCode;
    }
    const verbose = program.opts<{ verbose?: boolean }>().verbose;
    const detail = error instanceof Error ? (verbose ? (error.stack ?? error.message) : error.message) : String(error);
    reportFailure(json, 'UNEXPECTED_ERROR', `unexpected error: ${detail}`);
    return EXIT_CODES.failure;
  }
}
