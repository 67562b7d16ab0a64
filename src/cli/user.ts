// `timetrack user …`: accounts from the shell, through the same services as the API.
import type { Command } from 'commander';
import type { AccountSummary } from '../auth/accounts/users.js';
import { databaseLine, recordAdminAction, runAdminCommand, withCommandContext, type GlobalOptions } from './command-context.js';
import { UsageError } from './errors.js';
import { ServiceError } from '../common/errors.js';
import { printJson, printLines, printTable } from './output.js';
import { exportCommand, importCommand } from './user-transfer.js';
import { parseRole, roleCommand } from './user-role.js';
import { inviteCommand } from './user-invite.js';
import { askForMissingAccountFields, askForNewPassword, type AccountFlags } from './user-input.js';

/** The one user object of list, show, unlock, disable and enable (docs/cli.md). */
function summaryJson({ user, last_sign_in_at: _lastSignIn, ...account }: AccountSummary) {
  // The fields in AccountSummary's order: role, status, failed_attempts, locked_until, active_sessions, two_factor.
  return { ...user, ...account };
}

/** `timetrack user create` */
function createCommand(user: Command): void {
  user
    .command('create')
    .description('create an account (the same checks and hashing as registration); asks for what is missing on a terminal')
    .option('--email <email>', 'e-mail address (the login)')
    .option('--name <name>', 'full name')
    .option('--username <username>', 'optional username (3-32 letters, digits, . _ -), also accepted at login')
    .option('--role <role>', 'admin, lead or member (the default; docs/teams.md)')
    .option(
      '--password-stdin',
      'read the password from standard input: exactly one line (a second line is an error); on a terminal it is asked instead, hidden and twice',
    )
    .addHelpText(
      'after',
      `
Examples:
  $ timetrack user create                                   # asks for everything, password hidden, twice
  $ printf '%s\\n' "$PASSWORD" | timetrack user create --email ann@example.com --name "Ann" --password-stdin`,
    )
    .action(async (flags: AccountFlags & { role?: string }, command: Command) => {
      const role = parseRole(flags.role ?? 'member');
      // The database is open while a person answers (to refuse a taken address at its prompt), but
      // no transaction is: the prompts hold no lock.
      await runAdminCommand(command, async (ctx) => {
        const input = await askForMissingAccountFields(flags, async (email) => {
          try {
            await ctx.services.users.requireUser(email);
            return true;
          } catch (error) {
            if (error instanceof ServiceError && error.code === 'USER_NOT_FOUND') return false;
            throw error;
          }
        });
        const created = await ctx.services.accounts.createAccount(input);
        if (role !== 'member') await ctx.services.people.setRole(created.id, role);
        const detail = role === 'member' ? { username: created.username } : { username: created.username, role };
        await recordAdminAction(ctx, { action: 'account_created', user: created, detail });
        return { json: { user: created }, text: [`created account ${created.email} (id ${created.id})`] };
      });
    });
}

/** `timetrack user list` */
function listCommand(user: Command): void {
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
        ['email', 'name', 'role', 'status', 'failed attempts', 'locked until', 'active sessions', 'two-factor'],
        accounts.map((a) => [
          a.user.email,
          a.user.full_name,
          a.role,
          a.status,
          String(a.failed_attempts),
          a.locked_until ?? '-',
          String(a.active_sessions),
          a.two_factor ? 'on' : 'off',
        ]),
      );
      printLines(database);
    });
}

/** `timetrack user show` */
function showCommand(user: Command): void {
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
            `role:            ${s.role}`,
            `status:          ${s.status}`,
            `failed attempts: ${s.failed_attempts}`,
            `locked until:    ${s.locked_until ?? '-'}`,
            `active sessions: ${s.active_sessions}`,
            `two-factor:      ${s.two_factor ? 'on' : 'off'}`,
          ],
        };
      }),
    );
}

/** `timetrack user set-password` */
function setPasswordCommand(user: Command): void {
  user
    .command('set-password')
    .description('set a new password (the checks of registration); revokes the sessions and pending reset tokens of the account and clears its lock')
    .argument('<account>', 'e-mail address or username of the account')
    .option(
      '--password-stdin',
      'read the password from standard input: exactly one line (a second line is an error); on a terminal it is asked instead, hidden and twice',
    )
    .addHelpText(
      'after',
      `
Examples:
  $ timetrack user set-password ann@example.com             # asks twice, input hidden
  $ printf '%s\\n' "$PASSWORD" | timetrack user set-password ann --password-stdin`,
    )
    .action(async (account: string, options: { passwordStdin?: boolean }, command: Command) => {
      // Asked before the database is opened: a person at the prompt holds no lock.
      const password = await askForNewPassword(options);
      await runAdminCommand(command, async (ctx) => {
        const { user: changed, revokedSessions } = await ctx.services.accountAdmin.setPassword(account, password);
        await recordAdminAction(ctx, {
          action: 'password_set',
          user: changed,
          detail: { revoked_sessions: revokedSessions, reset_tokens: 'voided', lock: 'cleared' },
        });
        return {
          json: { user: changed, revoked_sessions: revokedSessions },
          text: [`set the password of ${changed.email}; revoked ${revokedSessions} session(s) and any pending reset token; lock cleared`],
        };
      });
    });
}

