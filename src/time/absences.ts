// Absences: whole days of vacation, sickness or a holiday of one's own (docs/time-model.md). A day with
// an absence has target 0. One absence per user and day: checked in the transaction, and a unique
// constraint stands behind the check.
import { violatedRule, type TransactionalDatabase } from '../db/database.js';
import type { AbsenceRow, AbsenceType, LocalDate } from '../db/types.js';
import { addDays, localDateOf, parseDate, parseInstantOrDate, startOfDay } from './calendar.js';
import type { Clock } from '../common/clock.js';
import { ServiceError, validationError } from '../common/errors.js';
import type { SettingsService } from './settings.js';
import { normalizeNote, type RangeQuery } from './entries.js';

export const ABSENCE_TYPES: readonly AbsenceType[] = ['vacation', 'sick', 'holiday'];
/** The most absences one list answers (over five years of days); a range with more is refused, as for entries. */
export const MAX_LISTED_ABSENCES = 2000;

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
    const date = parseDate(input.date, 'date');
    if (!(ABSENCE_TYPES as readonly string[]).includes(input.type)) throw validationError(`type must be one of ${ABSENCE_TYPES.join(', ')}`, 'type');
    const note = normalizeNote(input.note);
    return rethrowExisting(date, database.transact(async (trx) => {
      await database.lockUser(trx, userId);
      const existing = await trx.selectFrom('absences').select('id').where('user_id', '=', userId).where('date', '=', date).executeTakeFirst();
      if (existing) throw absenceExists(date, existing.id);
      const row = await trx
        .insertInto('absences')
        .values({ user_id: userId, date, type: input.type as AbsenceType, note, created_at: clock.now().toISOString() })
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

  return { listAbsences, createAbsence, deleteAbsence, absencesByDate };
}

export type AbsenceService = ReturnType<typeof createAbsenceService>;
