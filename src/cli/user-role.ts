// `timetrack user role <account> admin|lead|member` (docs/cli.md, docs/teams.md): the operator sets an
// account's role; the last active admin cannot be demoted (LAST_ADMIN). Audited as `role_changed`.
import type { Command } from 'commander';
import { parseRole } from '../auth/accounts/roles.js';
import { recordAdminAction, runAdminCommand } from './command-context.js';

export { parseRole };

export function roleCommand(user: Command): void {
  user
    .command('role')
    .description('set the role of an account: admin, lead or member (docs/teams.md); the last active admin stays one')
    .argument('<account>', 'e-mail address or username of the account')
    .argument('<role>', 'admin, lead or member')
    .addHelpText('after', '\nExample:\n  $ timetrack user role ann@example.com admin      # the first admin after an upgrade')
    .action((account: string, roleName: string, _options: object, command: Command) =>
      runAdminCommand(command, async (ctx) => {
        const role = parseRole(roleName);
        const target = await ctx.services.users.requireUser(account);
        const { user, from } = await ctx.services.people.setRole(target.id, role);
        if (from !== role) await recordAdminAction(ctx, { action: 'role_changed', user, detail: { from, to: role } });
        return { json: { user, from }, text: [from === role ? `${user.email} is ${role} already` : `${user.email}: ${from} → ${role}`] };
      }),
    );
}
