// `timetrack team overview <team> [--week D]` (docs/cli.md, docs/teams.md "The lead's view"): a team's
// week as the operator sees it, through the same overview service as GET /api/teams/:id/overview;
// --json prints that answer's shape, the text a table of the members and their figures.
import type { Command } from 'commander';
import { OPERATOR } from '../teams/index.js';
import type { TeamOverview } from '../teams/overview.js';
import { runAdminCommand } from './command-context.js';

/** Minutes as h:mm, signed when asked. */
function hours(minutes: number, signed = false): string {
  const sign = minutes < 0 ? '-' : signed ? '+' : '';
  const abs = Math.abs(minutes);
  return `${sign}${Math.floor(abs / 60)}:${String(abs % 60).padStart(2, '0')}`;
}

const HEADER = ['member', 'week worked/target', 'week ±', 'balance', 'vacation left', 'running since', 'absent today', 'missing days'];

/** The overview as a table: one line a member, columns padded to their widest cell. */
export function overviewTable(overview: TeamOverview): string[] {
  const rows = overview.members.map((m) => [
    m.user.email,
    `${hours(m.week.worked_minutes)}/${hours(m.week.target_minutes)}`,
    hours(m.week.balance_minutes, true),
    hours(m.balance_minutes, true),
    m.vacation.remaining_days === null ? '-' : String(m.vacation.remaining_days),
    m.running_since ?? '-',
    m.absence_today ?? '-',
    m.missing_days.length ? m.missing_days.join(' ') : '-',
  ]);
  const widths = HEADER.map((title, column) => Math.max(title.length, ...rows.map((row) => row[column]!.length)));
  const line = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column]!))
      .join('  ')
      .trimEnd();
  const title = `${overview.team.name} (id ${overview.team.id}), week of ${overview.week_start}`;
  return [title, line(HEADER), ...(rows.length ? rows.map(line) : ['no members'])];
}

export function registerTeamOverviewCommand(team: Command): void {
  team
    .command('overview')
    .description("a team's week: every member's worked and target time, balance, vacation left, running entry, absence today, missing days")
    .argument('<team>', 'id or name of the team')
    .option('--week <YYYY-MM-DD>', 'a day of the week (default: this week, in UTC)')
    .action((reference: string, options: { week?: string }, command: Command) =>
      runAdminCommand(command, async (ctx) => {
        const found = await ctx.services.teams.find(reference);
        const overview = await ctx.services.overview.teamOverview(OPERATOR, found.id, options.week);
        return { json: overview, text: overviewTable(overview) };
      }),
    );
}
