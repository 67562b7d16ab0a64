// The week overview: a user's days Monday to Sunday, or without a user the calendar and holidays.
import { addDays, datesFromThrough, localDateOf, mondayOf, parseDate, weekdayOf } from '../calendar/dates.js';
import { normalizeHolidayRegion, publicHolidays, type HolidayLanguage } from '../calendar/holidays.js';
import type { Kysely } from 'kysely';
import type { Database, LocalDate } from '../../db/types.js';
import { accountContext, type AccountContext } from './context.js';
import { dayFigures, sumOf } from './days.js';
import type { StoredDays } from './stored-days.js';
import type { AnonymousWeekOverview, StatisticsDeps, WeekOverview } from './types.js';

/** The week (Monday to Sunday) containing `date` (default: today in the user's zone), holidays named in `language`. */
export async function weekOverview(deps: StatisticsDeps, userId: number, date?: string, language: HolidayLanguage = 'en'): Promise<WeekOverview> {
  const context = await accountContext(deps, userId);
  return weekOf(deps.db, context, mondayOf(date !== undefined ? parseDate(date, 'date') : localDateOf(context.nowMs, context.settings.zones)), language);
}

/** The week from `weekStart` (a Monday) of an account whose context (and maybe stored days: ./stored-days.ts) is read already. */
export async function weekOf(
  db: Kysely<Database>,
  context: AccountContext,
  weekStart: LocalDate,
  language: HolidayLanguage = 'en',
  stored?: StoredDays,
): Promise<WeekOverview> {
  const weekEnd = addDays(weekStart, 6);
  const { rows: days } = await dayFigures(db, context, weekStart, weekEnd, language, stored);
  return { week_start: weekStart, week_end: weekEnd, days, totals: sumOf(days) };
}

/** The week without a user: the calendar and the public holidays of `region` (today in UTC by default). */
export async function anonymousWeekOverview(
  { clock }: Pick<StatisticsDeps, 'clock'>,
  date?: string,
  region?: string,
  language: HolidayLanguage = 'en',
): Promise<AnonymousWeekOverview> {
  const weekStart = mondayOf(date !== undefined ? parseDate(date, 'date') : localDateOf(clock.now().getTime(), 'UTC'));
  const weekEnd = addDays(weekStart, 6);
  const holidays = await publicHolidays(region ? await normalizeHolidayRegion(region) : null, weekStart, weekEnd, language);
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
    complete: false as const,
    balance_minutes: null,
  }));
  return {
    week_start: weekStart,
    week_end: weekEnd,
    days,
    totals: {
      target_minutes: null,
      worked_minutes: null,
      break_minutes: null,
      break_deducted_minutes: null,
      booked_minutes: null,
      balance_minutes: null,
      target_period_minutes: null,
    },
  };
}
