// The absences of a span of days as the figures read them (src/time/statistics/): by date, or counted
// by weekday for a balance over years with those on holidays apart (one aggregate). Only approved
// absences count: a requested one (docs/teams.md, "Leave requests") holds its day and nothing else.
import { sql, type Kysely } from 'kysely';
import type { AbsencePortion, AbsenceState, AbsenceType, Database, LocalDate } from '../../db/types.js';
import { weekdayOfDate } from '../../db/sql.js';
import { WEEKDAYS, type Weekday } from '../calendar/dates.js';

/** What statistics need of a day's absence. */
export interface DayAbsence {
  type: AbsenceType;
  portion: AbsencePortion;
}

/** Absences (date → type and portion) from `from` through `through`, for statistics. */
export async function absencesByDate(db: Kysely<Database>, userId: number, from: LocalDate, through: LocalDate): Promise<Map<LocalDate, DayAbsence>> {
  return (await absencesByDateOf(db, [userId], from, through)).get(userId)!;
}

/**
 * absencesByDate of each of `userIds` (every one present, maybe empty), in one statement. `state`:
 * the approved ones the figures count, or the requested ones a team calendar shows beside them.
 */
export async function absencesByDateOf(
  db: Kysely<Database>,
  userIds: readonly number[],
  from: LocalDate,
  through: LocalDate,
  state: AbsenceState = 'approved',
): Promise<Map<number, Map<LocalDate, DayAbsence>>> {
  const found = new Map(userIds.map((userId) => [userId, new Map<LocalDate, DayAbsence>()]));
  if (userIds.length === 0 || through < from) return found;
  const rows = await db
    .selectFrom('absences')
    .select(['user_id', 'date', 'type', 'portion'])
    .where('user_id', 'in', userIds)
    // A requested absence (docs/teams.md, "Leave requests") changes no target until it is approved.
    .where('state', '=', state)
    .where('date', '>=', from)
    .where('date', '<=', through)
    .execute();
  for (const row of rows) found.get(row.user_id)!.set(row.date, { type: row.type, portion: row.portion });
  return found;
}

/** Absences of a balance's range: counted per stretch of one schedule, weekday and portion, and those on holidays apart. */
export interface RangeAbsences {
  /** How many whole and half absences fall on each weekday of each stretch (0: the first). */
  counts: Array<{ stretch: number; weekday: Weekday; portion: AbsencePortion; count: number }>;
  /** The portion of the absence on each holiday that has one. */
  onHolidays: Map<LocalDate, AbsencePortion>;
}

/**
 * The aggregate of the absences from `from` through `through` as a balance over years needs them, one
 * statement however many there are (a balance from 1970 must not read them all): how many whole and
 * half absences fall on each weekday of each stretch of one schedule (`stretchStarts`: the first day
 * of each stretch after the first), and each absence on one of `holidays` (a few hundred) with its
 * date. A select the caller runs (the balance runs it in one union with its sums); rangeAbsencesOf
 * reads its rows.
 */
export function rangeAbsencesQuery(
  db: Kysely<Database>,
  userId: number,
  from: LocalDate,
  through: LocalDate,
  stretchStarts: readonly LocalDate[],
  holidays: readonly LocalDate[],
) {
  let stretch = sql<number>`0`;
  for (const start of stretchStarts) stretch = sql<number>`${stretch} + (case when date >= ${start} then 1 else 0 end)`;
  // The list padded to a power of two (a date twice is the same condition): a few statement texts
  // per process, however many holidays the accounts' ranges hold.
  const listed = holidays.length === 0 ? [] : [...holidays, ...Array<LocalDate>(paddedLength(holidays.length) - holidays.length).fill(holidays[0]!)];
  // Each date a bound value (no SQL is built from text here).
  let values = sql``;
  listed.forEach((date, index) => (values = index === 0 ? sql`${date}` : sql`${values}, ${date}`));
  const holiday = listed.length === 0 ? sql<LocalDate | null>`null` : sql<LocalDate | null>`case when date in (${values}) then date end`;
  return db
    .selectFrom((eb) =>
      eb
        .selectFrom('absences')
        .select([weekdayOfDate(db).as('weekday'), 'portion', stretch.as('stretch'), holiday.as('holiday')])
        .where('user_id', '=', userId)
        .where('state', '=', 'approved')
        .where('date', '>=', from)
        .where('date', '<=', through)
        .as('a'),
    )
    .select(['a.weekday', 'a.portion', 'a.stretch', 'a.holiday', (eb) => eb.fn.countAll<number>().as('count')])
    .groupBy(['a.weekday', 'a.portion', 'a.stretch', 'a.holiday']);
}

/** A row of rangeAbsencesQuery (read from a union whose other rows have nulls in these columns). */
export interface RangeAbsenceRow {
  weekday: number | string | null;
  portion: AbsencePortion | null;
  stretch: number | string | null;
  holiday: LocalDate | null;
  count: number | string | bigint | null;
}

/** RangeAbsences from the rows of rangeAbsencesQuery. */
export function rangeAbsencesOf(rows: readonly RangeAbsenceRow[]): RangeAbsences {
  const found: RangeAbsences = { counts: [], onHolidays: new Map() };
  for (const row of rows) {
    // 0 = Sunday in both engines.
    found.counts.push({
      stretch: Number(row.stretch),
      weekday: WEEKDAYS[(Number(row.weekday) + 6) % 7] as Weekday,
      portion: row.portion!,
      count: Number(row.count),
    });
    if (row.holiday !== null) found.onHolidays.set(row.holiday, row.portion!);
  }
  return found;
}

/** The power of two at or above `length` (at least 16). */
function paddedLength(length: number): number {
  let padded = 16;
  while (padded < length) padded *= 2;
  return padded;
}
