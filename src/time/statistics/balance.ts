// The overtime balance (docs/time-model.md): offset + worked − target + booked over the complete days
// from tracking_start through yesterday, from aggregates (one statement: the sum over the per-day
// totals with the bookings' and the absences' counts; weekdays counted by arithmetic per schedule),
// so five years cost about what a week does.
import { setImmediate as nextMacrotask } from 'node:timers/promises';
import { sql, type Kysely } from 'kysely';
import type { AbsencePortion, Database, LocalDate } from '../../db/types.js';
import { validationError } from '../../common/errors.js';
import { targetOfDay } from '../day-rules.js';
import { addDays, localDateOf, weekdayCounts, weekdayOf } from '../calendar/dates.js';
import { publicHolidays } from '../calendar/holidays.js';
import type { Settings } from '../settings/settings.js';
import { rangeAbsencesOf, rangeAbsencesQuery, type RangeAbsences } from '../absences/days.js';
import { bookedSum } from '../bookings.js';
import { accountContext, type AccountContext } from './context.js';
import { liveTotals, MINUTE_MS, runningDays, workedOf } from './days.js';
import type { MonthlyBalances, OvertimeBalance, PeriodFigures, StatisticsDeps } from './types.js';

/**
 * The sums and the absences of the days from `from` through `through`, in one statement (a union of
 * the two aggregates: one round trip on PostgreSQL instead of two). The sums: each stored day's whole
 * minutes less its break deduction (a CASE over the user's few rules), summed in the database, and
 * the bookings' sum beside them, without the days the running entry touches (`touched`: worked out by
 * the caller with it). The absences: counted per stretch, weekday and portion, those on `holidays`
 * apart (rangeAbsencesQuery).
 */
async function sumsAndAbsences(
  db: Kysely<Database>,
  context: AccountContext,
  range: { from: LocalDate; through: LocalDate; touched: readonly LocalDate[] },
  stretchStarts: readonly LocalDate[],
  holidays: readonly LocalDate[],
): Promise<{ minutes: number; deducted: number; booked: number; absences: RangeAbsences }> {
  const { settings, userId } = context;
  const { from, through, touched } = range;
  // Integer division per day row (the literal is an integer on both engines): the same rounding as
  // the per-day figures; a real division would carry the seconds of every day into the balance.
  const minutes = sql<number>`(worked_ms / 60000)`;
  const sums = db
    .selectFrom('daily_totals')
    .where('user_id', '=', userId)
    .where('date', '>=', from)
    .where('date', '<=', through)
    .$if(touched.length > 0, (query) => query.where('date', 'not in', touched))
    .select([
      sql<number | null>`null`.as('weekday'),
      sql<AbsencePortion | null>`null`.as('portion'),
      sql<number | null>`null`.as('stretch'),
      sql<LocalDate | null>`null`.as('holiday'),
      sql<number | null>`null`.as('count'),
      sql<number>`0`.as('kind'),
      sql<number | null>`coalesce(sum(${minutes}), 0)`.as('minutes'),
      deductedSum(settings, minutes).$castTo<number | null>().as('deducted'),
      bookedSum(db, userId, from, through).as('booked'),
    ]);
  const absences = rangeAbsencesQuery(db, userId, from, through, stretchStarts, holidays).select([
    sql<number>`1`.as('kind'),
    sql<null>`null`.as('minutes'),
    sql<null>`null`.as('deducted'),
    sql<null>`null`.as('booked'),
  ]);
  const rows = await sums.unionAll(absences).execute();
  const total = rows.find((row) => Number(row.kind) === 0)!;
  return {
    minutes: Number(total.minutes),
    deducted: Number(total.deducted),
    booked: Number(total.booked ?? 0),
    absences: rangeAbsencesOf(rows.filter((row) => Number(row.kind) === 1)),
  };
}

/**
 * The sum of the break rules' deductions over the rows (`minutes`: a row's whole worked minutes).
 * Only days above the lowest threshold with less than the longest break can lose minutes: plain
 * comparisons on the row pick those before the rules' expression is evaluated.
 */
function deductedSum(settings: Settings, minutes: ReturnType<typeof sql<number>>) {
  const rules = settings.break_rules;
  if (rules.length === 0) return sql<number>`0`;
  const taken = sql<number>`(break_ms / 60000)`;
  let deduction = sql<number>`0`;
  for (const rule of rules) {
    // Bound, and cast: a bound JavaScript number reaches SQLite as a real.
    const over = sql<number>`cast(${rule.worked_over_minutes} as integer)`;
    const needed = sql<number>`cast(${rule.break_minutes} as integer)`;
    const shortfall = sql`(${needed} - ${taken})`;
    deduction = sql<number>`case when ${minutes} > ${over} then (case when ${shortfall} <= 0 then 0 when ${shortfall} < ${minutes} - ${over} then ${shortfall} else ${minutes} - ${over} end) else ${deduction} end`;
  }
  const lowest = Math.min(...rules.map((rule) => rule.worked_over_minutes));
  const longest = Math.max(...rules.map((rule) => rule.break_minutes));
  return sql<number>`coalesce(sum(case when worked_ms >= cast(${(lowest + 1) * MINUTE_MS} as integer) and break_ms < cast(${longest * MINUTE_MS} as integer) then ${deduction} else 0 end), 0)`;
}

