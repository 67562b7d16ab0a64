// The days of a month of several members for a team's calendar (docs/teams.md, "Team calendar"): each
// member's day rows worked out by `dayFigures` (./days.ts), the function of the member's own month
// (./month.ts), from one account context per member (read together: ./context.ts) and the month's
// stored days read for all of them at once (./stored-days.ts). Nothing here decides a target, a
// holiday or an absence a second time.
import type { LocalDate } from '../../db/types.js';
import type { HolidayLanguage } from '../calendar/holidays.js';
import { accountContexts } from './context.js';
import { dayFigures } from './days.js';
import { storedDaysOf } from './stored-days.js';
import type { DayFigures, StatisticsDeps } from './types.js';

/** The day rows from `first` through `last` of each of `userIds` (in that order), as each member's own month has them. */
export async function memberMonths(
  deps: StatisticsDeps,
  userIds: readonly number[],
  first: LocalDate,
  last: LocalDate,
  language: HolidayLanguage,
): Promise<DayFigures[][]> {
  const contexts = await accountContexts(deps, userIds);
  const stored = await storedDaysOf(deps.db, userIds, first, last);
  // One member after another: a wave holds one connection of the pool, not one per member.
  const months: DayFigures[][] = [];
  for (const context of contexts) months.push((await dayFigures(deps.db, context, first, last, language, stored.get(context.userId))).rows);
  return months;
}
