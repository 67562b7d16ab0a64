// Week overview, overtime balance and today's end of work (docs/time-model.md).
//
// A day's target is the weekday's target of the schedule in force, halved on a half day, or 0 on a
// day with a full absence, on a public holiday of the user's region, and before tracking_start. A
// day's worked minutes are the whole minutes worked on that local day (an entry across midnight
// counts on both days), less the deduction of the break rules, read from the per-day totals (worked
// time and breaks taken) plus the running entry up to now. Bookings count on their date. Every sum is
// a sum of these per-day integers, so the week, the balance and today always agree. Nothing here
// scans all of a user's entries.
import { setImmediate as nextMacrotask } from 'node:timers/promises';
import { sql, type Kysely } from 'kysely';
import type { AbsencePortion, AbsenceType, Database, LocalDate } from '../db/types.js';
import { breakDeduction, targetOfDay, workNeededFor } from './day-rules.js';
import type { AbsenceService } from './absences.js';
import {
  addDays,
  datesFromThrough,
  localDateOf,
  mondayOf,
  normalizeHolidayRegion,
  parseDate,
  publicHolidays,
  splitByLocalDay,
  toIso,
  weekdayCounts,
  weekdayOf,
  type Weekday,
} from './calendar.js';
import type { Clock } from '../common/clock.js';
import { validationError } from '../common/errors.js';
import { createWorkLane } from '../common/work-lane.js';
import { dailyTotals, entriesOverlapping, runningEntry, type DayTotal } from './entries-store.js';
import { startOfDay } from './calendar.js';
import type { BreakRule, Settings, SettingsService } from './settings.js';
import { scheduleTimeline, type ScheduleTimeline } from './schedules.js';
import { bookedByDate, bookedInRange } from './bookings.js';

const MINUTE_MS = 60_000;
/** Statistics computed at once in a process, and waiting at most (then 503 BUSY). */
export const STATISTICS_LANE = { concurrency: 2, queueLimit: 500 } as const;

export interface DayFigures {
  date: LocalDate;
  weekday: Weekday;
  target_minutes: number;
  /** After the deduction of the break rules. */
  worked_minutes: number;
  /** Breaks taken: the gaps of at least min_break_minutes between the day's entries. */
  break_minutes: number;
  break_deducted_minutes: number;
  absence: AbsenceType | null;
  absence_portion: AbsencePortion | null;
  public_holiday: string | null;
  /** Bookings dated that day (docs/time-model.md, Bookings): part of the balance. */
  booked_minutes: number;
  balance_minutes: number;
}

/** A day of the week overview without a user: only the calendar and the holidays of ?region=. */
export interface AnonymousDay {
  date: LocalDate;
  weekday: Weekday;
  target_minutes: null;
  worked_minutes: null;
  break_minutes: null;
  break_deducted_minutes: null;
  absence: null;
  absence_portion: null;
  public_holiday: string | null;
  booked_minutes: null;
  balance_minutes: null;
}

export interface Totals<T extends number | null> {
  target_minutes: T;
  worked_minutes: T;
  break_minutes: T;
  break_deducted_minutes: T;
  booked_minutes: T;
  balance_minutes: T;
}

export interface WeekOverview {
  week_start: LocalDate;
  week_end: LocalDate;
  days: DayFigures[];
  totals: Totals<number>;
}

export interface AnonymousWeekOverview {
  week_start: LocalDate;
  week_end: LocalDate;
  days: AnonymousDay[];
  totals: Totals<null>;
}

export interface OvertimeBalance {
  balance_minutes: number;
  offset_minutes: number;
  since: LocalDate;
  through: LocalDate;
}

/** A day of the monthly timesheet: the day row, and its first start and last end (null while it runs). */
export interface MonthDay extends DayFigures {
  first_start: string | null;
  last_end: string | null;
}

export interface MonthFigures {
  month: string;
  timezone: string;
  days: MonthDay[];
  totals: Totals<number>;
  /** The balance through the day before the month (offset included; complete days only). */
  balance_before_minutes: number;
  /** That plus the balances of the month's days from tracking_start through yesterday. */
  balance_after_minutes: number;
}

export interface PeriodFigures {
  target_minutes: number;
  worked_minutes: number;
  booked_minutes: number;
  balance_minutes: number;
}

