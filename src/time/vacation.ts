// The vacation allowance of a year (docs/time-model.md, Vacation allowance): days per year (the year
// of tracking_start pro rata by month), carried over from the year before (its remaining days, never
// below 0, capped by the setting), taken (through today) and planned (after today). A vacation day
// counts 1, a half day 0.5, and only on a day with a target (the schedule in force has minutes for its
// weekday, it is no public holiday, and it is not before tracking_start). Counted in half days.
import type { Kysely } from 'kysely';
import type { Database, LocalDate } from '../db/types.js';
import type { Clock } from '../common/clock.js';
import { validationError } from '../common/errors.js';
import { localDateOf, weekdayOf } from './calendar/dates.js';
import { publicHolidays } from './calendar/holidays.js';
import { scheduleTimeline, type ScheduleTimeline } from './schedules.js';
import type { Settings, SettingsService } from './settings.js';

export interface VacationYear {
  year: number;
  /** null when the allowance is not tracked (vacation_days_per_year null). */
  allowance_days: number | null;
  carried_over_days: number | null;
  taken_days: number;
  planned_days: number;
  remaining_days: number | null;
}

/** The allowance of `year` in half days: whole before the year of tracking_start, none; in it, one twelfth per month from its month on, to the nearest half day (halves up). */
export function allowanceHalfDays(perYearHalfDays: number, year: number, trackingStart: LocalDate): number {
  const startYear = Number(trackingStart.slice(0, 4));
  if (year < startYear) return 0;
  if (year > startYear) return perYearHalfDays;
  const months = 13 - Number(trackingStart.slice(5, 7));
  return Math.floor((perYearHalfDays * months) / 12 + 0.5);
}

export interface VacationDeps {
  db: Kysely<Database>;
  clock: Clock;
  settings: Pick<SettingsService, 'getSettings'>;
}

export function createVacationService({ db, clock, settings: settingsService }: VacationDeps) {
  /** Vacation half days per year from `first` through `last`, split at `today` (taken: on or before it). */
  async function countedHalfDays(userId: number, settings: Settings, timeline: ScheduleTimeline, first: number, last: number, today: LocalDate) {
    const from = `${first}-01-01`;
    const through = `${last}-12-31`;
    const rows = await db
      .selectFrom('absences')
      .select(['date', 'portion'])
      .where('user_id', '=', userId)
      .where('type', '=', 'vacation')
      .where('date', '>=', from < settings.tracking_start ? settings.tracking_start : from)
      .where('date', '<=', through)
      .execute();
    const holidays = await publicHolidays(settings.holiday_region, from, through);
    const byYear = new Map<number, { taken: number; planned: number }>();
    for (const row of rows) {
      if (holidays.has(row.date) || timeline.targetOn(row.date, weekdayOf(row.date)) === 0) continue;
      const year = Number(row.date.slice(0, 4));
      const counts = byYear.get(year) ?? { taken: 0, planned: 0 };
      const halves = row.portion === 'half' ? 1 : 2;
      if (row.date <= today) counts.taken += halves;
      else counts.planned += halves;
      byYear.set(year, counts);
    }
    return byYear;
  }

  /** The vacation figures of `year` (default: this year in the user's zone). */
  async function vacationYear(userId: number, year?: number): Promise<VacationYear> {
    const settings = await settingsService.getSettings(userId);
    const today = localDateOf(clock.now().getTime(), settings.zones);
    const shown = year ?? Number(today.slice(0, 4));
    if (!Number.isInteger(shown) || shown < 1970 || shown > 2099) throw validationError('year must be a year from 1970 to 2099', 'year');
    const timeline = await scheduleTimeline(db, userId);
    const startYear = Math.min(shown, Number(settings.tracking_start.slice(0, 4)));
    const counted = await countedHalfDays(userId, settings, timeline, startYear, shown, today);
    const days = (halves: number) => halves / 2;
    const { taken, planned } = counted.get(shown) ?? { taken: 0, planned: 0 };
    if (settings.vacation_days_per_year === null) {
      return { year: shown, allowance_days: null, carried_over_days: null, taken_days: days(taken), planned_days: days(planned), remaining_days: null };
    }
    const perYear = settings.vacation_days_per_year * 2;
    const cap = settings.vacation_carry_over_max_days === null ? Infinity : settings.vacation_carry_over_max_days * 2;
    // Year by year from the year of tracking_start: what is left carries into the next (never below 0, capped).
    let carried = 0;
    for (let y = startYear; y < shown; y++) {
      const used = counted.get(y) ?? { taken: 0, planned: 0 };
      const remaining = allowanceHalfDays(perYear, y, settings.tracking_start) + carried - used.taken - used.planned;
      carried = Math.min(Math.max(0, remaining), cap);
    }
    const allowance = allowanceHalfDays(perYear, shown, settings.tracking_start);
    return {
      year: shown,
      allowance_days: days(allowance),
      carried_over_days: days(carried),
      taken_days: days(taken),
      planned_days: days(planned),
      remaining_days: days(allowance + carried - taken - planned),
    };
  }

  return { vacationYear };
}
