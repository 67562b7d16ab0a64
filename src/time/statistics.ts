// Week overview, overtime balance and today's end of work (docs/time-model.md).
//
// A day's target is the weekday's target from the settings, or 0 on a day with an absence, on a
// public holiday of the user's region, and before tracking_start. A day's worked minutes are the
// whole minutes worked on that local day (an entry across midnight counts on both days), read from
// the per-day totals plus the running entry up to now. Every sum is a sum of these per-day integers,
// so the week, the balance and today always agree. Nothing here scans all of a user's entries.
import { setImmediate as nextMacrotask } from 'node:timers/promises';
import { sql, type Kysely } from 'kysely';
import type { AbsenceType, Database, LocalDate } from '../db/types.js';
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
import { createWorkLane } from '../common/work-lane.js';
import { dailyTotals, runningEntry } from './entries-store.js';
import type { Settings, SettingsService } from './settings.js';

const MINUTE_MS = 60_000;
/** Statistics computed at once in a process, and waiting at most (then 503 BUSY). */
export const STATISTICS_LANE = { concurrency: 2, queueLimit: 500 } as const;

export interface DayFigures {
  date: LocalDate;
  weekday: Weekday;
  target_minutes: number;
  worked_minutes: number;
  absence: AbsenceType | null;
  public_holiday: string | null;
  balance_minutes: number;
}

/** A day of the week overview without a user: only the calendar and the holidays of ?region=. */
export interface AnonymousDay {
  date: LocalDate;
  weekday: Weekday;
  target_minutes: null;
  worked_minutes: null;
  absence: null;
  public_holiday: string | null;
  balance_minutes: null;
}

