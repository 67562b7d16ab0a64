// `timetrack token …`: session records, and with --api the API tokens of scripts. Revoking deletes
// records, so the next request with those tokens answers 401 on every server process that uses the database.
import type { Command } from 'commander';
import { hashToken } from '../auth/sessions/index.js';
import { databaseLine, recordAdminAction, runAdminCommand, withCommandContext, type GlobalOptions } from './command-context.js';
import { UsageError } from './errors.js';
import { ServiceError } from '../common/errors.js';
import { printJson, printLines, printTable } from './output.js';

interface RevokeOptions {
  api?: boolean;
  id?: string;
  user?: string;
  token?: string;
  all?: boolean;
}

async function readStdin(): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8').trim();
}

/** `timetrack token revoke` */
function revokeCommand(token: Command): void {
  token
    .command('revoke')
    .description('delete session records (or with --api API tokens): of one token, of one account, or all; later use of them gives 401')
    .option('--api', 'API tokens of scripts instead of sessions (ids from `token list --api`)')
    .option('--id <id>', 'the session (or API token) with this id (from `token list`): one device, not the others')
    .option('--token <jwt>', 'the session of this token; "-" reads it from standard input (keeps it off the command line and out of the shell history)')
    .option('--user <account>', 'every session and API token of this account (e-mail or username)')
    .option('--all', 'every session and API token of every account')
    .addHelpText(
      'after',
      `
Exactly one of --id, --token, --user, --all. Examples:
  $ timetrack token revoke --id 42
  $ timetrack token revoke --token - < token.txt
  $ timetrack token revoke --user ann@example.com
  $ timetrack token revoke --all --json
  $ timetrack token revoke --api --id 7                   # one API token
  $ timetrack token revoke --api --user ann@example.com   # every API token of the account`,
    )
    .action(async (options: RevokeOptions, command: Command) => {
      const chosen = [options.id !== undefined, options.token !== undefined, options.user !== undefined, options.all === true].filter(Boolean).length;
      if (chosen !== 1) throw new UsageError('token revoke takes exactly one of --id <id>, --token <jwt>, --user <email>, --all');
      const id = options.id === undefined ? undefined : Number(options.id);
      if (id !== undefined && !(Number.isInteger(id) && id > 0)) throw new UsageError('--id takes a session id from `token list` (a whole number)');
      if (options.api) return revokeApiTokens(command, options, id);
      await runAdminCommand(command, async (ctx) => {
        const { sessions, users, apiTokens } = ctx.services;
        let revoked: number;
        // --user and --all end every credential, API tokens too: after a breach no standing credential stays.
        let revokedApiTokens: number | undefined;
        if (id !== undefined) {
          const revokedSession = await sessions.revokeSessionById(id);
          if (!revokedSession) throw new ServiceError('NOT_FOUND', `no session with the id ${id}`);
          revoked = 1;
          await recordAdminAction(ctx, {
            action: 'sessions_revoked',
            user: await users.userById(revokedSession.userId),
            detail: { by: 'id', session_id: id, revoked },
          });
        } else if (options.token !== undefined) {
          const revokedSession = await sessions.revokeSessionByHash(hashToken(options.token === '-' ? await readStdin() : options.token.trim()));
          revoked = revokedSession ? 1 : 0;
          const user = revokedSession ? await users.userById(revokedSession.userId) : undefined;
          await recordAdminAction(ctx, {
            action: 'sessions_revoked',
            user,
            detail: { by: 'token', ...(revokedSession ? { session_id: revokedSession.id } : {}), revoked },
          });
        } else if (options.user !== undefined) {
          const account = await users.requireUser(options.user);
          revoked = await sessions.revokeSessionsOfUser(account.id);
          revokedApiTokens = await apiTokens.revokeTokensOfUser(account.id);
          await recordAdminAction(ctx, { action: 'sessions_revoked', user: account, detail: { by: 'user', revoked, revoked_api_tokens: revokedApiTokens } });
        } else {
          revoked = await sessions.revokeAllSessions();
          revokedApiTokens = await apiTokens.revokeAllTokens();
          await recordAdminAction(ctx, { action: 'sessions_revoked', detail: { by: 'all', revoked, revoked_api_tokens: revokedApiTokens } });
        }
        if (revokedApiTokens === undefined) return { json: { revoked }, text: [`revoked ${revoked} session(s)`] };
        return { json: { revoked, revoked_api_tokens: revokedApiTokens }, text: [`revoked ${revoked} session(s) and ${revokedApiTokens} API token(s)`] };
      });
    });
}

