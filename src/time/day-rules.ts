// The rules of one day, as pure functions shared by every statistic (docs/time-model.md): a day's
// target from the schedule in force, its absence and a public holiday.
import type { AbsencePortion } from '../db/types.js';

/**
 * A day's target: the schedule's minutes for its weekday; 0 before the tracking start, on a public
 * holiday and on a day of full absence; half of them (rounded down to a minute) on a half day.
 */
export function targetOfDay(scheduled: number, counted: boolean, holiday: boolean, absence: AbsencePortion | null): number {
  if (!counted || holiday || absence === 'full') return 0;
  return absence === 'half' ? Math.floor(scheduled / 2) : scheduled;
}