export interface Totals<T extends number | null> {
  target_minutes: T;
  worked_minutes: T;
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

export interface TodayFigures {
  date: LocalDate;
  target_minutes: number;
  worked_minutes: number;
  remaining_minutes: number;
  running: boolean;
  end_of_work: string;
  adjusted_end_of_work: string;
}

export function createStatisticsService(db: Kysely<Database>, clock: Clock, settingsService: SettingsService, absenceService: AbsenceService) {
  /** Worked ms per local day from `from` through `through`: stored totals plus the running entry up to now. */
  async function workedMsByDay(userId: number, zone: string, from: LocalDate, through: LocalDate, nowMs: number): Promise<Map<LocalDate, number>> {
    const worked = await dailyTotals(db, userId, from, through);
    const running = await runningEntry(db, userId);
    if (running) {
      for (const piece of splitByLocalDay(Date.parse(running.start_at), nowMs, zone)) {
        if (piece.date >= from && piece.date <= through) worked.set(piece.date, (worked.get(piece.date) ?? 0) + piece.ms);
      }
    }
    return worked;
  }

  async function dayFigures(userId: number, settings: Settings, from: LocalDate, through: LocalDate, nowMs: number): Promise<DayFigures[]> {
    if (through < from) return [];
    const worked = await workedMsByDay(userId, settings.timezone, from, through, nowMs);
    const absences = await absenceService.absencesByDate(userId, from, through);
    const holidays = await publicHolidays(settings.holiday_region, from, through);
    return datesFromThrough(from, through).map((date) => {
      const weekday = weekdayOf(date);
      const absence = absences.get(date) ?? null;
      const publicHoliday = holidays.get(date) ?? null;
      const counts = date >= settings.tracking_start && absence === null && publicHoliday === null;
      const targetMinutes = counts ? settings.weekly_target_minutes[weekday] : 0;
      const workedMinutes = Math.floor((worked.get(date) ?? 0) / MINUTE_MS);
      return {
        date,
        weekday,
        target_minutes: targetMinutes,
        worked_minutes: workedMinutes,
        absence,
        public_holiday: publicHoliday,
        balance_minutes: workedMinutes - targetMinutes,
      };
    });
  }

  function sumOf(days: DayFigures[]): Totals<number> {
    const totals = { target_minutes: 0, worked_minutes: 0, balance_minutes: 0 };
    for (const day of days) {
      totals.target_minutes += day.target_minutes;
      totals.worked_minutes += day.worked_minutes;
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
      absence: null,
      public_holiday: holidays.get(day) ?? null,
      balance_minutes: null,
    }));
    return { week_start: weekStart, week_end: weekEnd, days, totals: { target_minutes: null, worked_minutes: null, balance_minutes: null } };
  }

  /** Whole worked minutes from `from` through `through`, each day rounded down, running entry included. */
  async function workedMinutesInRange(userId: number, zone: string, from: LocalDate, through: LocalDate, nowMs: number): Promise<number> {
    // Integer division per day row: the same rounding as the per-day figures, summed in SQLite. A bound
    // JavaScript number reaches SQLite as a real, and a real division would carry the seconds of every
    // day into the balance: hence the casts.
    const stored = await db
      .selectFrom('daily_totals')
      .select(sql<number>`coalesce(sum(cast(worked_ms as integer) / cast(${MINUTE_MS} as integer)), 0)`.as('minutes'))
      .where('user_id', '=', userId)
      .where('date', '>=', from)
      .where('date', '<=', through)
      .executeTakeFirstOrThrow();
    let minutes = Number(stored.minutes);
    const running = await runningEntry(db, userId);
    if (running) {
      const pieces = splitByLocalDay(Date.parse(running.start_at), nowMs, zone).filter((piece) => piece.date >= from && piece.date <= through);
      if (pieces.length > 0) {
        const totals = await dailyTotals(db, userId, pieces[0]!.date, pieces.at(-1)!.date);
        for (const piece of pieces) {
          const storedMs = totals.get(piece.date) ?? 0;
          minutes += Math.floor((storedMs + piece.ms) / MINUTE_MS) - Math.floor(storedMs / MINUTE_MS);
        }
      }
    }
    return minutes;
  }

  /**
   * The target of every day from `from` through `through`: weekday targets, less absences and
   * holidays (a day that is both counts once). Absences are counted per weekday by the database and
   * only those on a holiday are read: the work is bounded by the holidays of the range, not by the
   * account's absences.
   */
  async function targetMinutesInRange(userId: number, settings: Settings, from: LocalDate, through: LocalDate): Promise<number> {
    let target = 0;
    for (const [weekday, count] of weekdayCounts(from, through)) target += count * settings.weekly_target_minutes[weekday];
    for (const [weekday, count] of await absenceService.absenceCountsByWeekday(userId, from, through)) target -= count * settings.weekly_target_minutes[weekday];
    const holidays = [...(await publicHolidays(settings.holiday_region, from, through)).keys()];
    const alsoAbsent = await absenceService.absenceDatesAmong(userId, holidays);
    for (const date of holidays) if (!alsoAbsent.has(date)) target -= settings.weekly_target_minutes[weekdayOf(date)];
    return target;
  }

  /**
   * offset + worked − target over every complete day from tracking_start through yesterday, from
   * aggregates: one sum over the per-day totals, the absences and holidays of the range, and the
   * weekdays counted by arithmetic, so five years cost about what a week does.
   */
  async function balanceThroughYesterday(userId: number, settings: Settings, nowMs: number): Promise<OvertimeBalance> {
    const through = addDays(localDateOf(nowMs, settings.timezone), -1);
    const since = settings.tracking_start;
    let balance = settings.overtime_offset_minutes;
    if (through >= since) {
      // The two aggregates over every day since tracking_start are the heavy part of a statistics
      // request (synchronous on SQLite): each gets a macrotask of its own, so that other requests
      // are answered between them, however many accounts ask at once.
      await nextMacrotask();
      const worked = await workedMinutesInRange(userId, settings.timezone, since, through, nowMs);
      await nextMacrotask();
      balance += worked - (await targetMinutesInRange(userId, settings, since, through));
    }
    return { balance_minutes: balance, offset_minutes: settings.overtime_offset_minutes, since, through };
  }

  /** offset + worked − target over every complete day from tracking_start through yesterday. */
  async function overtime(userId: number): Promise<OvertimeBalance> {
    const settings = await settingsService.getSettings(userId);
    return balanceThroughYesterday(userId, settings, clock.now().getTime());
  }

  /**
   * Today's figures. end_of_work: when today's target is met if work goes on (or starts) now without
   * a break (in the past once it is met). adjusted_end_of_work: that instant moved earlier by a
   * positive balance, later by a negative one, so that leaving then brings the balance to zero.
   */
  async function today(userId: number): Promise<TodayFigures> {
    const settings = await settingsService.getSettings(userId);
    const nowMs = clock.now().getTime();
    const date = localDateOf(nowMs, settings.timezone);
    const [day] = await dayFigures(userId, settings, date, date, nowMs);
    const workedMs = (await workedMsByDay(userId, settings.timezone, date, date, nowMs)).get(date) ?? 0;
    const balance = await balanceThroughYesterday(userId, settings, nowMs);
    const targetMinutes = day?.target_minutes ?? 0;
    const endOfWork = nowMs + targetMinutes * MINUTE_MS - workedMs;
    return {
      date,
      target_minutes: targetMinutes,
      worked_minutes: day?.worked_minutes ?? 0,
      remaining_minutes: Math.max(0, targetMinutes - (day?.worked_minutes ?? 0)),
      running: (await runningEntry(db, userId)) !== undefined,
      end_of_work: toIso(endOfWork),
      adjusted_end_of_work: toIso(endOfWork - balance.balance_minutes * MINUTE_MS),
    };
  }

  // Statistics of accounts take turns (src/common/work-lane.ts): a few at once per process.
  const lane = createWorkLane({ ...STATISTICS_LANE, name: 'statistics requests' });
  return {
    weekOverview: (userId: number, date?: string) => lane.run(() => weekOverview(userId, date)),
    anonymousWeekOverview: (date?: string, region?: string) => lane.run(() => anonymousWeekOverview(date, region)),
    overtime: (userId: number) => lane.run(() => overtime(userId)),
    today: (userId: number) => lane.run(() => today(userId)),
  };
}
