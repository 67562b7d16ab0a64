// `timetrack user …`: accounts from the shell, through the same services as the API.
import type { Command } from 'commander';
import type { AccountSummary } from '../auth/users.js';
import { databaseLine, runAdminCommand, withCommandContext, type GlobalOptions } from './command-context.js';
import { UsageError } from './errors.js';
import { printJson, printLines, printTable } from './output.js';
import { askForMissingAccountFields, askForNewPassword, type AccountFlags } from './user-input.js';

function summaryJson(summary: AccountSummary) {
  return { ...summary.user, status: summary.status, failed_attempts: summary.failed_attempts, locked_until: summary.locked_until, active_sessions: summary.active_sessions };
}

export function registerUserCommand(program: Command): void {
  const user = program.command('user').description('manage accounts: create, list, show, set-password, update, unlock, disable, enable, delete');

  user
    .command('create')
    .description('create an account (the same checks and hashing as registration); asks for what is missing on a terminal')
    .option('--email <email>', 'e-mail address (the login)')
    .option('--name <name>', 'full name')
    .option('--username <username>', 'optional username (3-32 letters, digits, . _ -), also accepted at login')
    .option('--password-stdin', 'read the password from standard input (one line) instead of asking')
    .addHelpText('after', `
Examples:
  $ timetrack user create                                   # asks for everything, password hidden, twice
  $ printf '%s\\n' "$PASSWORD" | timetrack user create --email ann@example.com --name "Ann" --password-stdin`)
    .action(async (flags: AccountFlags, command: Command) => {
      // Asked before the database is opened: a person at the prompt holds no lock.
      const input = await askForMissingAccountFields(flags);
      await runAdminCommand(command, async (ctx) => {
        const created = await ctx.services.accounts.createAccount(input);
        return { json: { user: created }, text: [`created account ${created.email} (id ${created.id})`] };
      });
    });

  user
    .command('list')
    .description('every account with status, failed attempts, lock end and active sessions')
    .action(async (_options: object, command: Command) => {
      const global = command.optsWithGlobals<GlobalOptions>();
      const { accounts, database } = await withCommandContext(global, async (ctx) => ({
        accounts: await ctx.services.accountAdmin.listAccounts(),
        database: databaseLine(ctx),
      }));
      if (global.json) return printJson({ users: accounts.map(summaryJson) });
      printTable(
        ['email', 'name', 'status', 'failed attempts', 'locked until', 'active sessions'],
        accounts.map((a) => [a.user.email, a.user.full_name, a.status, String(a.failed_attempts), a.locked_until ?? '-', String(a.active_sessions)]),
      );
      printLines(database);
    });

  user
    .command('show')
    .description('one account in detail')
    .argument('<account>', 'e-mail address or username of the account')
    .action((account: string, _options: object, command: Command) =>
      runAdminCommand(command, async (ctx) => {
        const s = summaryJson(await ctx.services.accountAdmin.showAccount(account));
        return {
          json: { user: s },
          text: [
            `id:              ${s.id}`,
            `email:           ${s.email}`,
            `name:            ${s.full_name}`,
            `username:        ${s.username ?? '-'}`,
            `created:         ${s.created_at}`,
            `status:          ${s.status}`,
            `failed attempts: ${s.failed_attempts}`,
            `locked until:    ${s.locked_until ?? '-'}`,
            `active sessions: ${s.active_sessions}`,
          ],
        };
      }),
    );

  user
    .command('set-password')
    .description('set a new password (the checks of registration); revokes the sessions and pending reset tokens of the account and clears its lock')
    .argument('<account>', 'e-mail address or username of the account')
    .option('--password-stdin', 'read the password from standard input (one line) instead of asking')
    .addHelpText('after', `
Examples:
  $ timetrack user set-password ann@example.com             # asks twice, input hidden
  $ printf '%s\\n' "$PASSWORD" | timetrack user set-password ann --password-stdin`)
    .action(async (account: string, options: { passwordStdin?: boolean }, command: Command) => {
      // Asked before the database is opened: a person at the prompt holds no lock.
      const password = await askForNewPassword(options);
      await runAdminCommand(command, async (ctx) => {
        const { user: changed, revokedSessions } = await ctx.services.accountAdmin.setPassword(account, password);
        return {
          json: { user: changed, revoked_sessions: revokedSessions },
          text: [`set the password of ${changed.email}; revoked ${revokedSessions} session(s) and any pending reset token; lock cleared`],
        };
      });
    });

  user
    .command('update')
    .description('change the e-mail address, name or username of an account (the checks of registration)')
    .argument('<account>', 'e-mail address or username of the account')
    .option('--email <email>', 'new e-mail address (the login)')
    .option('--name <name>', 'new full name')
    .option('--username <username>', 'new username; an empty value removes it')
    .action((account: string, options: { email?: string; name?: string; username?: string }, command: Command) => {
      if (options.email === undefined && options.name === undefined && options.username === undefined) {
        throw new UsageError('user update needs at least one of --email, --name, --username');
      }
      return runAdminCommand(command, async (ctx) => {
        const updated = await ctx.services.accountAdmin.updateAccount(account, {
          email: options.email,
          full_name: options.name,
          username: options.username === undefined ? undefined : options.username.trim() === '' ? null : options.username,
        });
        return {
          json: { user: updated },
          text: [`updated account ${updated.id}: ${updated.email}, ${updated.full_name}, username ${updated.username ?? '-'}`],
        };
      });
    });

  user
    .command('unlock')
    .description('clear the failed-attempt count and the lock; works while serve runs')
    .argument('<account>', 'e-mail address or username of the account')
    .action((account: string, _options: object, command: Command) =>
      runAdminCommand(command, async (ctx) => {
        const unlocked = await ctx.services.accountAdmin.unlockAccount(account);
        return { json: { user: unlocked, unlocked: true }, text: [`unlocked ${unlocked.email}`] };
      }),
    );

  user
    .command('disable')
    .description('disable the account: its sessions are revoked, login answers 403 ACCOUNT_DISABLED')
    .argument('<account>', 'e-mail address or username of the account')
    .action((account: string, _options: object, command: Command) =>
      runAdminCommand(command, async (ctx) => {
        const { user: disabled, revokedSessions } = await ctx.services.accountAdmin.disableAccount(account);
        return {
          json: { user: disabled, status: 'disabled', revoked_sessions: revokedSessions },
          text: [`disabled ${disabled.email}; revoked ${revokedSessions} session(s)`],
        };
      }),
    );

  user
    .command('enable')
    .description('make a disabled account active again')
    .argument('<account>', 'e-mail address or username of the account')
    .action((account: string, _options: object, command: Command) =>
      runAdminCommand(command, async (ctx) => {
        const { user: enabled } = await ctx.services.accountAdmin.enableAccount(account);
        return { json: { user: enabled, status: 'active' }, text: [`enabled ${enabled.email}`] };
      }),
    );

  user
    .command('delete')
    .description('delete the account and everything that is its own (sessions, reset tokens, time data), in one transaction')
    .argument('<account>', 'e-mail address or username of the account')
    .option('--yes', 'confirm the deletion (required: there is no undo)')
    .action(async (account: string, options: { yes?: boolean }, command: Command) => {
      if (!options.yes) throw new UsageError(`refusing to delete ${account} without --yes (there is no undo)`);
      await runAdminCommand(command, async (ctx) => {
        const deleted = await ctx.services.accountAdmin.deleteAccount(account);
        return { json: { deleted }, text: [`deleted ${deleted.email} and everything that belonged to it`] };
      });
    });
}
