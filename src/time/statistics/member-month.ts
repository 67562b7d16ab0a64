// The days of a month of several members for a team's calendar (docs/teams.md, "Team calendar"): each
// member's day rows worked out by `dayFigures` (./days.ts), the function of the member's own month
// (./month.ts), from one account context per member (read together: ./context.ts) and the month's
// absences read for all of them in one statement (../absences/days.ts). Nothing here decides a target,
// a holiday or an absence a second time.
import type { LocalDate } from '../../db/types.js';
import { absencesByDateOf, type DayAbsence } from '../absences/days.js';
import type { HolidayLanguage } from '../calendar/holidays.js';
import { accountContexts } from './context.js';
import { dayFigures } from './days.js';
import type { DayFigures, StatisticsDeps } from './types.js';

/**
 * What a calendar shows of a day: its target, public holiday and absence, as the member's own month has
 * them, and the absence asked for on it that waits for a lead (which changes no figure until approved).
 */
export type CalendarDayFigures = Pick<DayFigures, 'date' | 'target_minutes' | 'public_holiday' | 'absence' | 'absence_portion'> & {
  requested: DayAbsence | null;
};

/** The day rows from `first` through `last` of each of `userIds` (in that order), as each member's own month has them. */
export async function memberMonths(
  deps: StatisticsDeps,
  userIds: readonly number[],
  first: LocalDate,
  last: LocalDate,
  language: HolidayLanguage,
): Promise<CalendarDayFigures[][]> {
  const contexts = await accountContexts(deps, userIds);
  const absences = await absencesByDateOf(deps.db, userIds, first, last);
  const requested = await absencesByDateOf(deps.db, userIds, first, last, 'requested');
  const months: CalendarDayFigures[][] = [];
  for (const context of contexts) {
    // A day's target depends on the schedule, the tracking start, the holiday and the absence, never on
    // time worked: so the worked time (per-day totals, bookings, the running entry) is not read for it.
    const stored = { totals: new Map(), absences: absences.get(context.userId)!, booked: new Map<LocalDate, number>() };
    const { rows } = await dayFigures(deps.db, { ...context, running: undefined }, first, last, language, stored);
    const asked = requested.get(context.userId)!;
    months.push(
      rows.map(({ date, target_minutes, public_holiday, absence, absence_portion }) => ({
        date,
        target_minutes,
        public_holiday,
        absence,
        absence_portion,
        requested: asked.get(date) ?? null,
      })),
    );
  }
  return months;
}
