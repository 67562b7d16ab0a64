// The port through which a closed month refuses changes to its days (docs/teams.md, "Closed months";
// docs/architecture.md, "The team layer"). Every service of time/ that writes a figure of a day asks
// it inside its own transaction, after lockUser, with the days the change touches; the team layer
// implements it (src/teams/months/lock.ts), so time/ never imports teams/.
import type { Transaction } from 'kysely';
import type { Database, LocalDate } from '../db/types.js';
import { ServiceError } from '../common/errors.js';
import { addDays, localDateOf } from './calendar/dates.js';
import type { DayZones } from './calendar/zones.js';

export interface MonthLock {
  /** MONTH_LOCKED (MonthLockedError) when a day from `from` through `through` lies in an approved or locked month of the account. */
  assertOpen(trx: Transaction<Database>, userId: number, from: LocalDate, through: LocalDate): Promise<void>;
}

/** A lock that refuses nothing: for code that writes no day of an existing account (a new account's import). */
export const NO_MONTH_LOCK: MonthLock = { assertOpen: async () => {} };

/** The first and the last day there is: a change "from this day on" or of every day. */
export const FIRST_DAY: LocalDate = '0001-01-01';
export const LAST_DAY: LocalDate = '9999-12-31';

/** MONTH_LOCKED: the answer names the month (docs/api.md, "Errors"). */
export class MonthLockedError extends ServiceError {
  constructor(readonly month: string) {
    super('MONTH_LOCKED', `The month ${month} is closed: its days cannot be changed (an admin may reopen it; or book a correction in an open month)`);
  }
}

/**
 * The days of entries, each [start, end) in milliseconds (an entry across midnight touches both
 * days; one that ends at midnight not the next), checked in the account's zones. One question per
 * run of consecutive months the entries touch, not one per entry: an import of 20,000 entries over
 * ten years asks once, inside its write lock (a month no entry touches is never asked about).
 */
export async function assertSpansOpen(
  lock: MonthLock,
  trx: Transaction<Database>,
  userId: number,
  zones: DayZones,
  spans: ReadonlyArray<readonly [number, number]>,
): Promise<void> {
  await assertRunsOpen(lock, trx, userId, monthRunsOf(zones, spans));
}

/** The runs of consecutive months that entries touch in the zones, each [first day, last day]: what assertSpansOpen asks about. */
export function monthRunsOf(zones: DayZones, spans: ReadonlyArray<readonly [number, number]>): Array<[LocalDate, LocalDate]> {
  const months = new Set<string>();
  for (const [startMs, endMs] of spans) {
    const last = localDateOf(Math.max(startMs, endMs - 1), zones).slice(0, 7);
    for (let month = localDateOf(startMs, zones).slice(0, 7); month <= last; month = nextMonth(month)) months.add(month);
  }
  return runsOfMonths([...months].sort()).map(([first, last]) => [`${first}-01`, addDays(`${nextMonth(last)}-01`, -1)]);
}

/** Asks the lock once per run of days (from monthRunsOf, worked out in the zones stored now). */
export async function assertRunsOpen(
  lock: MonthLock,
  trx: Transaction<Database>,
  userId: number,
  runs: ReadonlyArray<readonly [LocalDate, LocalDate]>,
): Promise<void> {
  for (const [from, through] of runs) await lock.assertOpen(trx, userId, from, through);
}

/** The month after `month` (YYYY-MM). */
function nextMonth(month: string): string {
  const [year, number] = [Number(month.slice(0, 4)), Number(month.slice(5, 7))];
  return number === 12 ? `${String(year + 1).padStart(4, '0')}-01` : `${month.slice(0, 4)}-${String(number + 1).padStart(2, '0')}`;
}

/** Sorted months as runs of consecutive ones, each [first, last]. */
function runsOfMonths(sorted: readonly string[]): Array<[string, string]> {
  const runs: Array<[string, string]> = [];
  for (const month of sorted) {
    const run = runs[runs.length - 1];
    if (run && nextMonth(run[1]) === month) run[1] = month;
    else runs.push([month, month]);
  }
  return runs;
}

/** What of the settings decides the figures of past days (docs/time-model.md). */
export interface DaySettings {
  tracking_start: LocalDate;
  min_break_minutes: number;
  break_rules: unknown;
  holiday_region: string | null;
}

/**
 * The days a change of settings rewrites, or undefined: a new zone from its first day, new targets
 * from theirs, a tracking start moved over the days between, and the break rules, the shortest break
 * and the holiday region every day.
 */
export function changedDays(
  before: DaySettings,
  after: DaySettings,
  from: { zones?: LocalDate | null; targets?: LocalDate },
): [LocalDate, LocalDate] | undefined {
  const everyDay =
    before.min_break_minutes !== after.min_break_minutes ||
    JSON.stringify(before.break_rules) !== JSON.stringify(after.break_rules) ||
    before.holiday_region !== after.holiday_region ||
    from.zones === null;
  if (everyDay) return [FIRST_DAY, LAST_DAY];
  const starts = [from.zones, from.targets].filter((day): day is LocalDate => day !== undefined && day !== null);
  if (before.tracking_start !== after.tracking_start) {
    const [early, late] = [before.tracking_start, after.tracking_start].sort() as [LocalDate, LocalDate];
    starts.push(early);
    if (starts.length === 1) return [early, late];
  }
  if (starts.length === 0) return undefined;
  return [starts.sort()[0]!, LAST_DAY];
}
