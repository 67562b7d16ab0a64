// A day's figures (docs/time-model.md): its target, worked minutes and breaks from the per-day totals
// plus the running entry up to now, its absence, holiday and bookings.
import type { Kysely } from 'kysely';
import type { Database, LocalDate } from '../../db/types.js';
import { breakDeduction, isBreak, targetOfDay } from '../day-rules.js';
import { datesFromThrough, localDateOf, splitByLocalDay, startOfDay, weekdayOf } from '../calendar/dates.js';
import { publicHolidays } from '../calendar/holidays.js';
import { dailyTotals, runningEntry, type DayTotal } from '../entries/store.js';
import type { BreakRule, Settings } from '../settings.js';
import { scheduleTimeline } from '../schedules.js';
import { bookedByDate } from '../bookings.js';
import type { DayFigures, StatisticsDeps, Totals } from './types.js';

export const MINUTE_MS = 60_000;

/**
 * Worked and break ms per local day from `from` through `through`: the stored totals plus the
 * running entry up to now (and the gap before it, on the day it started, if that is a break).
 * `running` lists the days the running entry touches.
 */
export async function liveTotals(
  db: Kysely<Database>,
  userId: number,
  settings: Settings,
  from: LocalDate,
  through: LocalDate,
  nowMs: number,
): Promise<{ days: Map<LocalDate, DayTotal>; running: LocalDate[] }> {
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
      const [previous] = await db
        .selectFrom('time_entries')
        .select('end_at')
        .where('user_id', '=', userId)
        .where('start_at', '<', entry.start_at)
        .orderBy('start_at', 'desc')
        .limit(1)
        .execute();
      const previousEnd = previous?.end_at ? Date.parse(previous.end_at) : undefined;
      if (previousEnd !== undefined && previousEnd > startOfDay(startDate, zone) && isBreak(startMs - previousEnd, settings.min_break_minutes)) {
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
export function workedOf(day: DayTotal | undefined, rules: readonly BreakRule[]): { raw: number; taken: number; deducted: number } {
  const raw = Math.floor((day?.workedMs ?? 0) / MINUTE_MS);
  const taken = Math.floor((day?.breakMs ?? 0) / MINUTE_MS);
  return { raw, taken, deducted: breakDeduction(raw, taken, rules) };
}

export async function dayFigures(
  { db, absences: absenceService }: Pick<StatisticsDeps, 'db' | 'absences'>,
  userId: number,
  settings: Settings,
  from: LocalDate,
  through: LocalDate,
  nowMs: number,
): Promise<DayFigures[]> {
  if (through < from) return [];
  const timeline = await scheduleTimeline(db, userId);
  const { days } = await liveTotals(db, userId, settings, from, through, nowMs);
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

export function sumOf(days: DayFigures[]): Totals<number> {
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