/**
 * The target of every day of `segments` (the stretches of one schedule of a range): weekday targets
 * counted by arithmetic per stretch, less absences and holidays (a day that is both counts once).
 * The work is bounded by the schedules and holidays of the range, not by the account's absences.
 */
function targetMinutes(
  context: AccountContext,
  segments: ReturnType<AccountContext['timeline']['segments']>,
  holidays: readonly LocalDate[],
  absences: RangeAbsences,
): number {
  let target = 0;
  for (const segment of segments) {
    for (const [weekday, count] of weekdayCounts(segment.from, segment.through)) target += count * segment.weekly[weekday];
  }
  for (const { stretch, weekday, portion, count } of absences.counts) {
    const scheduled = segments[stretch]!.weekly[weekday];
    target -= count * (scheduled - targetOfDay(scheduled, true, false, portion));
  }
  for (const date of holidays) {
    // What the absence left of the day's target goes too: a holiday's target is 0.
    const scheduled = context.timeline.targetOn(date, weekdayOf(date));
    target -= targetOfDay(scheduled, true, false, absences.onHolidays.get(date) ?? null);
  }
  return target;
}

/**
 * The figures of the complete days from `from` through `through` (clamped to tracking_start and
 * yesterday by the callers), from aggregates: one statement (sumsAndAbsences; a second when the
 * running entry touches the range) and the weekdays counted by arithmetic per schedule, so five
 * years cost about what a week does.
 */
export async function periodFigures(db: Kysely<Database>, context: AccountContext, from: LocalDate, through: LocalDate): Promise<PeriodFigures> {
  if (through < from) return { target_minutes: 0, worked_minutes: 0, booked_minutes: 0, balance_minutes: 0 };
  const { settings, timeline } = context;
  const touched = runningDays(context, from, through);
  const live = touched.length > 0 ? await liveTotals(db, context, touched[0]!, touched[touched.length - 1]!) : undefined;
  const segments = timeline.segments(from, through);
  const holidays = [...(await publicHolidays(settings.holiday_region, from, through)).keys()];
  // The aggregates over every day since tracking_start are the heavy part of a statistics request
  // (synchronous on SQLite): they get a macrotask of their own, so that other requests are answered
  // before them, however many accounts ask at once.
  await nextMacrotask();
  const sums = await sumsAndAbsences(
    db,
    context,
    { from, through, touched },
    segments.slice(1).map((segment) => segment.from),
    holidays,
  );
  let worked = sums.minutes - sums.deducted;
  for (const date of touched) {
    const day = workedOf(live?.days.get(date), settings.break_rules);
    worked += day.raw - day.deducted;
  }
  const target = targetMinutes(context, segments, holidays, sums.absences);
  return { target_minutes: target, worked_minutes: worked, booked_minutes: sums.booked, balance_minutes: worked - target + sums.booked };
}

/** offset + worked − target + booked over every complete day from tracking_start through yesterday. */
export async function balanceThroughYesterday(db: Kysely<Database>, context: AccountContext): Promise<OvertimeBalance> {
  const { settings } = context;
  const through = addDays(localDateOf(context.nowMs, settings.zones), -1);
  const since = settings.tracking_start;
  const period = await periodFigures(db, context, since, through);
  return { balance_minutes: settings.overtime_offset_minutes + period.balance_minutes, offset_minutes: settings.overtime_offset_minutes, since, through };
}

/** offset + worked − target over every complete day from tracking_start through yesterday. */
export async function overtime(deps: StatisticsDeps, userId: number): Promise<OvertimeBalance> {
  return balanceThroughYesterday(deps.db, await accountContext(deps, userId));
}

/**
 * The balance month by month through `year` (default: this year in the user's zone): each month's
 * complete days (from tracking_start through yesterday) and the balance at its end, offset included.
 */
export async function monthlyBalances(deps: StatisticsDeps, userId: number, year?: number): Promise<MonthlyBalances> {
  const context = await accountContext(deps, userId);
  const { settings, nowMs } = context;
  const yesterday = addDays(localDateOf(nowMs, settings.zones), -1);
  const shownYear = year ?? Number(localDateOf(nowMs, settings.zones).slice(0, 4));
  if (!Number.isInteger(shownYear) || shownYear < 1970 || shownYear > 2099) throw validationError('year must be a year from 1970 to 2099', 'year');
  const since = settings.tracking_start;
  const clamp = (date: LocalDate) => (date > yesterday ? yesterday : date);
  const start = `${shownYear}-01-01`;
  let balance = settings.overtime_offset_minutes + (await periodFigures(deps.db, context, since, clamp(addDays(start, -1)))).balance_minutes;
  const balanceBefore = balance;
  const months: MonthlyBalances['months'] = [];
  for (let month = 1; month <= 12; month++) {
    const first = `${shownYear}-${String(month).padStart(2, '0')}-01`;
    const last = addDays(month === 12 ? `${shownYear + 1}-01-01` : `${shownYear}-${String(month + 1).padStart(2, '0')}-01`, -1);
    const figures = await periodFigures(deps.db, context, first < since ? since : first, clamp(last));
    balance += figures.balance_minutes;
    months.push({ month: first.slice(0, 7), ...figures, balance_end_minutes: balance });
  }
  return { year: shownYear, since, through: yesterday, offset_minutes: settings.overtime_offset_minutes, balance_before_minutes: balanceBefore, months };
}
