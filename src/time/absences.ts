// Absences: whole days of vacation, sickness or a holiday of one's own (docs/time-model.md). A day with
// an absence has target 0. One absence per user and day: checked in the transaction, and a unique
// constraint stands behind the check.
import type { Transaction } from 'kysely';
import { violatedRule, type TransactionalDatabase } from '../db/database.js';
import type { AbsenceRow, AbsenceType, Database, LocalDate } from '../db/types.js';
import { addDays, localDateOf, parseDate, parseInstantOrDate, startOfDay, WEEKDAYS, type Weekday } from './calendar.js';
import { weekdayOfDate } from '../db/sql.js';
import type { Clock } from '../common/clock.js';
import { ServiceError, validationError } from '../common/errors.js';
import type { SettingsService } from './settings.js';
import { normalizeNote, type RangeQuery } from './entries.js';

export const ABSENCE_TYPES: readonly AbsenceType[] = ['vacation', 'sick', 'holiday'];
/** The most absences one list answers (over five years of days); a range with more is refused, as for entries. */
export const MAX_LISTED_ABSENCES = 2000;
/**
 * The most absences a user keeps: 27 years of every day off, far beyond any working life's vacation
 * and sickness. Statistics read every absence from tracking_start on, and the export writes them all.
 */
export const MAX_ABSENCES_PER_USER = 10_000;

export interface Absence {
  id: number;
  date: LocalDate;
  type: AbsenceType;
  note: string;
}

export interface NewAbsence {
  date: string;
  type: string;
  note?: string;
}

/** An absence checked and normalised, ready to be written. */
export interface CheckedAbsence {
  date: LocalDate;
  type: AbsenceType;
  note: string;
}

/** The date, type and note of a new absence, or VALIDATION_ERROR naming the field. */
export function checkAbsence(input: NewAbsence): CheckedAbsence {
  const date = parseDate(input.date, 'date');
  if (!(ABSENCE_TYPES as readonly string[]).includes(input.type)) throw validationError(`type must be one of ${ABSENCE_TYPES.join(', ')}`, 'type');
  return { date, type: input.type as AbsenceType, note: normalizeNote(input.note) };
}

function tooManyAbsences(): ServiceError {
  return new ServiceError('TOO_MANY_ABSENCES', `A user keeps at most ${MAX_ABSENCES_PER_USER} absences; delete old ones to add more`);
}

/** TOO_MANY_ABSENCES unless the user has room for `adding` more, inside the caller's transaction. */
async function assertRoomForAbsences(trx: Transaction<Database>, userId: number, adding: number): Promise<void> {
  const { count } = await trx.selectFrom('absences').select((eb) => eb.fn.countAll<number>().as('count')).where('user_id', '=', userId).executeTakeFirstOrThrow();
  if (Number(count) + adding > MAX_ABSENCES_PER_USER) throw tooManyAbsences();
}

/**
 * Writes checked absences inside the caller's transaction (which has locked the user), all or none:
 * a day that has one already is skipped with `skipExisting`, else ABSENCE_EXISTS naming its place in
 * the list (1-based); then the quota. Answers how many were written and skipped.
 */
export async function insertAbsencesIn(
  trx: Transaction<Database>,
  userId: number,
  absences: CheckedAbsence[],
  options: { skipExisting: boolean; now: string },
): Promise<{ created: number; skipped: number }> {
  const stored = new Set<LocalDate>();
  for (let first = 0; first < absences.length; first += 500) {
    const dates = absences.slice(first, first + 500).map((absence) => absence.date);
    const rows = await trx.selectFrom('absences').select('date').where('user_id', '=', userId).where('date', 'in', dates).execute();
    for (const row of rows) stored.add(row.date);
  }
  const toWrite: CheckedAbsence[] = [];
  for (const [index, absence] of absences.entries()) {
    if (!stored.has(absence.date)) toWrite.push(absence);
    else if (!options.skipExisting) throw new ServiceError('ABSENCE_EXISTS', `absences[${index + 1}]: there is already an absence on ${absence.date}`);
  }
  await assertRoomForAbsences(trx, userId, toWrite.length);
  for (let first = 0; first < toWrite.length; first += 500) {
    await trx
      .insertInto('absences')
      .values(toWrite.slice(first, first + 500).map((absence) => ({ user_id: userId, ...absence, created_at: options.now })))
      .execute();
  }
  return { created: toWrite.length, skipped: absences.length - toWrite.length };
}

function publicAbsence(row: Pick<AbsenceRow, 'id' | 'date' | 'type' | 'note'>): Absence {
  return { id: row.id, date: row.date, type: row.type, note: row.note };
}

function absenceExists(date: LocalDate, id?: number): ServiceError {
  return new ServiceError('ABSENCE_EXISTS', `There is already an absence on ${date}${id === undefined ? '' : ` (id ${id})`}`);
}