export interface MonthlyBalances {
  year: number;
  since: LocalDate;
  through: LocalDate;
  offset_minutes: number;
  /** The balance at the end of the year before (offset included). */
  balance_before_minutes: number;
  months: Array<PeriodFigures & { month: string; balance_end_minutes: number }>;
}

export interface TodayFigures {
  date: LocalDate;
  target_minutes: number;
  worked_minutes: number;
  break_minutes: number;
  break_deducted_minutes: number;
  booked_minutes: number;
  remaining_minutes: number;
  running: boolean;
  end_of_work: string;
  adjusted_end_of_work: string;
}

export function createStatisticsService(db: Kysely<Database>, clock: Clock, settingsService: SettingsService, absenceService: AbsenceService) {
  /**
   * Worked and break ms per local day from `from` through `through`: the stored totals plus the
   * running entry up to now (and the gap before it, on the day it started, if that is a break).
   * `running` lists the days the running entry touches.
   */
  async function liveTotals(userId: number, settings: Settings, from: LocalDate, through: LocalDate, nowMs: number): Promise<{ days: Map<LocalDate, DayTotal>; running: LocalDate[] }> {
    const days = await dailyTotals(db, userId, from, through);
    const entry = await runningEntry(db, userId);
    const running: LocalDate[] = [];
    if (entry) {
      const zone = settings.timezone;
      const startMs = Date.parse(entry.start_at);
      // A timer with a limit counts up to its start plus the limit, where housekeeping stops it.
      const endMs = settings.timer_limit_minutes === null ? nowMs : Math.min(nowMs, startMs + settings.timer_limit_minutes * MINUTE_MS);
      const pieces = splitByLocalDay(startMs, endMs, zone);
      const startDate = pieces[0]?.date ?? localDateOf(startMs, zone);
      if (startDate >= from && startDate <= through) {
        const [previous] = await db.selectFrom('time_entries').select('end_at').where('user_id', '=', userId).where('start_at', '<', entry.start_at).orderBy('start_at', 'desc').limit(1).execute();
        const previousEnd = previous?.end_at ? Date.parse(previous.end_at) : undefined;
        if (previousEnd !== undefined && previousEnd > startOfDay(startDate, zone) && startMs - previousEnd >= settings.min_break_minutes * MINUTE_MS) {
          const day = days.get(startDate) ?? { workedMs: 0, breakMs: 0 };
          days.set(startDate, { ...day, breakMs: day.breakMs + startMs - previousEnd });
        }
      }
      for (const piece of pieces) {
        if (piece.date < from || piece.date > through) continue;
        const day = days.get(piece.date) ?? { workedMs: 0, breakMs: 0 };
        days.set(piece.date, { ...day, workedMs: day.workedMs + piece.ms });
        running.push(piece.date);
      }
    }
    return { days, running };
  }

  /** A day's whole worked minutes before and after the deduction of the break rules, and the breaks taken. */
  function workedOf(day: DayTotal | undefined, rules: readonly BreakRule[]): { raw: number; taken: number; deducted: number } {
    const raw = Math.floor((day?.workedMs ?? 0) / MINUTE_MS);
    const taken = Math.floor((day?.breakMs ?? 0) / MINUTE_MS);
    return { raw, taken, deducted: breakDeduction(raw, taken, rules) };
  }

  async function dayFigures(userId: number, settings: Settings, from: LocalDate, through: LocalDate, nowMs: number): Promise<DayFigures[]> {
    if (through < from) return [];
    const timeline = await scheduleTimeline(db, userId);
    const { days } = await liveTotals(userId, settings, from, through, nowMs);
    const absences = await absenceService.absencesByDate(userId, from, through);
    const holidays = await publicHolidays(settings.holiday_region, from, through);
    const booked = await bookedByDate(db, userId, from, through);
    return datesFromThrough(from, through).map((date) => {
      const weekday = weekdayOf(date);
      const absence = absences.get(date) ?? null;
      const publicHoliday = holidays.get(date) ?? null;
      const targetMinutes = targetOfDay(timeline.targetOn(date, weekday), date >= settings.tracking_start, publicHoliday !== null, absence?.portion ?? null);
      const worked = workedOf(days.get(date), settings.break_rules);
      const workedMinutes = worked.raw - worked.deducted;
      const bookedMinutes = booked.get(date) ?? 0;
      return {
        date,
        weekday,
        target_minutes: targetMinutes,
        worked_minutes: workedMinutes,
        break_minutes: worked.taken,
        break_deducted_minutes: worked.deducted,
        absence: absence?.type ?? null,
        absence_portion: absence?.portion ?? null,
        public_holiday: publicHoliday,
        booked_minutes: bookedMinutes,
        balance_minutes: workedMinutes - targetMinutes + bookedMinutes,
      };
    });
  }

  function sumOf(days: DayFigures[]): Totals<number> {
    const totals = { target_minutes: 0, worked_minutes: 0, break_minutes: 0, break_deducted_minutes: 0, booked_minutes: 0, balance_minutes: 0 };
    for (const day of days) {
      totals.target_minutes += day.target_minutes;
      totals.worked_minutes += day.worked_minutes;
      totals.break_minutes += day.break_minutes;
      totals.break_deducted_minutes += day.break_deducted_minutes;
      totals.booked_minutes += day.booked_minutes;
      totals.balance_minutes += day.balance_minutes;
    }
    return totals;
  }

  /** The week (Monday to Sunday) containing `date` (default: today in the user's zone). */
  async function weekOverview(userId: number, date?: string): Promise<WeekOverview> {
    const settings = await settingsService.getSettings(userId);
    const now = clock.now().getTime();
    const weekStart = mondayOf(date !== undefined ? parseDate(date, 'date') : localDateOf(now, settings.timezone));
    const weekEnd = addDays(weekStart, 6);
    const days = await dayFigures(userId, settings, weekStart, weekEnd, now);
    return { week_start: weekStart, week_end: weekEnd, days, totals: sumOf(days) };
  }

  /** The week without a user: the calendar and the public holidays of `region` (today in UTC by default). */
  async function anonymousWeekOverview(date?: string, region?: string): Promise<AnonymousWeekOverview> {
    const weekStart = mondayOf(date !== undefined ? parseDate(date, 'date') : localDateOf(clock.now().getTime(), 'UTC'));
    const weekEnd = addDays(weekStart, 6);
    const holidays = await publicHolidays(region ? await normalizeHolidayRegion(region) : null, weekStart, weekEnd);
    const days = datesFromThrough(weekStart, weekEnd).map((day) => ({
      date: day,
      weekday: weekdayOf(day),
      target_minutes: null,
      worked_minutes: null,
      break_minutes: null,
      break_deducted_minutes: null,
      absence: null,
      absence_portion: null,
      public_holiday: holidays.get(day) ?? null,
      booked_minutes: null,
      balance_minutes: null,
    }));
    return { week_start: weekStart, week_end: weekEnd, days, totals: { target_minutes: null, worked_minutes: null, break_minutes: null, break_deducted_minutes: null, booked_minutes: null, balance_minutes: null } };
  }

  /**
   * Worked minutes from `from` through `through`: each day's whole minutes less its break deduction,
   * summed in the database over the stored days (one aggregate; the deduction is a CASE over the
   * user's few rules), and the days the running entry touches worked out here with it.
   */
  async function workedMinutesInRange(userId: number, settings: Settings, from: LocalDate, through: LocalDate, nowMs: number): Promise<number> {
    const running = await runningEntry(db, userId);
    const live = running ? await liveTotals(userId, settings, from, through, nowMs) : undefined;
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
  async function targetMinutesInRange(userId: number, settings: Settings, timeline: ScheduleTimeline, from: LocalDate, through: LocalDate): Promise<number> {
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
  async function periodFigures(userId: number, settings: Settings, timeline: ScheduleTimeline, from: LocalDate, through: LocalDate, nowMs: number): Promise<PeriodFigures> {
    if (through < from) return { target_minutes: 0, worked_minutes: 0, booked_minutes: 0, balance_minutes: 0 };
    // The aggregates over every day since tracking_start are the heavy part of a statistics request
    // (synchronous on SQLite): each gets a macrotask of its own, so that other requests are answered
    // between them, however many accounts ask at once.
    await nextMacrotask();
    const worked = await workedMinutesInRange(userId, settings, from, through, nowMs);
    await nextMacrotask();
    const target = await targetMinutesInRange(userId, settings, timeline, from, through);
    const booked = await bookedInRange(db, userId, from, through);
    return { target_minutes: target, worked_minutes: worked, booked_minutes: booked, balance_minutes: worked - target + booked };
  }

  /** offset + worked − target + booked over every complete day from tracking_start through yesterday. */
  async function balanceThroughYesterday(userId: number, settings: Settings, nowMs: number): Promise<OvertimeBalance> {
    const through = addDays(localDateOf(nowMs, settings.timezone), -1);
    const since = settings.tracking_start;
    const timeline = await scheduleTimeline(db, userId);
    const period = await periodFigures(userId, settings, timeline, since, through, nowMs);
    return { balance_minutes: settings.overtime_offset_minutes + period.balance_minutes, offset_minutes: settings.overtime_offset_minutes, since, through };
  }

  /**
   * The balance month by month through `year` (default: this year in the user's zone): each month's
   * complete days (from tracking_start through yesterday) and the balance at its end, offset included.
   */
  async function monthlyBalances(userId: number, year?: number): Promise<MonthlyBalances> {
    const settings = await settingsService.getSettings(userId);
    const nowMs = clock.now().getTime();
    const yesterday = addDays(localDateOf(nowMs, settings.timezone), -1);
    const shownYear = year ?? Number(localDateOf(nowMs, settings.timezone).slice(0, 4));
    if (!Number.isInteger(shownYear) || shownYear < 1970 || shownYear > 2099) throw validationError('year must be a year from 1970 to 2099', 'year');
    const timeline = await scheduleTimeline(db, userId);
    const since = settings.tracking_start;
    const clamp = (date: LocalDate) => (date > yesterday ? yesterday : date);
    const start = `${shownYear}-01-01`;
    let balance = settings.overtime_offset_minutes + (await periodFigures(userId, settings, timeline, since, clamp(addDays(start, -1)), nowMs)).balance_minutes;
    const balanceBefore = balance;
    const months: MonthlyBalances['months'] = [];
    for (let month = 1; month <= 12; month++) {
      const first = `${shownYear}-${String(month).padStart(2, '0')}-01`;
      const last = addDays(month === 12 ? `${shownYear + 1}-01-01` : `${shownYear}-${String(month + 1).padStart(2, '0')}-01`, -1);
      const figures = await periodFigures(userId, settings, timeline, first < since ? since : first, clamp(last), nowMs);
      balance += figures.balance_minutes;
      months.push({ month: first.slice(0, 7), ...figures, balance_end_minutes: balance });
    }
    return { year: shownYear, since, through: yesterday, offset_minutes: settings.overtime_offset_minutes, balance_before_minutes: balanceBefore, months };
  }

  /** offset + worked − target over every complete day from tracking_start through yesterday. */
  async function overtime(userId: number): Promise<OvertimeBalance> {
    const settings = await settingsService.getSettings(userId);
    return balanceThroughYesterday(userId, settings, clock.now().getTime());
  }

  /**
   * Today's figures. end_of_work: when today's target is met if work goes on (or starts) now without
   * a further break, the break the rules still ask for included (in the past once it is met).
   * adjusted_end_of_work: that instant moved earlier by a positive balance, later by a negative one
   * (today's bookings included), so that leaving then brings the balance to zero.
   */
  async function today(userId: number): Promise<TodayFigures> {
    const settings = await settingsService.getSettings(userId);
    const nowMs = clock.now().getTime();
    const date = localDateOf(nowMs, settings.timezone);
    const [day] = await dayFigures(userId, settings, date, date, nowMs);
    const { days } = await liveTotals(userId, settings, date, date, nowMs);
    const current = await runningEntry(db, userId);
    const workedMs = days.get(date)?.workedMs ?? 0;
    let breakMs = days.get(date)?.breakMs ?? 0;
    if (!current) {
      // Work that starts now leaves a gap after today's last entry: a break, if it is long enough.
      const dayStart = startOfDay(date, settings.timezone);
      const entries = await entriesOverlapping(db, userId, { from: toIso(dayStart), to: toIso(nowMs) });
      const lastEnd = Math.max(...entries.map((entry) => (entry.end_at === null ? -Infinity : Date.parse(entry.end_at))).filter((end) => end <= nowMs));
      if (Number.isFinite(lastEnd) && lastEnd > dayStart && nowMs - lastEnd >= settings.min_break_minutes * MINUTE_MS) breakMs += nowMs - lastEnd;
    }
    const balance = await balanceThroughYesterday(userId, settings, nowMs);
    const targetMinutes = day?.target_minutes ?? 0;
    const needed = workNeededFor(targetMinutes, Math.floor(breakMs / MINUTE_MS), settings.break_rules);
    const endOfWork = nowMs + needed * MINUTE_MS - workedMs;
    return {
      date,
      target_minutes: targetMinutes,
      worked_minutes: day?.worked_minutes ?? 0,
      break_minutes: day?.break_minutes ?? 0,
      break_deducted_minutes: day?.break_deducted_minutes ?? 0,
      booked_minutes: day?.booked_minutes ?? 0,
      remaining_minutes: Math.max(0, targetMinutes - (day?.worked_minutes ?? 0)),
      running: current !== undefined,
      end_of_work: toIso(endOfWork),
      // Today's bookings move the balance as well: a payout today makes leaving later.
      adjusted_end_of_work: toIso(endOfWork - (balance.balance_minutes + (day?.booked_minutes ?? 0)) * MINUTE_MS),
    };
  }

  /**
   * The month (YYYY-MM; default: this month in the user's zone) day by day, with each day's first
   * start and last end, the totals, and the balance carried in and out.
   */
  async function monthFigures(userId: number, month?: string): Promise<MonthFigures> {
    const settings = await settingsService.getSettings(userId);
    const nowMs = clock.now().getTime();
    const today = localDateOf(nowMs, settings.timezone);
    const shown = month ?? today.slice(0, 7);
    if (!/^\d{4}-\d{2}$/.test(shown)) throw validationError('month must be YYYY-MM', 'month');
    const first = parseDate(`${shown}-01`, 'month');
    const last = addDays(Number(shown.slice(5, 7)) === 12 ? `${Number(shown.slice(0, 4)) + 1}-01-01` : `${shown.slice(0, 5)}${String(Number(shown.slice(5, 7)) + 1).padStart(2, '0')}-01`, -1);
    const days = await dayFigures(userId, settings, first, last, nowMs);
    // First start and last end of each day, from the month's entries (their pieces of each day).
    const spans = new Map<LocalDate, { first: number; last: number | null }>();
    const zone = settings.timezone;
    for (const entry of await entriesOverlapping(db, userId, { from: toIso(startOfDay(first, zone)), to: toIso(startOfDay(addDays(last, 1), zone)) })) {
      const startMs = Date.parse(entry.start_at);
      const limitMs = settings.timer_limit_minutes === null ? Infinity : startMs + settings.timer_limit_minutes * MINUTE_MS;
      const endMs = entry.end_at === null ? Math.min(nowMs, limitMs) : Date.parse(entry.end_at);
      let cursor = startMs;
      for (const piece of splitByLocalDay(startMs, Math.max(endMs, startMs + 1), zone)) {
        const pieceEnd = cursor + piece.ms;
        const span = spans.get(piece.date) ?? { first: cursor, last: 0 };
        span.first = Math.min(span.first, cursor);
        span.last = entry.end_at === null && pieceEnd >= endMs ? null : span.last === null ? null : Math.max(span.last, pieceEnd);
        spans.set(piece.date, span);
        cursor = pieceEnd;
      }
    }
    const yesterday = addDays(today, -1);
    const before = addDays(first, -1) < yesterday ? addDays(first, -1) : yesterday;
    const timeline = await scheduleTimeline(db, userId);
    const carried = settings.overtime_offset_minutes + (await periodFigures(userId, settings, timeline, settings.tracking_start, before, nowMs)).balance_minutes;
    const counted = days.filter((day) => day.date >= settings.tracking_start && day.date <= yesterday).reduce((sum, day) => sum + day.balance_minutes, 0);
    return {
      month: shown,
      timezone: zone,
      days: days.map((day) => {
        const span = spans.get(day.date);
        return { ...day, first_start: span ? toIso(span.first) : null, last_end: span && span.last !== null ? toIso(span.last) : null };
      }),
      totals: sumOf(days),
      balance_before_minutes: carried,
      balance_after_minutes: carried + counted,
    };
  }

  // Statistics of accounts take turns (src/common/work-lane.ts): a few at once per process.
  const lane = createWorkLane({ ...STATISTICS_LANE, name: 'statistics requests' });
  return {
    weekOverview: (userId: number, date?: string) => lane.run(() => weekOverview(userId, date)),
    anonymousWeekOverview: (date?: string, region?: string) => lane.run(() => anonymousWeekOverview(date, region)),
    overtime: (userId: number) => lane.run(() => overtime(userId)),
    today: (userId: number) => lane.run(() => today(userId)),
    monthlyBalances: (userId: number, year?: number) => lane.run(() => monthlyBalances(userId, year)),
    monthFigures: (userId: number, month?: string) => lane.run(() => monthFigures(userId, month)),
  };
}
