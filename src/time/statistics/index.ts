// Week overview, overtime balance and today's end of work (docs/time-model.md).
//
// A day's target is the weekday's target of the schedule in force, halved on a half day, or 0 on a
// day with a full absence, on a public holiday of the user's region, and before tracking_start. A
// day's worked minutes are the whole minutes worked on that local day (an entry across midnight
// counts on both days), less the deduction of the break rules, read from the per-day totals (worked
// time and breaks taken) plus the running entry up to now. Bookings count on their date. Every sum is
// a sum of these per-day integers, so the week, the balance and today always agree. Nothing here
// scans all of a user's entries.
//
// The figures are module functions taking their dependencies first (./days.ts, ./week.ts,
// ./balance.ts, ./month.ts, ./today.ts); this binds them to one set of dependencies, behind a work lane.
import { createWorkLane } from '../../common/work-lane.js';
import type { LocalDate } from '../../db/types.js';
import type { HolidayLanguage } from '../calendar/holidays.js';
import { monthlyBalances, overtime } from './balance.js';
import { memberMonths } from './member-month.js';
import { memberWeeks } from './member-week.js';
import { monthFigures } from './month.js';
import { todayFigures } from './today.js';
import type { StatisticsDeps } from './types.js';
import { anonymousWeekOverview, weekOverview } from './week.js';
import { warmUp } from './warm-up.js';
import { localNows, previousDays, type LocalNow } from './previous-day.js';

export type { StatisticsDeps } from './types.js';
export type { MemberWeek } from './member-week.js';
export type { CalendarDayFigures } from './member-month.js';
export { isMissingDay, type LocalNow, type PreviousDay } from './previous-day.js';

/** Statistics computed at once in a process, and waiting at most (then 503 BUSY). */
export const STATISTICS_LANE = { concurrency: 2, queueLimit: 500 } as const;

/**
 * `connections`: how many statements of the process can wait on the database at once (the pool's
 * size on PostgreSQL; undefined on SQLite). There a request mostly waits on its round trips, not on
 * the event loop, so as many requests go at once as the pool has connections (docs/performance.md).
 */
export function createStatisticsService(deps: StatisticsDeps & { connections?: number | undefined }) {
  // Statistics of accounts take turns (src/common/work-lane.ts): a few at once per process.
  const concurrency = Math.max(STATISTICS_LANE.concurrency, deps.connections ?? 0);
  const lane = createWorkLane({ ...STATISTICS_LANE, concurrency, name: 'statistics requests' });
  return {
    weekOverview: (userId: number, date?: string, language?: HolidayLanguage) => lane.run(() => weekOverview(deps, userId, date, language)),
    anonymousWeekOverview: (date?: string, region?: string, language?: HolidayLanguage) => lane.run(() => anonymousWeekOverview(deps, date, region, language)),
    overtime: (userId: number) => lane.run(() => overtime(deps, userId)),
    today: (userId: number) => lane.run(() => todayFigures(deps, userId)),
    monthlyBalances: (userId: number, year?: number) => lane.run(() => monthlyBalances(deps, userId, year)),
    monthFigures: (userId: number, month?: string) => lane.run(() => monthFigures(deps, userId, month)),
    /** Rows of a lead's overview (./member-week.ts): one turn of the lane for the figures of a few members. */
    memberWeeks: (userIds: readonly number[], weekStart: LocalDate) => lane.run(() => memberWeeks(deps, userIds, weekStart)),
    /** Rows of a team's calendar (./member-month.ts): one turn of the lane for the month's days of a few members. */
    memberMonths: (userIds: readonly number[], first: LocalDate, last: LocalDate, language: HolidayLanguage) =>
      lane.run(() => memberMonths(deps, userIds, first, last, language)),
    /** Yesterday of a few accounts, each in its zone, for the missing-day reminder (./previous-day.ts): one turn of the lane. */
    previousDays: (userIds: readonly number[], due: (now: LocalNow) => boolean) => lane.run(() => previousDays(deps, userIds, due)),
    /** Today and the hour now of a few accounts, each in its zone (a lead's digest): one turn of the lane. */
    localNows: (userIds: readonly number[]) => lane.run(() => localNows(deps, userIds)),
    /** Once at serve's start: the holiday calendar loaded, the years in use queued (./warm-up.ts). */
    warmUp: () => warmUp(deps),
  };
}
