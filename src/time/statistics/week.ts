// The week overview: a user's days Monday to Sunday, or without a user the calendar and holidays.
import { addDays, datesFromThrough, localDateOf, mondayOf, parseDate, weekdayOf } from '../calendar/dates.js';
import { normalizeHolidayRegion, publicHolidays, type HolidayLanguage } from '../calendar/holidays.js';
import { accountContext } from './context.js';
import { dayFigures, sumOf } from './days.js';
import type { AnonymousWeekOverview, StatisticsDeps, WeekOverview } from './types.js';

/**
 * The week (Monday to Sunday) containing `date` (default: today in the user's zone); its public
 * holidays named in `language` (the figures are the same in every language), as the month's are.
 */
export async function weekOverview(deps: StatisticsDeps, userId: number, date?: string, language: HolidayLanguage = 'en'): Promise<WeekOverview> {
  const context = await accountContext(deps, userId);
  const weekStart = mondayOf(date !== undefined ? parseDate(date, 'date') : localDateOf(context.nowMs, context.settings.zones));
  const weekEnd = addDays(weekStart, 6);
  const { rows } = await dayFigures(deps.db, context, weekStart, weekEnd);
  let days = rows;
  if (language !== 'en' && rows.some((day) => day.public_holiday !== null)) {
    const names = await publicHolidays(context.settings.holiday_region, weekStart, weekEnd, language);
    days = rows.map((day) => (day.public_holiday === null ? day : { ...day, public_holiday: names.get(day.date) ?? day.public_holiday }));
  }
  return { week_start: weekStart, week_end: weekEnd, days, totals: sumOf(days) };
}

/** The week without a user: the calendar and the public holidays of `region`, named in `language` (today in UTC by default). */
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