/** `timetrack token list` */
function listCommand(token: Command): void {
  token
    .command('list')
    .description(
      'the active sessions of an account: id, created, expires, client address and user agent at sign-in (never the token, which is not stored); with --api the API tokens',
    )
    .option('--user <email>', "the account (required for sessions; with --api only that account's tokens)")
    .option('--api', 'API tokens of scripts instead of sessions: id, account, name, created, expires, last used')
    .addHelpText('after', '\nExamples:\n  timetrack token list --user ann@example.com --json\n  timetrack token list --api')
    .action(async (options: { user?: string; api?: boolean }, command: Command) => {
      const global = command.optsWithGlobals<GlobalOptions>();
      if (options.api) return listApiTokens(global, options.user);
      if (options.user === undefined) throw new UsageError('token list needs --user <email> (or --api for API tokens)');
      const account = options.user;
      await withCommandContext(global, async (ctx) => {
        const user = await ctx.services.users.requireUser(account);
        const sessions = await ctx.services.sessions.listSessionsOfUser(user.id);
        if (global.json) return printJson({ sessions });
        if (sessions.length === 0) return printLines(`${user.email} has no active sessions`, databaseLine(ctx));
        printTable(
          ['id', 'created', 'expires', 'client', 'user agent'],
          sessions.map((s) => [String(s.id), s.created_at, s.expires_at, s.client_address ?? '-', s.user_agent ?? '-']),
        );
        printLines(databaseLine(ctx));
      });
    });
}

export function registerTokenCommand(program: Command): void {
  const token = program.command('token').description('list and revoke sessions and API tokens');
  revokeCommand(token);
  listCommand(token);
}

async function listApiTokens(global: GlobalOptions, account: string | undefined): Promise<void> {
  await withCommandContext(global, async (ctx) => {
    const user = account === undefined ? undefined : await ctx.services.users.requireUser(account);
    const tokens = await ctx.services.apiTokens.listAllTokens(user?.id);
    if (global.json) return printJson({ api_tokens: tokens });
    if (tokens.length === 0) return printLines(user ? `${user.email} has no API tokens` : 'no API tokens', databaseLine(ctx));
    printTable(
      ['id', 'account', 'name', 'created', 'expires', 'last used'],
      tokens.map((t) => [String(t.id), t.user_email, t.name, t.created_at, t.expires_at, t.last_used_at ?? '-']),
    );
    printLines(databaseLine(ctx));
  });
}

async function revokeApiTokens(command: Command, options: RevokeOptions, id: number | undefined): Promise<void> {
  await runAdminCommand(command, async (ctx) => {
    const { apiTokens, users } = ctx.services;
    let revoked: number;
    if (id !== undefined) {
      const revokedToken = await apiTokens.revokeTokenById(id);
      if (!revokedToken) throw new ServiceError('NOT_FOUND', `no API token with the id ${id}`);
      revoked = 1;
      await recordAdminAction(ctx, { action: 'api_token_revoked', detail: { by: 'id', api_token_id: id, user_id: revokedToken.userId, revoked } });
    } else if (options.token !== undefined) {
      revoked = await apiTokens.revokeTokenByHash(hashToken(options.token === '-' ? await readStdin() : options.token.trim()));
      await recordAdminAction(ctx, { action: 'api_token_revoked', detail: { by: 'token', revoked } });
    } else if (options.user !== undefined) {
      const account = await users.requireUser(options.user);
      revoked = await apiTokens.revokeTokensOfUser(account.id);
      await recordAdminAction(ctx, { action: 'api_token_revoked', user: account, detail: { by: 'user', revoked } });
    } else {
      revoked = await apiTokens.revokeAllTokens();
      await recordAdminAction(ctx, { action: 'api_token_revoked', detail: { by: 'all', revoked } });
    }
    return { json: { revoked }, text: [`revoked ${revoked} API token(s)`] };
  });
}
