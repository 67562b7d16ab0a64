// Absences: whole or half days of vacation, sickness or a holiday of one's own (docs/time-model.md). A
// day with a whole absence has target 0, a half day half its target. One absence per user and day:
// checked in the transaction, and a unique constraint stands behind the check. A range (from/to) makes
// one absence per day that has a target and is not a public holiday, all of them or none.
import type { Transaction } from 'kysely';
import { violatedRule, type TransactionalDatabase } from '../../db/database.js';
import type { AbsencePortion, AbsenceType, Database, LocalDate } from '../../db/types.js';
import { addDays, datesFromThrough, parseDate, weekdayOf } from '../calendar/dates.js';
import { publicHolidays } from '../calendar/holidays.js';
import { scheduleTimeline } from '../schedules.js';
import type { Clock } from '../../common/clock.js';
import { ServiceError, validationError } from '../../common/errors.js';
import type { SettingsService } from '../settings/settings.js';
import { normalizeNote, type RangeQuery } from '../entries/rules.js';
import { assignRequests, deleteAbsence, deleteBooking } from './requests.js';
import { NO_APPROVAL, openRequest, stateOfNewAbsences, type LeaveApproval } from './approval.js';
import { listAbsences } from './list.js';
import { publicAbsence, type Absence } from './answer.js';

export { MAX_LISTED_ABSENCES } from './list.js';
export type { Absence } from './answer.js';
import type { MonthLock } from '../month-lock.js';

export const ABSENCE_TYPES: readonly AbsenceType[] = ['vacation', 'sick', 'holiday'];
export const ABSENCE_PORTIONS: readonly AbsencePortion[] = ['full', 'half'];
/** The longest range one request may cover (a leap year). */
export const MAX_ABSENCE_RANGE_DAYS = 366;
/**
 * The most absences a user keeps: 27 years of every day off, far beyond any working life's vacation
 * and sickness. Statistics read every absence from tracking_start on, and the export writes them all.
 */
export const MAX_ABSENCES_PER_USER = 10_000;

/** One day (`date`) or a range (`from` through `to`, both included). */
export interface NewAbsence {
  date?: string;
  from?: string;
  to?: string;
  type: string;
  portion?: string;
  note?: string;
}

/** An absence checked and normalised, ready to be written. */
export interface CheckedAbsence {
  date: LocalDate;
  type: AbsenceType;
  portion: AbsencePortion;
  note: string;
  /** Absences of an imported document with the same key were booked together (./requests.ts). */
  request?: number;
}

/** Type, portion (full unless given) and note of a new absence, or VALIDATION_ERROR naming the field. */
function checkKind(input: Pick<NewAbsence, 'type' | 'portion' | 'note'>): Omit<CheckedAbsence, 'date'> {
  if (!(ABSENCE_TYPES as readonly string[]).includes(input.type)) throw validationError(`type must be one of ${ABSENCE_TYPES.join(', ')}`, 'type');
  const portion = input.portion ?? 'full';
  if (!(ABSENCE_PORTIONS as readonly string[]).includes(portion)) throw validationError(`portion must be one of ${ABSENCE_PORTIONS.join(', ')}`, 'portion');
  return { type: input.type as AbsenceType, portion: portion as AbsencePortion, note: normalizeNote(input.note) };
}

/** The date, type, portion and note of one day's absence, or VALIDATION_ERROR naming the field. */
export function checkAbsence(input: NewAbsence): CheckedAbsence {
  if (input.date === undefined) throw validationError('date is required (or from and to for a range)', 'date');
  return { date: parseDate(input.date, 'date'), ...checkKind(input) };
}

function tooManyAbsences(): ServiceError {
  return new ServiceError('TOO_MANY_ABSENCES', `A user keeps at most ${MAX_ABSENCES_PER_USER} absences; delete old ones to add more`);
}

/** TOO_MANY_ABSENCES unless the user has room for `adding` more, inside the caller's transaction. */
async function assertRoomForAbsences(trx: Transaction<Database>, userId: number, adding: number): Promise<void> {
  const { count } = await trx
    .selectFrom('absences')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
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
  const groups = new Map<number, number[]>();
  for (let first = 0; first < toWrite.length; first += 500) {
    const batch = toWrite.slice(first, first + 500);
    const rows = await trx
      .insertInto('absences')
      .values(batch.map(({ request: _request, ...absence }) => ({ user_id: userId, ...absence, created_at: options.now })))
      .returning(['id', 'date'])
      .execute();
    const requestOf = new Map(batch.map((absence) => [absence.date, absence.request]));
    for (const row of rows) {
      const request = requestOf.get(row.date);
      if (request !== undefined) groups.set(request, [...(groups.get(request) ?? []), row.id]);
    }
  }
  await assignRequests(trx, userId, [...groups.values()]);
  return { created: toWrite.length, skipped: absences.length - toWrite.length };
}

const COLUMNS = ['id', 'date', 'type', 'portion', 'note'] as const;

