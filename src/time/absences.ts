// Absences: whole or half days of vacation, sickness or a holiday of one's own (docs/time-model.md). A
// day with a whole absence has target 0, a half day half its target. One absence per user and day:
// checked in the transaction, and a unique constraint stands behind the check. A range (from/to) makes
// one absence per day that has a target and is not a public holiday, all of them or none.
import { violatedRule, type TransactionalDatabase } from '../db/database.js';
import type { AbsencePortion, AbsenceRow, AbsenceType, LocalDate } from '../db/types.js';
import { addDays, datesFromThrough, localDateOf, parseDate, parseInstantOrDate, publicHolidays, startOfDay, weekdayOf } from './calendar.js';
import { scheduleTimeline } from './schedules.js';
import type { Clock } from '../common/clock.js';
import { ServiceError, validationError } from '../common/errors.js';
import type { SettingsService } from './settings.js';
import { normalizeNote, type RangeQuery } from './entries.js';

export const ABSENCE_TYPES: readonly AbsenceType[] = ['vacation', 'sick', 'holiday'];
export const ABSENCE_PORTIONS: readonly AbsencePortion[] = ['full', 'half'];
/** The longest range one request may cover (a leap year). */
export const MAX_ABSENCE_RANGE_DAYS = 366;
/** The most absences one list answers (over five years of days); a range with more is refused, as for entries. */
export const MAX_LISTED_ABSENCES = 2000;

export interface Absence {
  id: number;
  date: LocalDate;
  type: AbsenceType;
  portion: AbsencePortion;
  note: string;
}

/** One day (`date`) or a range (`from` through `to`, both included). */
export interface NewAbsence {
  date?: string;
  from?: string;
  to?: string;
  type: string;
  portion?: string;
  note?: string;
}

/** What statistics need of a day's absence. */
export interface DayAbsence {
  type: AbsenceType;
  portion: AbsencePortion;
}

function publicAbsence(row: Pick<AbsenceRow, 'id' | 'date' | 'type' | 'portion' | 'note'>): Absence {
  return { id: row.id, date: row.date, type: row.type, portion: row.portion, note: row.note };
}

const COLUMNS = ['id', 'date', 'type', 'portion', 'note'] as const;

function absenceExists(dates: LocalDate[], id?: number): ServiceError {
  const days = dates.length <= 10 ? dates.join(', ') : `${dates.slice(0, 10).join(', ')} and ${dates.length - 10} more days`;
  return new ServiceError('ABSENCE_EXISTS', `There is already an absence on ${days}${id === undefined ? '' : ` (id ${id})`}`);
}

/** Two writers racing past the check (two processes) meet the unique index: the same answer. */
async function rethrowExisting<T>(dates: LocalDate[], write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (violatedRule(error) === 'absence_day') throw absenceExists(dates);
    throw error;
  }
}

