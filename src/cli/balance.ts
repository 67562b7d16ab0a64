// `timetrack balance book|show`: bookings on an account's balance (overtime paid out, a correction
// agreed with the employer) and the balance month by month (docs/time-model.md, Bookings).
import type { Command } from 'commander';
import { recordAdminAction, runAdminCommand } from './command-context.js';
import { UsageError } from './errors.js';

interface BookOptions {
  date: string;
  minutes: string;
  kind: string;
  note?: string;
}

/** Signed whole minutes as typed: -600, +90, 45. */
function parseMinutes(value: string): number {
  if (!/^[+-]?\d{1,9}$/.test(value.trim())) throw new UsageError(`--minutes: "${value}" is not a whole number of minutes (e.g. -600 for a payout of 10 hours)`);
  return Number(value.trim());
}

/** Minutes as ±h:mm, for reading. */
function hours(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${Math.floor(abs / 60)}:${String(abs % 60).padStart(2, '0')}`;
}

export function registerBalanceCommand(program: Command): void {
  const balance = program.command('balance').description("an account's balance: book a payout or a correction, show it month by month");

  balance
    .command('book')
    .description('book minutes on the balance on a date: a payout (negative) or a correction (either sign); recorded in the audit trail')
    .argument('<account>', 'e-mail address or username of the account')
    .requiredOption('--date <YYYY-MM-DD>', 'the day the booking counts on')
    .requiredOption('--minutes <n>', 'signed whole minutes, not 0 (a payout is negative: -600 pays out 10 hours)')
    .requiredOption('--kind <kind>', 'payout or correction')
    .option('--note <text>', 'what it is for (at most 1000 characters)')
    .addHelpText(
      'after',
      '\nExample:\n  $ timetrack balance book ann@example.com --date 2026-06-30 --minutes -600 --kind payout --note "paid with June salary"',
    )
    .action((account: string, options: BookOptions, command: Command) =>
      runAdminCommand(command, async (ctx) => {
        const user = await ctx.services.users.requireUser(account);
        const booking = await ctx.services.bookings.createBooking(user.id, {
          date: options.date,
          minutes: parseMinutes(options.minutes),
          kind: options.kind,
          note: options.note,
        });
        await recordAdminAction(ctx, {
          action: 'balance_booked',
          user,
          detail: { booking_id: booking.id, date: booking.date, minutes: booking.minutes, kind: booking.kind },
        });
        return {
          json: { booking },
          text: [`booked ${booking.kind} of ${hours(booking.minutes)} (${booking.minutes} minutes) on ${booking.date} for ${user.email} (id ${booking.id})`],
        };
      }),
    );

  balance
    .command('show')
    .description('the balance month by month through a year (complete days through yesterday), with the bookings of the year')
    .argument('<account>', 'e-mail address or username of the account')
    .option('--year <YYYY>', 'the year (default: this year in the account time zone)')
    .addHelpText('after', '\nExample:\n  $ timetrack balance show ann@example.com --year 2026')
    .action((account: string, options: { year?: string }, command: Command) =>
      runAdminCommand(command, async (ctx) => {
        if (options.year !== undefined && !/^\d{4}$/.test(options.year)) throw new UsageError(`--year: "${options.year}" is not a year such as 2026`);
        const user = await ctx.services.users.requireUser(account);
        const figures = await ctx.services.statistics.monthlyBalances(user.id, options.year === undefined ? undefined : Number(options.year));
        const bookings = await ctx.services.bookings.listBookings(user.id, { from: `${figures.year}-01-01`, to: `${figures.year + 1}-01-01` });
        const rows = figures.months.map(
          (m) =>
            `${m.month}  target ${String(m.target_minutes).padStart(6)}  worked ${String(m.worked_minutes).padStart(6)}  booked ${String(m.booked_minutes).padStart(6)}  month ${hours(m.balance_minutes).padStart(8)}  balance ${hours(m.balance_end_minutes).padStart(8)}`,
        );
        return {
          json: { user: { id: user.id, email: user.email }, ...figures, bookings },
          text: [
            `balance of ${user.email} in ${figures.year} (minutes; complete days from ${figures.since} through ${figures.through})`,
            `carried in: ${hours(figures.balance_before_minutes)} (offset ${hours(figures.offset_minutes)} included)`,
            ...rows,
            ...(bookings.length > 0
              ? ['bookings:', ...bookings.map((b) => `  ${b.date}  ${b.kind.padEnd(10)} ${hours(b.minutes).padStart(8)}  ${b.note}`)]
              : ['no bookings in this year']),
          ],
        };
      }),
    );
}
