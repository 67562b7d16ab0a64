// `timetrack reset issue <email>`: the way out when no SMTP server is configured.
import type { Command } from 'commander';
import { recordAdminAction, runAdminCommand } from './command-context.js';

export function registerResetCommand(program: Command): void {
  const reset = program.command('reset').description('password resets');

  reset
    .command('issue')
    .description('issue a reset token for an account (by e-mail address or username) and print it with the reset link (voids earlier tokens)')
    .argument('<account>', 'e-mail address or username of the account')
    .addHelpText(
      'after',
      `
The link is PUBLIC_URL/password-reset?token=…; hand it to the account's owner over a safe channel.

Example:
  $ timetrack reset issue ann@example.com --json`,
    )
    .action((email: string, _options: object, command: Command) =>
      runAdminCommand(command, async (ctx) => {
        const issued = await ctx.services.resets.issueResetForEmail(email);
        const expiresAt = issued.expiresAt.toISOString();
        const account = await ctx.services.users.requireUser(issued.email);
        await recordAdminAction(ctx, { action: 'reset_issued', user: account, detail: { expires_at: expiresAt } });
        return {
          json: { reset_token: issued.token, reset_url: issued.url, expires_at: expiresAt },
          text: [`reset token for ${issued.email} (valid until ${expiresAt}, works once):`, `  token: ${issued.token}`, `  link:  ${issued.url}`],
        };
      }),
    );
}