function absenceExists(dates: LocalDate[], id?: number): ServiceError {
  // Every clashing day (a range is at most 366 days), so the person can see which to change.
  return new ServiceError('ABSENCE_EXISTS', `There is already an absence on ${dates.join(', ')}${id === undefined ? '' : ` (id ${id})`}`);
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

/** What the absence service needs: the database, the clock, the user's zone from the settings, and whether vacation waits for a lead. */
export interface AbsenceDeps {
  database: TransactionalDatabase;
  clock: Clock;
  settings: SettingsService;
  /** Absent: every absence is booked at once (./approval.ts). */
  approval?: LeaveApproval;
  /** Refuses a change to a day of a closed month (src/time/month-lock.ts). */
  monthLock: MonthLock;
}

/** Deletes one of the user's absences (./requests.ts), unless its day is in a closed month (src/time/month-lock.ts): then nothing. */
async function deleteOneAbsence({ database, monthLock }: AbsenceDeps, userId: number, id: number): Promise<void> {
  await database.transact(async (trx) => {
    await database.lockUser(trx, userId);
    const date = await deleteAbsence(trx, userId, id);
    await monthLock.assertOpen(trx, userId, date, date);
  });
}

/** Deletes the absences of one booking (./requests.ts), unless one is in a closed month: then none. */
async function deleteAbsenceBooking({ database, monthLock }: AbsenceDeps, userId: number, requestId: number): Promise<Absence[]> {
  return database.transact(async (trx) => {
    await database.lockUser(trx, userId);
    const absences = await deleteBooking(trx, userId, requestId);
    await monthLock.assertOpen(trx, userId, absences[0]!.date, absences[absences.length - 1]!.date);
    return absences;
  });
}

export function createAbsenceService(deps: AbsenceDeps) {
  const { database, clock, settings, monthLock } = deps;
  const requests = { approval: deps.approval ?? NO_APPROVAL, clock, settings };

  /** One day's absence (`date`), whatever the day's target. */
  async function createAbsence(userId: number, input: NewAbsence): Promise<Absence> {
    const { date, ...kind } = checkAbsence(input);
    return rethrowExisting(
      [date],
      database.transact(async (trx) => {
        await database.lockUser(trx, userId);
        await monthLock.assertOpen(trx, userId, date, date);
        const existing = await trx.selectFrom('absences').select('id').where('user_id', '=', userId).where('date', '=', date).executeTakeFirst();
        if (existing) throw absenceExists([date], existing.id);
        await assertRoomForAbsences(trx, userId, 1);
        const state = await stateOfNewAbsences(requests.approval, trx, userId, kind.type);
        const row = await trx
          .insertInto('absences')
          .values({ user_id: userId, date, ...kind, state, created_at: clock.now().toISOString() })
          .returning([...COLUMNS])
          .executeTakeFirstOrThrow();
        await assignRequests(trx, userId, []);
        if (state === 'requested') await openRequest(requests, trx, userId, row.id, [row]);
        return publicAbsence({ ...row, request_id: row.id, state });
      }),
    );
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
    return rethrowExisting(
      dates,
      database.transact(async (trx) => {
        await database.lockUser(trx, userId);
        const { tracking_start } = await settings.getSettingsInTransaction(trx, userId);
        const timeline = await scheduleTimeline(trx, userId);
        dates.length = 0;
        dates.push(
          ...datesFromThrough(from, to).filter((date) => date >= tracking_start && !holidays.has(date) && timeline.targetOn(date, weekdayOf(date)) > 0),
        );
        if (dates.length > 0) await monthLock.assertOpen(trx, userId, dates[0]!, dates[dates.length - 1]!);
        if (dates.length === 0)
          throw validationError(
            `no day from ${from} to ${to} has a target (weekends, public holidays and days before the tracking start are left out)`,
            'from',
          );
        const taken = await trx.selectFrom('absences').select('date').where('user_id', '=', userId).where('date', 'in', dates).orderBy('date').execute();
        if (taken.length > 0) throw absenceExists(taken.map((row) => row.date));
        await assertRoomForAbsences(trx, userId, dates.length);
        const state = await stateOfNewAbsences(requests.approval, trx, userId, kind.type);
        const rows = await trx
          .insertInto('absences')
          .values(dates.map((date) => ({ user_id: userId, date, ...kind, state, created_at: now })))
          .returning([...COLUMNS])
          .execute();
        const ids = rows.map((row) => row.id);
        await assignRequests(trx, userId, [ids]);
        const requestId = Math.min(...ids);
        if (state === 'requested') await openRequest(requests, trx, userId, requestId, rows);
        return rows.map((row) => publicAbsence({ ...row, request_id: requestId, state })).sort((a, b) => (a.date < b.date ? -1 : 1));
      }),
    );
  }

  return {
    listAbsences: (userId: number, query: RangeQuery) => listAbsences(deps, userId, query),
    createAbsence,
    createAbsenceRange,
    deleteAbsence: (userId: number, id: number) => deleteOneAbsence(deps, userId, id),
    deleteAbsenceRequest: (userId: number, requestId: number) => deleteAbsenceBooking(deps, userId, requestId),
  };
}
