// The overtime balance (docs/time-model.md): offset + worked − target + booked over the complete days
// from tracking_start through yesterday, from aggregates (one sum over the per-day totals, weekdays
// counted by arithmetic per schedule), so five years cost about what a week does.
import { setImmediate as nextMacrotask } from 'node:timers/promises';
import { sql, type Kysely } from 'kysely';
import type { Database, LocalDate } from '../../db/types.js';
import { validationError } from '../../common/errors.js';
import { targetOfDay } from '../day-rules.js';
import { addDays, localDateOf, weekdayCounts, weekdayOf } from '../calendar/dates.js';
import { publicHolidays } from '../calendar/holidays.js';
import { runningEntry } from '../entries/store.js';
import type { Settings } from '../settings.js';
import { scheduleTimeline, type ScheduleTimeline } from '../schedules.js';
import { bookedInRange } from '../bookings.js';
import { liveTotals, MINUTE_MS, workedOf } from './days.js';
import type { MonthlyBalances, OvertimeBalance, PeriodFigures, StatisticsDeps } from './types.js';

/**
 * Worked minutes from `from` through `through`: each day's whole minutes less its break deduction,
 * summed in the database over the stored days (one aggregate; the deduction is a CASE over the
 * user's few rules), and the days the running entry touches worked out here with it.
 */
async function workedMinutesInRange(
  db: Kysely<Database>,
  userId: number,
  settings: Settings,
  from: LocalDate,
  through: LocalDate,
  nowMs: number,
): Promise<number> {
  const running = await runningEntry(db, userId);
  const live = running ? await liveTotals(db, userId, settings, from, through, nowMs) : undefined;
  const runningDays = live?.running ?? [];
  // Integer division per day row (the literal is an integer on both engines): the same rounding as
  // the per-day figures; a real division would carry the seconds of every day into the balance.
  const minutes = sql<number>`(worked_ms / 60000)`;
  const taken = sql<number>`(break_ms / 60000)`;
  let deduction = sql<number>`0`;
  for (const rule of settings.break_rules) {
    // Bound, and cast: a bound JavaScript number reaches SQLite as a real.
    const over = sql<number>`cast(${rule.worked_over_minutes} as integer)`;
    const needed = sql<number>`cast(${rule.break_minutes} as integer)`;
    const shortfall = sql`(${needed} - ${taken})`;
    deduction = sql<number>`case when ${minutes} > ${over} then (case when ${shortfall} <= 0 then 0 when ${shortfall} < ${minutes} - ${over} then ${shortfall} else ${minutes} - ${over} end) else ${deduction} end`;
  }
  // One scan for both sums. Only days above the lowest threshold with less than the longest break can
  // lose minutes: plain comparisons on the row pick those before the rules' expression is evaluated.
  const rules = settings.break_rules;
  let deducted = sql<number>`0`;
  if (rules.length > 0) {
    const lowest = Math.min(...rules.map((rule) => rule.worked_over_minutes));
    const longest = Math.max(...rules.map((rule) => rule.break_minutes));
    deducted = sql<number>`coalesce(sum(case when worked_ms >= cast(${(lowest + 1) * MINUTE_MS} as integer) and break_ms < cast(${longest * MINUTE_MS} as integer) then ${deduction} else 0 end), 0)`;
  }
  const sums = await db
    .selectFrom('daily_totals')
    .where('user_id', '=', userId)
    .where('date', '>=', from)
    .where('date', '<=', through)
    .$if(runningDays.length > 0, (query) => query.where('date', 'not in', runningDays))
    .select([sql<number>`coalesce(sum(${minutes}), 0)`.as('minutes'), deducted.as('deducted')])
    .executeTakeFirstOrThrow();
  let total = Number(sums.minutes) - Number(sums.deducted);
  for (const date of runningDays) {
    const worked = workedOf(live?.days.get(date), settings.break_rules);
    total += worked.raw - worked.deducted;
  }
  return total;
}

/**
 * The target of every day from `from` through `through`: weekday targets of the schedule in force,
 * counted by arithmetic per stretch of one schedule, less absences and holidays (a day that is both
 * counts once). Absences are counted per weekday and portion by the database, and only those on a
 * holiday are read: the work is bounded by the schedules and holidays of the range, not by the
 * account's absences.
 */