/** Two writers racing past the check (two processes) meet the unique index: the same answer. */
async function rethrowExisting<T>(date: LocalDate, write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (violatedRule(error) === 'absence_day') throw absenceExists(date);
    throw error;
  }
}

export function createAbsenceService(database: TransactionalDatabase, clock: Clock, settings: SettingsService) {
  const { db } = database;
  /** Absences whose day overlaps [from, to) (dates or instants, as for entries), by date. */
  async function listAbsences(userId: number, query: RangeQuery): Promise<Absence[]> {
    const { timezone } = await settings.getSettings(userId);
    let select = db.selectFrom('absences').select(['id', 'date', 'type', 'note']).where('user_id', '=', userId);
    if (query.from !== undefined) {
      select = select.where('date', '>=', localDateOf(parseInstantOrDate(query.from, timezone, 'from'), timezone));
    }
    if (query.to !== undefined) {
      const toMs = parseInstantOrDate(query.to, timezone, 'to');
      const toDate = localDateOf(toMs, timezone);
      // A bound at midnight excludes the day it starts; a bound later in the day includes it.
      const firstExcluded = startOfDay(toDate, timezone) === toMs ? toDate : addDays(toDate, 1);
      select = select.where('date', '<', firstExcluded);
    }
    // One row more than the cap tells that the range holds too many, without reading them all.
    const rows = await select.orderBy('date').limit(MAX_LISTED_ABSENCES + 1).execute();
    if (rows.length > MAX_LISTED_ABSENCES) {
      throw validationError(`The range holds more than ${MAX_LISTED_ABSENCES} absences; ask again with a shorter from/to range`);
    }
    return rows.map(publicAbsence);
  }

  async function createAbsence(userId: number, input: NewAbsence): Promise<Absence> {
    const { date, type, note } = checkAbsence(input);
    return rethrowExisting(date, database.transact(async (trx) => {
      await database.lockUser(trx, userId);
      const existing = await trx.selectFrom('absences').select('id').where('user_id', '=', userId).where('date', '=', date).executeTakeFirst();
      if (existing) throw absenceExists(date, existing.id);
      await assertRoomForAbsences(trx, userId, 1);
      const row = await trx
        .insertInto('absences')
        .values({ user_id: userId, date, type, note, created_at: clock.now().toISOString() })
        .returning(['id', 'date', 'type', 'note'])
        .executeTakeFirstOrThrow();
      return publicAbsence(row);
    }));
  }

  /** Deletes one of the user's absences; another user's is NOT_FOUND, like a missing one. */
  async function deleteAbsence(userId: number, id: number): Promise<void> {
    const result = await db.deleteFrom('absences').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw new ServiceError('NOT_FOUND', 'No such absence');
  }

  /** Absences (date → type) from `from` through `through`, for statistics. */
  async function absencesByDate(userId: number, from: LocalDate, through: LocalDate): Promise<Map<LocalDate, AbsenceType>> {
    if (through < from) return new Map();
    const rows = await db.selectFrom('absences').select(['date', 'type']).where('user_id', '=', userId).where('date', '>=', from).where('date', '<=', through).execute();
    return new Map(rows.map((row) => [row.date, row.type]));
  }

  /**
   * How many absences fall on each weekday from `from` through `through`: one aggregate, however many
   * absences there are (a balance from 1970 must not read them all).
   */
  async function absenceCountsByWeekday(userId: number, from: LocalDate, through: LocalDate): Promise<Map<Weekday, number>> {
    const counts = new Map<Weekday, number>();
    if (through < from) return counts;
    const day = weekdayOfDate(db);
    const rows = await db
      .selectFrom('absences')
      .select([day.as('weekday'), (eb) => eb.fn.countAll<number>().as('count')])
      .where('user_id', '=', userId)
      .where('date', '>=', from)
      .where('date', '<=', through)
      .groupBy(day)
      .execute();
    // 0 = Sunday in both engines.
    for (const row of rows) counts.set(WEEKDAYS[(Number(row.weekday) + 6) % 7] as Weekday, Number(row.count));
    return counts;
  }

  /** Which of `dates` have an absence (a few hundred dates at a time). */
  async function absenceDatesAmong(userId: number, dates: LocalDate[]): Promise<Set<LocalDate>> {
    const found = new Set<LocalDate>();
    for (let first = 0; first < dates.length; first += 500) {
      const rows = await db.selectFrom('absences').select('date').where('user_id', '=', userId).where('date', 'in', dates.slice(first, first + 500)).execute();
      for (const row of rows) found.add(row.date);
    }
    return found;
  }

  return { listAbsences, createAbsence, deleteAbsence, absencesByDate, absenceCountsByWeekday, absenceDatesAmong };
}

export type AbsenceService = ReturnType<typeof createAbsenceService>;
