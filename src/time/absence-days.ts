// The absences of a span of days as the figures read them (src/time/statistics/): by date, counted by
// weekday for a balance over years (one aggregate), or among a list of dates.
import type { Kysely } from 'kysely';
import type { AbsencePortion, AbsenceType, Database, LocalDate } from '../db/types.js';
import { weekdayOfDate } from '../db/sql.js';
import { WEEKDAYS, type Weekday } from './calendar/dates.js';

/** What statistics need of a day's absence. */
export interface DayAbsence {
  type: AbsenceType;
  portion: AbsencePortion;
}

/** Absences (date → type and portion) from `from` through `through`, for statistics. */
export async function absencesByDate(db: Kysely<Database>, userId: number, from: LocalDate, through: LocalDate): Promise<Map<LocalDate, DayAbsence>> {
  if (through < from) return new Map();
  const rows = await db
    .selectFrom('absences')
    .select(['date', 'type', 'portion'])
    .where('user_id', '=', userId)
    .where('date', '>=', from)
    .where('date', '<=', through)
    .execute();
  return new Map(rows.map((row) => [row.date, { type: row.type, portion: row.portion }]));
}

/**
 * How many whole and half absences fall on each weekday from `from` through `through`: one
 * aggregate, however many absences there are (a balance from 1970 must not read them all).
 */
export async function absenceCountsByWeekday(
  db: Kysely<Database>,
  userId: number,
  from: LocalDate,
  through: LocalDate,
): Promise<Array<{ weekday: Weekday; portion: AbsencePortion; count: number }>> {
  if (through < from) return [];
  const day = weekdayOfDate(db);
  const rows = await db
    .selectFrom('absences')
    .select([day.as('weekday'), 'portion', (eb) => eb.fn.countAll<number>().as('count')])
    .where('user_id', '=', userId)
    .where('date', '>=', from)
    .where('date', '<=', through)
    .groupBy([day, 'portion'])
    .execute();
  // 0 = Sunday in both engines.
  return rows.map((row) => ({ weekday: WEEKDAYS[(Number(row.weekday) + 6) % 7] as Weekday, portion: row.portion, count: Number(row.count) }));
}

/** The portion of the absence on each of `dates` that has one (a few hundred dates at a time). */
export async function absencesAmong(db: Kysely<Database>, userId: number, dates: LocalDate[]): Promise<Map<LocalDate, AbsencePortion>> {
  const found = new Map<LocalDate, AbsencePortion>();
  for (let first = 0; first < dates.length; first += 500) {
    const rows = await db
      .selectFrom('absences')
      .select(['date', 'portion'])
      .where('user_id', '=', userId)
      .where('date', 'in', dates.slice(first, first + 500))
      .execute();
    for (const row of rows) found.set(row.date, row.portion);
  }
  return found;
}