export function createAbsenceService(database: TransactionalDatabase, clock: Clock, settings: SettingsService) {
  const { db } = database;
  /** Absences whose day overlaps [from, to) (dates or instants, as for entries), by date. */
  async function listAbsences(userId: number, query: RangeQuery): Promise<Absence[]> {
    const { timezone } = await settings.getSettings(userId);
    let select = db.selectFrom('absences').select([...COLUMNS]).where('user_id', '=', userId);
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

  function checkKind(input: NewAbsence): { type: AbsenceType; portion: AbsencePortion; note: string } {
    if (!(ABSENCE_TYPES as readonly string[]).includes(input.type)) throw validationError(`type must be one of ${ABSENCE_TYPES.join(', ')}`, 'type');
    const portion = input.portion ?? 'full';
    if (!(ABSENCE_PORTIONS as readonly string[]).includes(portion)) throw validationError(`portion must be one of ${ABSENCE_PORTIONS.join(', ')}`, 'portion');
    return { type: input.type as AbsenceType, portion: portion as AbsencePortion, note: normalizeNote(input.note) };
  }

  /** One day's absence (`date`), whatever the day's target. */
  async function createAbsence(userId: number, input: NewAbsence): Promise<Absence> {
    if (input.date === undefined) throw validationError('date is required (or from and to for a range)', 'date');
    const date = parseDate(input.date, 'date');
    const kind = checkKind(input);
    return rethrowExisting([date], database.transact(async (trx) => {
      await database.lockUser(trx, userId);
      const existing = await trx.selectFrom('absences').select('id').where('user_id', '=', userId).where('date', '=', date).executeTakeFirst();
      if (existing) throw absenceExists([date], existing.id);
      const row = await trx
        .insertInto('absences')
        .values({ user_id: userId, date, ...kind, created_at: clock.now().toISOString() })
        .returning([...COLUMNS])
        .executeTakeFirstOrThrow();
      return publicAbsence(row);
    }));
  }

  /**
   * A range: one absence per day from `from` through `to` (at most 366 days) that has a target under
   * the schedule in force and is not a public holiday (days before the tracking start have none). If
   * any of those days has an absence already, nothing is written and ABSENCE_EXISTS names the days.
   */
  async function createAbsenceRange(userId: number, input: NewAbsence): Promise<Absence[]> {
    if (input.date !== undefined) throw validationError('give either date or from and to', 'date');
    if (input.from === undefined || input.to === undefined) throw validationError('a range needs both from and to', input.from === undefined ? 'from' : 'to');
    const from = parseDate(input.from, 'from');
    const to = parseDate(input.to, 'to');
    if (to < from) throw validationError('to must not be before from', 'to');
    if (addDays(from, MAX_ABSENCE_RANGE_DAYS - 1) < to) throw validationError(`a range covers at most ${MAX_ABSENCE_RANGE_DAYS} days`, 'to');
    const kind = checkKind(input);
    const current = await settings.getSettings(userId);
    const holidays = await publicHolidays(current.holiday_region, from, to);
    const now = clock.now().toISOString();
    // Filled in the transaction; a race lost at the unique index names them too.
    const dates: LocalDate[] = [];
    return rethrowExisting(dates, database.transact(async (trx) => {
      await database.lockUser(trx, userId);
      const { tracking_start } = await settings.getSettingsInTransaction(trx, userId);
      const timeline = await scheduleTimeline(trx, userId);
      dates.length = 0;
      dates.push(...datesFromThrough(from, to).filter((date) => date >= tracking_start && !holidays.has(date) && timeline.targetOn(date, weekdayOf(date)) > 0));
      if (dates.length === 0) throw validationError(`no day from ${from} to ${to} has a target (weekends, public holidays and days before the tracking start are left out)`, 'from');
      const taken = await trx.selectFrom('absences').select('date').where('user_id', '=', userId).where('date', 'in', dates).orderBy('date').execute();
      if (taken.length > 0) throw absenceExists(taken.map((row) => row.date));
      const rows = await trx
        .insertInto('absences')
        .values(dates.map((date) => ({ user_id: userId, date, ...kind, created_at: now })))
        .returning([...COLUMNS])
        .execute();
      return rows.map(publicAbsence).sort((a, b) => (a.date < b.date ? -1 : 1));
    }));
  }

  /** Deletes one of the user's absences; another user's is NOT_FOUND, like a missing one. */
  async function deleteAbsence(userId: number, id: number): Promise<void> {
    const result = await db.deleteFrom('absences').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw new ServiceError('NOT_FOUND', 'No such absence');
  }

  /** Absences (date → type and portion) from `from` through `through`, for statistics. */
  async function absencesByDate(userId: number, from: LocalDate, through: LocalDate): Promise<Map<LocalDate, DayAbsence>> {
    if (through < from) return new Map();
    const rows = await db.selectFrom('absences').select(['date', 'type', 'portion']).where('user_id', '=', userId).where('date', '>=', from).where('date', '<=', through).execute();
    return new Map(rows.map((row) => [row.date, { type: row.type, portion: row.portion }]));
  }

  return { listAbsences, createAbsence, createAbsenceRange, deleteAbsence, absencesByDate };
}

export type AbsenceService = ReturnType<typeof createAbsenceService>;
