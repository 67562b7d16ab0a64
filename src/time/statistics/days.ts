// A day's figures (docs/time-model.md): its target, worked minutes and breaks from the per-day totals
// plus the running entry up to now, its absence, holiday and bookings.
import type { Kysely } from 'kysely';
import type { Database, LocalDate } from '../../db/types.js';
import { breakDeduction, isBreak, targetOfDay } from '../day-rules.js';
import { datesFromThrough, localDateOf, splitByLocalDay, startOfDay, weekdayOf } from '../calendar/dates.js';
import { publicHolidays, type HolidayLanguage } from '../calendar/holidays.js';
import { dailyTotals } from '../entries/daily-totals.js';
import type { DayTotal } from '../entries/store.js';
import type { BreakRule } from '../settings/settings.js';
import { absencesByDate } from '../absences/days.js';
import { bookedByDate } from '../bookings.js';
import type { AccountContext } from './context.js';
import type { StoredDays } from './stored-days.js';
import type { DayFigures, Totals } from './types.js';

export const MINUTE_MS = 60_000;

/** The running entry's span up to now (or to its start plus the limit, where housekeeping stops it), split at the local days. */
function runningSpan(context: AccountContext): { startMs: number; pieces: Array<{ date: LocalDate; ms: number }> } | undefined {
  const { running: entry, settings, nowMs } = context;
  if (!entry) return undefined;
  const startMs = Date.parse(entry.start_at);
  const endMs = settings.timer_limit_minutes === null ? nowMs : Math.min(nowMs, startMs + settings.timer_limit_minutes * MINUTE_MS);
  return { startMs, pieces: splitByLocalDay(startMs, endMs, settings.zones) };
}

/** The days from `from` through `through` that the running entry touches (none: no statement needed). */
export function runningDays(context: AccountContext, from: LocalDate, through: LocalDate): LocalDate[] {
  return (runningSpan(context)?.pieces ?? []).map((piece) => piece.date).filter((date) => date >= from && date <= through);
}

/**
 * Worked and break ms per local day from `from` through `through`: the stored totals plus the
 * running entry up to now (and the gap before it, on the day it started, if that is a break).
 * `running` lists the days the running entry touches.
 */
export async function liveTotals(
  db: Kysely<Database>,
  context: AccountContext,
  from: LocalDate,
  through: LocalDate,
  stored?: Map<LocalDate, DayTotal>,
): Promise<{ days: Map<LocalDate, DayTotal>; running: LocalDate[] }> {
  const { settings } = context;
  const days = stored ? new Map(stored) : await dailyTotals(db, context.userId, from, through);
  const span = runningSpan(context);
  const running: LocalDate[] = [];
  if (span) {
    const zone = settings.zones;
    const { startMs, pieces } = span;
    const startDate = pieces[0]?.date ?? localDateOf(startMs, zone);
    if (startDate >= from && startDate <= through) {
      const previousEnd = await context.previousEnd();
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

/**
 * The day rows from `from` through `through`, and the live totals they were worked out from.
 * `stored`: those days' stored totals, absences and bookings, read already (./stored-days.ts).
 */
export async function dayFigures(
  db: Kysely<Database>,
  context: AccountContext,
  from: LocalDate,
  through: LocalDate,
  language: HolidayLanguage = 'en',
  stored?: StoredDays,
): Promise<{ rows: DayFigures[]; totals: Map<LocalDate, DayTotal> }> {
  if (through < from) return { rows: [], totals: new Map() };
  const { settings, timeline, userId } = context;
  const { days } = await liveTotals(db, context, from, through, stored?.totals);
  const absences = stored?.absences ?? (await absencesByDate(db, userId, from, through));
  const holidays = await publicHolidays(settings.holiday_region, from, through, language);
  const booked = stored?.booked ?? (await bookedByDate(db, userId, from, through));
  const today = localDateOf(context.nowMs, settings.zones);
  const rows = datesFromThrough(from, through).map((date) => {
    const weekday = weekdayOf(date);
    const absence = absences.get(date) ?? null;
    const publicHoliday = holidays.get(date) ?? null;
    const targetMinutes = targetOfDay(timeline.targetOn(date, weekday), date >= settings.tracking_start, publicHoliday !== null, absence?.portion ?? null);
    const worked = workedOf(days.get(date), settings.break_rules);
    const workedMinutes = worked.raw - worked.deducted;
    const bookedMinutes = booked.get(date) ?? 0;
    // A balance counts complete days only (docs/time-model.md): over, and tracked.
    const complete = date < today && date >= settings.tracking_start;
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
      complete,
      balance_minutes: complete ? workedMinutes - targetMinutes + bookedMinutes : null,
    };
  });
  return { rows, totals: days };
}

/** The sums of the complete days (worked − target + booked = balance), and the whole period's target. */
export function sumOf(days: DayFigures[]): Totals<number> {
  const totals = { target_minutes: 0, worked_minutes: 0, break_minutes: 0, break_deducted_minutes: 0, booked_minutes: 0, balance_minutes: 0 };
  let targetPeriod = 0;
  for (const day of days) {
    targetPeriod += day.target_minutes;
    if (!day.complete) continue;
    totals.target_minutes += day.target_minutes;
    totals.worked_minutes += day.worked_minutes;
    totals.break_minutes += day.break_minutes;
    totals.break_deducted_minutes += day.break_deducted_minutes;
    totals.booked_minutes += day.booked_minutes;
    totals.balance_minutes += day.balance_minutes ?? 0;
  }
  return { ...totals, target_period_minutes: targetPeriod };
}
