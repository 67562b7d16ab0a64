// `timetrack team …` (docs/cli.md, docs/teams.md): teams and their members from the shell, through the
// same team service as /api/teams, as the operator (who may do everything). A team is named by its id
// or its name, an account by its e-mail address, username or id. Each change is audited.
import type { Command } from 'commander';
import type { AppContext } from '../composition-root.js';
import type { PublicUser } from '../auth/accounts/users.js';
import { OPERATOR } from '../teams/index.js';
import { recordAdminAction, runAdminCommand } from './command-context.js';

/** An account by id (digits, when one has it), else by e-mail address or username. */
async function accountOf(ctx: AppContext, reference: string): Promise<PublicUser> {
  if (/^[0-9]{1,15}$/.test(reference)) {
    const user = await ctx.services.users.userById(Number(reference));
    if (user) return user;
  }
  return ctx.services.users.requireUser(reference);
}

function teamCommands(team: Command): void {
  team
    .command('create')
    .description('make a team; its name is unique without regard to case')
    .argument('<name>', 'the name of the team')
    .action((name: string, _options: object, command: Command) =>
      runAdminCommand(command, async (ctx) => {
        const created = await ctx.services.teams.create(OPERATOR, name);
        await recordAdminAction(ctx, { action: 'team_created', detail: { team: created.id, name: created.name } });
        return { json: { team: created }, text: [`created team ${created.name} (id ${created.id})`] };
      }),
    );
  team
    .command('list')
    .description('every team')
    .action((_options: object, command: Command) =>
      runAdminCommand(command, async (ctx) => {
        const teams = await ctx.services.teams.list(OPERATOR);
        return { json: { teams }, text: teams.length ? teams.map((t) => `${t.id}\t${t.name}`) : ['no teams'] };
      }),
    );
  team
    .command('show')
    .description('a team and its members')
    .argument('<team>', 'id or name of the team')
    .action((reference: string, _options: object, command: Command) =>
      runAdminCommand(command, async (ctx) => {
        const { team: found, members } = await ctx.services.teams.show(OPERATOR, (await ctx.services.teams.find(reference)).id);
        const lines = members.map((m) => `  ${m.role.padEnd(6)}  ${m.user.email}  ${m.user.full_name}`);
        return { json: { team: found, members }, text: [`${found.name} (id ${found.id})`, ...(lines.length ? lines : ['  no members'])] };
      }),
    );
  team
    .command('rename')
    .description('give a team another name')
    .argument('<team>', 'id or name of the team')
    .argument('<name>', 'the new name')
    .action((reference: string, name: string, _options: object, command: Command) =>
      runAdminCommand(command, async (ctx) => {
        const before = await ctx.services.teams.find(reference);
        const renamed = await ctx.services.teams.rename(OPERATOR, before.id, name);
        await recordAdminAction(ctx, { action: 'team_renamed', detail: { team: renamed.id, from: before.name, to: renamed.name } });
        return { json: { team: renamed }, text: [`renamed team ${renamed.id}: ${before.name} → ${renamed.name}`] };
      }),
    );
  team
    .command('delete')
    .description('delete a team and its memberships (the accounts stay)')
    .argument('<team>', 'id or name of the team')
    .action((reference: string, _options: object, command: Command) =>
      runAdminCommand(command, async (ctx) => {
        const found = await ctx.services.teams.find(reference);
        await ctx.services.teams.remove(OPERATOR, found.id);
        await recordAdminAction(ctx, { action: 'team_deleted', detail: { team: found.id, name: found.name } });
        return { json: { deleted: found }, text: [`deleted team ${found.name}`] };
      }),
    );
}

function memberCommands(team: Command): void {
  team
    .command('add')
    .description('add an account to a team (or change its role there)')
    .argument('<team>', 'id or name of the team')
    .argument('<account>', 'e-mail address, username or id of the account')
    .option('--lead', 'as a lead of the team (who may add and remove its members)')
    .action((reference: string, account: string, options: { lead?: boolean }, command: Command) =>
      runAdminCommand(command, async (ctx) => {
        const found = await ctx.services.teams.find(reference);
        const user = await accountOf(ctx, account);
        const role = options.lead ? 'lead' : 'member';
        await ctx.services.teams.putMember(OPERATOR, found.id, user.id, role);
        await recordAdminAction(ctx, { action: 'team_member_added', user, detail: { team: found.id, name: found.name, role } });
        return { json: { team: found, user, role }, text: [`${user.email} is ${role === 'lead' ? 'a lead' : 'a member'} of ${found.name}`] };
      }),
    );
  team
    .command('remove')
    .description('remove an account from a team')
    .argument('<team>', 'id or name of the team')
    .argument('<account>', 'e-mail address, username or id of the account')
    .action((reference: string, account: string, _options: object, command: Command) =>
      runAdminCommand(command, async (ctx) => {
        const found = await ctx.services.teams.find(reference);
        const user = await accountOf(ctx, account);
        await ctx.services.teams.removeMember(OPERATOR, found.id, user.id);
        await recordAdminAction(ctx, { action: 'team_member_removed', user, detail: { team: found.id, name: found.name } });
        return { json: { team: found, user }, text: [`removed ${user.email} from ${found.name}`] };
      }),
    );
}

export function registerTeamCommand(program: Command): void {
  const team = program.command('team').description('manage teams: create, list, show, rename, delete, add, remove (docs/teams.md)');
  teamCommands(team);
  memberCommands(team);
}
