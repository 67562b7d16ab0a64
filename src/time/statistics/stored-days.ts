// The stored inputs of the day figures (./days.ts) of several accounts over the same days, for a
// lead's overview of a team (./member-week.ts): the per-day totals, the absences and the bookings, in
// one statement each for all of them (the readers an account's own figures use, given every id) instead
// of three per account. The figures are then worked out by `dayFigures` for each account, as for the
// account's own week.
import type { Kysely } from 'kysely';
import type { Database, LocalDate } from '../../db/types.js';
import { absencesByDateOf, type DayAbsence } from '../absences/days.js';
import { bookedByDateOf } from '../bookings.js';
import { dailyTotalsOf } from '../entries/daily-totals.js';
import type { DayTotal } from '../entries/store.js';

/** What `dayFigures` reads of an account's days from `from` through `through`. */
export interface StoredDays {
  totals: Map<LocalDate, DayTotal>;
  absences: Map<LocalDate, DayAbsence>;
  booked: Map<LocalDate, number>;
}

/** The stored days of each of `userIds` from `from` through `through`, by user, in three statements. */
export async function storedDaysOf(db: Kysely<Database>, userIds: readonly number[], from: LocalDate, through: LocalDate): Promise<Map<number, StoredDays>> {
  const [totals, absences, booked] = [
    await dailyTotalsOf(db, userIds, from, through),
    await absencesByDateOf(db, userIds, from, through),
    await bookedByDateOf(db, userIds, from, through),
  ];
  return new Map(userIds.map((userId) => [userId, { totals: totals.get(userId)!, absences: absences.get(userId)!, booked: booked.get(userId)! }]));
}
