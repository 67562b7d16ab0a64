// The stored inputs of the day figures (./days.ts) of several accounts over the same days, for a
// lead's overview of a team (./member-week.ts): the per-day totals, the absences and the bookings, in
// one statement each for all of them instead of three per account. The figures are then worked out
// by `dayFigures` for each account, as for the account's own week.
import type { Kysely } from 'kysely';
import type { Database, LocalDate } from '../../db/types.js';
import type { DayAbsence } from '../absences/days.js';
import type { DayTotal } from '../entries/store.js';

/** What `dayFigures` reads of an account's days from `from` through `through`. */
export interface StoredDays {
  totals: Map<LocalDate, DayTotal>;
  absences: Map<LocalDate, DayAbsence>;
  booked: Map<LocalDate, number>;
}

/** The stored days of each of `userIds` from `from` through `through`, by user, in three statements. */
export async function storedDaysOf(db: Kysely<Database>, userIds: readonly number[], from: LocalDate, through: LocalDate): Promise<Map<number, StoredDays>> {
  const found = new Map<number, StoredDays>(userIds.map((userId) => [userId, { totals: new Map(), absences: new Map(), booked: new Map() }]));
  if (userIds.length === 0 || through < from) return found;
  const totals = await db
    .selectFrom('daily_totals')
    .select(['user_id', 'date', 'worked_ms', 'break_ms'])
    .where('user_id', 'in', userIds)
    .where('date', '>=', from)
    .where('date', '<=', through)
    .execute();
  for (const row of totals) found.get(row.user_id)!.totals.set(row.date, { workedMs: row.worked_ms, breakMs: row.break_ms });
  const absences = await db
    .selectFrom('absences')
    .select(['user_id', 'date', 'type', 'portion'])
    .where('user_id', 'in', userIds)
    .where('date', '>=', from)
    .where('date', '<=', through)
    .execute();
  for (const row of absences) found.get(row.user_id)!.absences.set(row.date, { type: row.type, portion: row.portion });
  const bookings = await db
    .selectFrom('bookings')
    .select(['user_id', 'date', 'minutes'])
    .where('user_id', 'in', userIds)
    .where('date', '>=', from)
    .where('date', '<=', through)
    .execute();
  for (const row of bookings) {
    const booked = found.get(row.user_id)!.booked;
    booked.set(row.date, (booked.get(row.date) ?? 0) + row.minutes);
  }
  return found;
}
