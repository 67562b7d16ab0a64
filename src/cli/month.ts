// `timetrack month …` (docs/cli.md, docs/teams.md "Closed months"): a person's month from the shell,
// through the same month service as the API, as the operator (who may do everything; a month is
// never the operator's own). An account is named by its e-mail address or username. Each change is
// audited with the operator's login.
import type { Command } from 'commander';
import type { AppContext } from '../composition-root.js';
import type { PublicUser } from '../auth/accounts/users.js';
import { OPERATOR } from '../teams/index.js';
import type { MonthStatus } from '../teams/months/store.js';
import { recordAdminAction, runAdminCommand } from './command-context.js';

interface MonthOptions {
  comment?: string;
  reason?: string;
}

/** One line of a month's state: `2026-02 approved by 3 at …: comment`. */
function statusLine(user: PublicUser, month: MonthStatus): string {
  const decided = month.decided_at ? ` (decided ${month.decided_at}${month.decided_by === null ? '' : ` by account ${month.decided_by}`})` : '';
  const submitted = month.submitted_at ? ` (submitted ${month.submitted_at})` : '';
  return `${user.email} ${month.month}: ${month.state}${month.state === 'submitted' ? submitted : decided}${month.comment ? `: ${month.comment}` : ''}`;
}

const EXAMPLE_OPTIONS: Record<string, string> = { return: ' --comment "the 12th is missing"', reopen: ' --reason "a sick day was booked as vacation"' };

/** A sub-command on `<account> <YYYY-MM>`: finds the account, runs `act`, prints the month. */
function monthCommand(
  month: Command,
  name: string,
  description: string,
  act: (ctx: AppContext, user: PublicUser, named: string, options: MonthOptions) => Promise<MonthStatus>,
): Command {
  return month
    .command(name)
    .description(description)
    .argument('<account>', 'e-mail address or username of the account')
    .argument('<month>', 'YYYY-MM')
    .addHelpText('after', `\nExample:\n  $ timetrack month ${name} max@example.com 2026-02${EXAMPLE_OPTIONS[name] ?? ''}`)
    .action((account: string, named: string, options: MonthOptions, command: Command) =>
      runAdminCommand(command, async (ctx) => {
        const user = await ctx.services.users.requireUser(account);
        const status = await act(ctx, user, named, options);
        return { json: { user, month: status }, text: [statusLine(user, status)] };
      }),
    );
}

function status(month: Command): void {
  monthCommand(month, 'status', 'where the month stands: open, submitted, returned, approved or locked', (ctx, user, named) =>
    ctx.services.months.status(user.id, named),
  );
}

function submit(month: Command): void {
  monthCommand(month, 'submit', "submit the account's month for approval (once its last day is over in the account's zone)", async (ctx, user, named) => {
    const submitted = await ctx.services.months.submit(OPERATOR, user.id, named);
    await recordAdminAction(ctx, { action: 'month_submitted', user, detail: { month: submitted.month } });
    return submitted;
  });
}

function approve(month: Command): void {
  monthCommand(month, 'approve', 'approve a submitted month and seal its figures (docs/teams.md, "The seal")', async (ctx, user, named, options) => {
    const approved = await ctx.services.months.approve(OPERATOR, user.id, named, options.comment);
    await recordAdminAction(ctx, { action: 'month_approved', user, detail: { month: approved.month, digest: approved.digest } });
    return approved;
  }).option('--comment <text>', 'a comment for the person');
}

function giveBack(month: Command): void {
  monthCommand(month, 'return', 'return a submitted month to the person, with a comment', async (ctx, user, named, options) => {
    const returned = await ctx.services.months.return(OPERATOR, user.id, named, options.comment);
    await recordAdminAction(ctx, { action: 'month_returned', user, detail: { month: returned.month, comment: returned.comment } });
    return returned;
  }).requiredOption('--comment <text>', 'what the person should change');
}

function reopen(month: Command): void {
  monthCommand(
    month,
    'reopen',
    'open an approved or locked month again (its seal goes; audited with the reason and the old digest)',
    async (ctx, user, named, options) => {
      const { month: opened, previous_digest } = await ctx.services.months.reopen(OPERATOR, user.id, named, options.reason);
      await recordAdminAction(ctx, { action: 'month_reopened', user, detail: { month: opened.month, reason: opened.comment, digest: previous_digest } });
      return opened;
    },
  ).requiredOption('--reason <text>', 'why the month opens again');
}

export function registerMonthCommand(program: Command): void {
  const month = program.command('month').description("a person's closed months: status, submit, approve, return, reopen (docs/teams.md)");
  status(month);
  submit(month);
  approve(month);
  giveBack(month);
  reopen(month);
}