async function targetMinutesInRange(
  absenceService: StatisticsDeps['absences'],
  userId: number,
  settings: Settings,
  timeline: ScheduleTimeline,
  from: LocalDate,
  through: LocalDate,
): Promise<number> {
  let target = 0;
  for (const segment of timeline.segments(from, through)) {
    for (const [weekday, count] of weekdayCounts(segment.from, segment.through)) target += count * segment.weekly[weekday];
    for (const { weekday, portion, count } of await absenceService.absenceCountsByWeekday(userId, segment.from, segment.through)) {
      const scheduled = segment.weekly[weekday];
      target -= count * (scheduled - targetOfDay(scheduled, true, false, portion));
    }
  }
  const holidays = [...(await publicHolidays(settings.holiday_region, from, through)).keys()];
  const absent = await absenceService.absencesAmong(userId, holidays);
  for (const date of holidays) {
    // What the absence left of the day's target goes too: a holiday's target is 0.
    const scheduled = timeline.targetOn(date, weekdayOf(date));
    target -= targetOfDay(scheduled, true, false, absent.get(date) ?? null);
  }
  return target;
}

/**
 * The figures of the complete days from `from` through `through` (clamped to tracking_start and
 * yesterday by the callers), from aggregates: one sum over the per-day totals, the absences and
 * holidays of the range, the bookings, and the weekdays counted by arithmetic per schedule, so five
 * years cost about what a week does.
 */
export async function periodFigures(
  { db, absences }: Pick<StatisticsDeps, 'db' | 'absences'>,
  userId: number,
  settings: Settings,
  timeline: ScheduleTimeline,
  from: LocalDate,
  through: LocalDate,
  nowMs: number,
): Promise<PeriodFigures> {
  if (through < from) return { target_minutes: 0, worked_minutes: 0, booked_minutes: 0, balance_minutes: 0 };
  // The aggregates over every day since tracking_start are the heavy part of a statistics request
  // (synchronous on SQLite): each gets a macrotask of its own, so that other requests are answered
  // between them, however many accounts ask at once.
  await nextMacrotask();
  const worked = await workedMinutesInRange(db, userId, settings, from, through, nowMs);
  await nextMacrotask();
  const target = await targetMinutesInRange(absences, userId, settings, timeline, from, through);
  const booked = await bookedInRange(db, userId, from, through);
  return { target_minutes: target, worked_minutes: worked, booked_minutes: booked, balance_minutes: worked - target + booked };
}

/** offset + worked − target + booked over every complete day from tracking_start through yesterday. */
export async function balanceThroughYesterday(
  deps: Pick<StatisticsDeps, 'db' | 'absences'>,
  userId: number,
  settings: Settings,
  nowMs: number,
): Promise<OvertimeBalance> {
  const through = addDays(localDateOf(nowMs, settings.zones), -1);
  const since = settings.tracking_start;
  const timeline = await scheduleTimeline(deps.db, userId);
  const period = await periodFigures(deps, userId, settings, timeline, since, through, nowMs);
  return { balance_minutes: settings.overtime_offset_minutes + period.balance_minutes, offset_minutes: settings.overtime_offset_minutes, since, through };
}

/** offset + worked − target over every complete day from tracking_start through yesterday. */
export async function overtime(deps: StatisticsDeps, userId: number): Promise<OvertimeBalance> {
  const settings = await deps.settings.getSettings(userId);
  return balanceThroughYesterday(deps, userId, settings, deps.clock.now().getTime());
}

/**
 * The balance month by month through `year` (default: this year in the user's zone): each month's
 * complete days (from tracking_start through yesterday) and the balance at its end, offset included.
 */
export async function monthlyBalances(deps: StatisticsDeps, userId: number, year?: number): Promise<MonthlyBalances> {
  const settings = await deps.settings.getSettings(userId);
  const nowMs = deps.clock.now().getTime();
  const yesterday = addDays(localDateOf(nowMs, settings.zones), -1);
  const shownYear = year ?? Number(localDateOf(nowMs, settings.zones).slice(0, 4));
  if (!Number.isInteger(shownYear) || shownYear < 1970 || shownYear > 2099) throw validationError('year must be a year from 1970 to 2099', 'year');
  const timeline = await scheduleTimeline(deps.db, userId);
  const since = settings.tracking_start;
  const clamp = (date: LocalDate) => (date > yesterday ? yesterday : date);
  const start = `${shownYear}-01-01`;
  let balance =
    settings.overtime_offset_minutes + (await periodFigures(deps, userId, settings, timeline, since, clamp(addDays(start, -1)), nowMs)).balance_minutes;
  const balanceBefore = balance;
  const months: MonthlyBalances['months'] = [];
  for (let month = 1; month <= 12; month++) {
    const first = `${shownYear}-${String(month).padStart(2, '0')}-01`;
    const last = addDays(month === 12 ? `${shownYear + 1}-01-01` : `${shownYear}-${String(month + 1).padStart(2, '0')}-01`, -1);
    const figures = await periodFigures(deps, userId, settings, timeline, first < since ? since : first, clamp(last), nowMs);
    balance += figures.balance_minutes;
    months.push({ month: first.slice(0, 7), ...figures, balance_end_minutes: balance });
  }
  return { year: shownYear, since, through: yesterday, offset_minutes: settings.overtime_offset_minutes, balance_before_minutes: balanceBefore, months };
}
