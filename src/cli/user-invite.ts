// `timetrack user invite <email> --team <team> [--name N] [--lead]` (docs/cli.md; docs/teams.md,
// "Invitations"): an invitation as the operator (who may invite into any team with either role),
// through the same invitation service as POST /api/invitations. The link is printed (and mailed when
// SMTP is set); the trail names the operator (`os:<login>`).
import type { Command } from 'commander';
import { operatingSystemActor } from '../auth/audit.js';
import { OPERATOR } from '../teams/index.js';
import { runAdminCommand } from './command-context.js';

interface InviteOptions {
  team: string;
  name?: string;
  lead?: boolean;
  lang?: string;
}

export function inviteCommand(user: Command): void {
  user
    .command('invite')
    .description('invite a person into a team: prints a single-use link to create the account (valid INVITE_TTL)')
    .argument('<email>', 'the e-mail address of the person')
    .requiredOption('--team <team>', 'id or name of the team')
    .option('--name <name>', 'the full name of the person (default: the address)')
    .option('--lead', 'invite as a lead of the team (default: member)')
    .option('--lang <lang>', 'language of the e-mail: en or de', 'en')
    .action((email: string, options: InviteOptions, command: Command) =>
      runAdminCommand(command, async (ctx) => {
        const team = await ctx.services.teams.find(options.team);
        const language = options.lang === 'de' ? 'de' : 'en';
        const issued = await ctx.services.invitations.create(
          { actor: OPERATOR, label: operatingSystemActor(), language },
          { email, full_name: options.name ?? email, team_id: team.id, role: options.lead ? 'lead' : 'member' },
        );
        const json = {
          invitation: { id: issued.id, email: issued.email, team_name: issued.teamName, role: issued.role, expires_at: issued.expiresAt.toISOString() },
          invite_url: issued.url,
        };
        return {
          json,
          text: [
            `invited ${issued.email} into ${issued.teamName} as ${issued.role} (invitation ${issued.id}), valid until ${issued.expiresAt.toISOString()}:`,
            issued.url,
          ],
        };
      }),
    );
}