/** `timetrack user update` */
function updateCommand(user: Command): void {
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
        const before = await ctx.services.users.requireUser(account);
        const updated = await ctx.services.accountAdmin.updateAccount(before.email, {
          email: options.email,
          full_name: options.name,
          username: options.username === undefined ? undefined : options.username.trim() === '' ? null : options.username,
        });
        // What changed, from and to (a name is personal data too, but no secret); the account under its new address.
        const changes: Record<string, { from: string | null; to: string | null }> = {};
        if (before.email !== updated.email) changes.email = { from: before.email, to: updated.email };
        if (before.full_name !== updated.full_name) changes.full_name = { from: before.full_name, to: updated.full_name };
        if (before.username !== updated.username) changes.username = { from: before.username, to: updated.username };
        await recordAdminAction(ctx, { action: 'account_updated', user: updated, detail: changes });
        return {
          json: { user: updated },
          text: [`updated account ${updated.id}: ${updated.email}, ${updated.full_name}, username ${updated.username ?? '-'}`],
        };
      });
    });
}

/** `timetrack user unlock` */
function unlockCommand(user: Command): void {
  user
    .command('unlock')
    .description('clear the failed-attempt count and the lock; works while serve runs')
    .argument('<account>', 'e-mail address or username of the account')
    .action((account: string, _options: object, command: Command) =>
      runAdminCommand(command, async (ctx) => {
        const unlocked = await ctx.services.accountAdmin.unlockAccount(account);
        await recordAdminAction(ctx, { action: 'account_unlocked', user: unlocked });
        return { json: { user: summaryJson(await ctx.services.accountAdmin.showAccount(unlocked.email)) }, text: [`unlocked ${unlocked.email}`] };
      }),
    );
}

/** `timetrack user disable` */
function disableCommand(user: Command): void {
  user
    .command('disable')
    .description('disable the account: its sessions are revoked, login answers 403 ACCOUNT_DISABLED')
    .argument('<account>', 'e-mail address or username of the account')
    .action((account: string, _options: object, command: Command) =>
      runAdminCommand(command, async (ctx) => {
        const { user: disabled, revokedSessions } = await ctx.services.accountAdmin.disableAccount(account);
        await recordAdminAction(ctx, { action: 'account_disabled', user: disabled, detail: { revoked_sessions: revokedSessions } });
        return {
          json: { user: summaryJson(await ctx.services.accountAdmin.showAccount(disabled.email)), revoked_sessions: revokedSessions },
          text: [`disabled ${disabled.email}; revoked ${revokedSessions} session(s)`],
        };
      }),
    );
}

/** `timetrack user enable` */
function enableCommand(user: Command): void {
  user
    .command('enable')
    .description('make a disabled account active again')
    .argument('<account>', 'e-mail address or username of the account')
    .action((account: string, _options: object, command: Command) =>
      runAdminCommand(command, async (ctx) => {
        const { user: enabled } = await ctx.services.accountAdmin.enableAccount(account);
        await recordAdminAction(ctx, { action: 'account_enabled', user: enabled });
        return { json: { user: summaryJson(await ctx.services.accountAdmin.showAccount(enabled.email)) }, text: [`enabled ${enabled.email}`] };
      }),
    );
}

/** `timetrack user 2fa-reset` */
function twoFactorResetCommand(user: Command): void {
  user
    .command('2fa-reset')
    .description(
      'turn two-factor sign-in off for someone who lost the device: secret and recovery codes deleted, every session ended (audited); with REQUIRE_2FA the next sign-in sets it up again',
    )
    .argument('<account>', 'e-mail address or username of the account')
    .addHelpText('after', '\nExample:\n  $ timetrack user 2fa-reset ann@example.com')
    .action((account: string, _options: object, command: Command) =>
      runAdminCommand(command, async (ctx) => {
        const target = await ctx.services.users.requireUser(account);
        const { wasEnabled, revokedSessions } = await ctx.services.twoFactor.resetByOperator(target.id);
        await recordAdminAction(ctx, { action: 'two_factor_reset', user: target, detail: { was_enabled: wasEnabled, revoked_sessions: revokedSessions } });
        return {
          json: { user: summaryJson(await ctx.services.accountAdmin.showAccount(target.email)), was_enabled: wasEnabled, revoked_sessions: revokedSessions },
          text: [
            `${wasEnabled ? 'turned two-factor sign-in off for' : 'two-factor sign-in was not on for'} ${target.email}; revoked ${revokedSessions} session(s)`,
          ],
        };
      }),
    );
}

/** `timetrack user delete` */
function deleteCommand(user: Command): void {
  user
    .command('delete')
    .description('delete the account and everything that is its own (sessions, reset tokens, time data), in one transaction')
    .argument('<account>', 'e-mail address or username of the account')
    .option('--yes', 'confirm the deletion (required: there is no undo)')
    .action(async (account: string, options: { yes?: boolean }, command: Command) => {
      if (!options.yes) throw new UsageError(`refusing to delete ${account} without --yes (there is no undo)`);
      await runAdminCommand(command, async (ctx) => {
        const deleted = await ctx.services.accountAdmin.deleteAccount(account);
        await recordAdminAction(ctx, { action: 'account_deleted', user: deleted });
        return { json: { deleted }, text: [`deleted ${deleted.email} and everything that belonged to it`] };
      });
    });
}

export function registerUserCommand(program: Command): void {
  const user = program
    .command('user')
    .description('manage accounts: create, invite, list, show, set-password, update, unlock, disable, enable, role, 2fa-reset, export, import, delete');
  createCommand(user);
  listCommand(user);
  showCommand(user);
  setPasswordCommand(user);
  updateCommand(user);
  unlockCommand(user);
  disableCommand(user);
  enableCommand(user);
  roleCommand(user);
  inviteCommand(user);
  twoFactorResetCommand(user);
  exportCommand(user);
  importCommand(user);
  deleteCommand(user);
}
