// `timetrack token …`: session records. Revoking deletes records, so the next request with those
// tokens answers 401 on every server process that uses the database.
import type { Command } from 'commander';
import { hashToken } from '../auth/sessions.js';
import { runAdminCommand, withCommandContext, type GlobalOptions } from './command-context.js';
import { UsageError } from './errors.js';
import { printJson, printLines, printTable } from './output.js';

interface RevokeOptions {
  user?: string;
  token?: string;
  all?: boolean;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').trim();
}

export function registerTokenCommand(program: Command): void {
  const token = program.command('token').description('list and revoke sessions');

  token
    .command('revoke')
    .description('delete session records: of one token, of one account, or all; later use of them gives 401')
    .option('--token <jwt>', 'the session of this token; "-" reads it from standard input (keeps it off the command line and out of the shell history)')
    .option('--user <email>', 'every session of this account')
    .option('--all', 'every session of every account')
    .addHelpText('after', `
Exactly one of --token, --user, --all. Examples:
  $ timetrack token revoke --token - < token.txt
  $ timetrack token revoke --user ann@example.com
  $ timetrack token revoke --all --json`)
    .action(async (options: RevokeOptions, command: Command) => {
      const chosen = [options.token !== undefined, options.user !== undefined, options.all === true].filter(Boolean).length;
      if (chosen !== 1) throw new UsageError('token revoke takes exactly one of --token <jwt>, --user <email>, --all');
      await runAdminCommand(command, async (ctx) => {
        const { sessions, users } = ctx.services;
        let revoked: number;
        if (options.token !== undefined) revoked = await sessions.revokeSession(hashToken(options.token === '-' ? await readStdin() : options.token.trim()));
        else if (options.user !== undefined) revoked = await sessions.revokeSessionsOfUser((await users.requireUser(options.user)).id);
        else revoked = await sessions.revokeAllSessions();
        return { json: { revoked }, text: [`revoked ${revoked} session(s)`] };
      });
    });

  token
    .command('list')
    .description('the active sessions of an account: created and expires (never the token, which is not stored)')
    .requiredOption('--user <email>', 'the account')
    .action(async (options: { user: string }, command: Command) => {
      const global = command.optsWithGlobals<GlobalOptions>();
      await withCommandContext(global, async (ctx) => {
        const user = await ctx.services.users.requireUser(options.user);
        const sessions = await ctx.services.sessions.listSessionsOfUser(user.id);
        if (global.json) return printJson({ sessions });
        if (sessions.length === 0) return printLines(`${user.email} has no active sessions`);
        printTable(['id', 'created', 'expires'], sessions.map((s) => [String(s.id), s.created_at, s.expires_at]));
      });
    });
}
