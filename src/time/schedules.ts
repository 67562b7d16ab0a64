// Target schedules (docs/time-model.md): a user's weekly targets are a history of schedules, each
// valid from a date on. A day counts with the schedule in force on it: the latest one whose
// valid_from is on or before the day; days before the earliest schedule count with the earliest
// one. A user who never set targets has one implicit schedule of the default targets, stored the
// first time a schedule is listed or written. A change of targets from a date therefore changes no
// figure before that date; targets from a day on or before the tracking start replace every
// schedule stored from a day on or before it (writeSchedule).
import type { Kysely, Transaction } from 'kysely';
import { violatedRule, type TransactionalDatabase } from '../db/database.js';
import type { Database, LocalDate } from '../db/types.js';
import type { Clock } from '../common/clock.js';
import { ServiceError, validationError } from '../common/errors.js';
import { addDays, parseDate, WEEKDAYS, type Weekday } from './calendar/dates.js';
import { LAST_DAY, type MonthLock } from './month-lock.js';

export const MAX_DAILY_TARGET_MINUTES = 24 * 60;
/** A user keeps at most this many schedules: every statistic walks them, and a contract changes a few times a year at most. */
export const MAX_SCHEDULES = 200;

export type WeeklyTarget = Record<Weekday, number>;

export const DEFAULT_TARGET: WeeklyTarget = { mon: 480, tue: 480, wed: 480, thu: 480, fri: 480, sat: 0, sun: 0 };

export interface Schedule {
  id: number;
  valid_from: LocalDate;
  weekly_target_minutes: WeeklyTarget;
}

type TargetColumn = `target_${Weekday}_minutes`;
const targetColumn = (day: Weekday): TargetColumn => `target_${day}_minutes`;
/** The weekday columns of a stored schedule, Monday first. */
export const TARGET_COLUMNS = WEEKDAYS.map(targetColumn);

/** A stored schedule's row: its id, user, first day and the minutes of each weekday. */
export type ScheduleRow = { id: number; user_id: number; valid_from: LocalDate } & Record<TargetColumn, number>;

function columnsOf(weekly: WeeklyTarget): Record<TargetColumn, number> {
  return Object.fromEntries(WEEKDAYS.map((day) => [targetColumn(day), weekly[day]])) as Record<TargetColumn, number>;
}

/** A weekly target of the request: whole minutes from 0 to 1440 per named day, else VALIDATION_ERROR naming it. */
export function checkWeeklyTarget(patch: Partial<Record<string, number | undefined>>, base: WeeklyTarget): WeeklyTarget {
  const weekly = { ...base };
  for (const [day, minutes] of Object.entries(patch)) {
    if (!(WEEKDAYS as readonly string[]).includes(day)) throw validationError(`weekly_target_minutes has no day "${day}" (mon … sun)`, 'weekly_target_minutes');
    if (minutes === undefined) continue;
    if (!Number.isInteger(minutes) || minutes < 0 || minutes > MAX_DAILY_TARGET_MINUTES) {
      throw validationError(
        `weekly_target_minutes.${day} must be a whole number of minutes from 0 to ${MAX_DAILY_TARGET_MINUTES}`,
        `weekly_target_minutes.${day}`,
      );
    }
    weekly[day as Weekday] = minutes;
  }
  return weekly;
}

/** The stored schedules of a user, oldest first (empty: the implicit default). */
export async function storedSchedules(executor: Kysely<Database>, userId: number): Promise<Schedule[]> {
  return (await storedSchedulesOf(executor, [userId])).get(userId) ?? [];
}

/** The same of several users in one statement, by user (a user without a stored schedule is left out). */
export async function storedSchedulesOf(executor: Kysely<Database>, userIds: readonly number[]): Promise<Map<number, Schedule[]>> {
  const rows = await executor
    .selectFrom('target_schedules')
    .select(['id', 'user_id', 'valid_from', ...TARGET_COLUMNS])
    .where('user_id', 'in', userIds)
    .orderBy('user_id')
    .orderBy('valid_from')
    .execute();
  return schedulesByUser(rows);
}

/** Stored schedules' rows (oldest first) as schedules by user. */
export function schedulesByUser(rows: ReadonlyArray<ScheduleRow>): Map<number, Schedule[]> {
  const found = new Map<number, Schedule[]>();
  for (const row of rows) {
    const weekly = Object.fromEntries(WEEKDAYS.map((day) => [day, row[targetColumn(day)]])) as WeeklyTarget;
    found.set(row.user_id, [...(found.get(row.user_id) ?? []), { id: row.id, valid_from: row.valid_from, weekly_target_minutes: weekly }]);
  }
  return found;
}

/** The schedules of a user as a timeline: which weekly target is in force on a day, and over a range. */
export class ScheduleTimeline {
  /** Oldest first; never empty. */
  readonly schedules: ReadonlyArray<Pick<Schedule, 'valid_from' | 'weekly_target_minutes'>>;

  constructor(schedules: ReadonlyArray<Pick<Schedule, 'valid_from' | 'weekly_target_minutes'>>) {
    this.schedules = schedules.length > 0 ? schedules : [{ valid_from: '1970-01-01', weekly_target_minutes: DEFAULT_TARGET }];
  }

  /** The weekly target in force on `date`. */
  on(date: LocalDate): WeeklyTarget {
    let current = this.schedules[0]!;
    for (const schedule of this.schedules) {
      if (schedule.valid_from <= date) current = schedule;
      else break;
    }
    return current.weekly_target_minutes;
  }

  /** The target of `date`'s weekday under the schedule in force then. */
  targetOn(date: LocalDate, weekday: Weekday): number {
    return this.on(date)[weekday];
  }

  /** The range cut where schedules change: [from, through, weekly] pieces in order. */
  segments(from: LocalDate, through: LocalDate): Array<{ from: LocalDate; through: LocalDate; weekly: WeeklyTarget }> {
    const pieces: Array<{ from: LocalDate; through: LocalDate; weekly: WeeklyTarget }> = [];
    let cursor = from;
    while (cursor <= through) {
      const next = this.schedules.find((schedule) => schedule.valid_from > cursor);
      const end = next && addDays(next.valid_from, -1) < through ? addDays(next.valid_from, -1) : through;
      pieces.push({ from: cursor, through: end, weekly: this.on(cursor) });
      cursor = addDays(end, 1);
    }
    return pieces;
  }
}

export async function scheduleTimeline(executor: Kysely<Database>, userId: number): Promise<ScheduleTimeline> {
  return new ScheduleTimeline(await storedSchedules(executor, userId));
}

function scheduleExists(date: LocalDate): ServiceError {
  return new ServiceError('SCHEDULE_EXISTS', `There is already a schedule valid from ${date}`);
}

/**
 * Inside the caller's transaction (after lockUser): stores the implicit default schedule, from
 * `trackingStart`, if the user has none yet. Answers the schedules.
 */
export async function ensureSchedules(trx: Transaction<Database>, userId: number, trackingStart: LocalDate, now: string): Promise<Schedule[]> {
  const schedules = await storedSchedules(trx, userId);
  if (schedules.length > 0) return schedules;
  await trx
    .insertInto('target_schedules')
    .values({ user_id: userId, valid_from: trackingStart, created_at: now, ...columnsOf(DEFAULT_TARGET) })
    .execute();
  return storedSchedules(trx, userId);
}

/**
 * Inside the caller's transaction: the targets from `validFrom` on become `patch` over the schedule
 * in force on that day. With `replace`, a schedule already valid from that day is changed (PATCH
 * /api/settings); without, it is SCHEDULE_EXISTS (POST /api/settings/schedules).
 *
 * Targets from a day on or before the tracking start are the targets of every counted day: they
 * become the earliest schedule, and every stored schedule valid from a day on or before the tracking
 * start (`formerTrackingStart` too, when the same save moves it) goes. Such a row is the defaults a
 * read stored, or an earlier first setup; left in place it would take over again from its day on.
 */
export async function writeSchedule(
  trx: Transaction<Database>,
  userId: number,
  input: {
    validFrom: LocalDate;
    patch: Partial<Record<string, number | undefined>>;
    replace: boolean;
    trackingStart: LocalDate;
    formerTrackingStart?: LocalDate;
    now: string;
  },
): Promise<Schedule> {
  // The implicit default becomes a stored schedule from the tracking start, unless the new targets
  // start on or before it (then they are the earliest schedule, and cover every counted day).
  let schedules = await storedSchedules(trx, userId);
  const first = input.validFrom <= input.trackingStart;
  if (schedules.length === 0 && !first) schedules = await ensureSchedules(trx, userId, input.trackingStart, input.now);
  const weekly = checkWeeklyTarget(input.patch, new ScheduleTimeline(schedules).on(input.validFrom));
  const existing = schedules.find((schedule) => schedule.valid_from === input.validFrom);
  if (existing && !input.replace) throw scheduleExists(input.validFrom);
  if (first) {
    const former = input.formerTrackingStart ?? input.trackingStart;
    const through = former > input.trackingStart ? former : input.trackingStart;
    const replaced = schedules.filter((schedule) => schedule.valid_from <= through && schedule.id !== existing?.id);
    if (replaced.length > 0) {
      await trx
        .deleteFrom('target_schedules')
        .where('user_id', '=', userId)
        .where(
          'id',
          'in',
          replaced.map((schedule) => schedule.id),
        )
        .execute();
      schedules = schedules.filter((schedule) => !replaced.includes(schedule));
    }
  }
  if (existing) {
    await trx.updateTable('target_schedules').set(columnsOf(weekly)).where('id', '=', existing.id).execute();
    return { id: existing.id, valid_from: input.validFrom, weekly_target_minutes: weekly };
  }
  if (schedules.length >= MAX_SCHEDULES) throw validationError(`a user keeps at most ${MAX_SCHEDULES} schedules; delete old ones first`, 'valid_from');
  try {
    const row = await trx
      .insertInto('target_schedules')
      .values({ user_id: userId, valid_from: input.validFrom, created_at: input.now, ...columnsOf(weekly) })
      .returning('id')
      .executeTakeFirstOrThrow();
    return { id: row.id, valid_from: input.validFrom, weekly_target_minutes: weekly };
  } catch (error) {
    if (violatedRule(error) === 'schedule_day') throw scheduleExists(input.validFrom);
    throw error;
  }
}

/** Inside the caller's transaction (after lockUser): `schedules` (checked, distinct first days) replace the user's. */
export async function writeSchedules(
  trx: Transaction<Database>,
  userId: number,
  schedules: Array<{ valid_from: LocalDate; weekly: WeeklyTarget }>,
  now: string,
): Promise<void> {
  await trx.deleteFrom('target_schedules').where('user_id', '=', userId).execute();
  for (const schedule of schedules) {
    await trx
      .insertInto('target_schedules')
      .values({ user_id: userId, valid_from: schedule.valid_from, created_at: now, ...columnsOf(schedule.weekly) })
      .execute();
  }
}

export interface NewSchedule {
  valid_from: string;
  weekly_target_minutes: Partial<Record<string, number | undefined>>;
}

export interface ScheduleDeps {
  database: TransactionalDatabase;
  clock: Clock;
  /** The user's tracking start and zone, read inside the write's transaction (the settings service). */
  trackingStartOf: (trx: Transaction<Database>, userId: number) => Promise<{ tracking_start: LocalDate }>;
  /** Refuses targets that change a day of a closed month (src/time/month-lock.ts). */
  monthLock: MonthLock;
}

/** The days whose targets a schedule from `validFrom` decides: through the day before the next stored one. */
async function assertTargetsOpen(monthLock: MonthLock, trx: Transaction<Database>, userId: number, validFrom: LocalDate): Promise<void> {
  const next = (await storedSchedules(trx, userId)).find((schedule) => schedule.valid_from > validFrom);
  await monthLock.assertOpen(trx, userId, validFrom, next ? addDays(next.valid_from, -1) : LAST_DAY);
}

export function createScheduleService({ database, clock, trackingStartOf, monthLock }: ScheduleDeps) {
  const { db } = database;

  async function listSchedules(userId: number): Promise<Schedule[]> {
    const stored = await storedSchedules(db, userId);
    if (stored.length > 0) return stored;
    return database.transact(async (trx) => {
      await database.lockUser(trx, userId);
      const { tracking_start } = await trackingStartOf(trx, userId);
      return ensureSchedules(trx, userId, tracking_start, clock.now().toISOString());
    });
  }

  /** 201: targets from `valid_from` on (days not given: those of the schedule in force that day). */
  async function createSchedule(userId: number, input: NewSchedule): Promise<Schedule> {
    const validFrom = parseDate(input.valid_from, 'valid_from');
    return database.transact(async (trx) => {
      await database.lockUser(trx, userId);
      const { tracking_start } = await trackingStartOf(trx, userId);
      await assertTargetsOpen(monthLock, trx, userId, validFrom < tracking_start ? tracking_start : validFrom);
      return writeSchedule(trx, userId, {
        validFrom,
        patch: input.weekly_target_minutes,
        replace: false,
        trackingStart: tracking_start,
        now: clock.now().toISOString(),
      });
    });
  }

  /** Deletes a schedule (the days it covered fall to the one before); the earliest cannot go. */
  async function deleteSchedule(userId: number, id: number): Promise<void> {
    await database.transact(async (trx) => {
      await database.lockUser(trx, userId);
      const schedules = await storedSchedules(trx, userId);
      const index = schedules.findIndex((schedule) => schedule.id === id);
      if (index === -1) throw new ServiceError('NOT_FOUND', 'No such schedule');
      if (index === 0)
        throw validationError('the earliest schedule cannot be deleted (it covers every day before the later ones); change it, or add a new one', 'id');
      await assertTargetsOpen(monthLock, trx, userId, schedules[index]!.valid_from);
      await trx.deleteFrom('target_schedules').where('id', '=', id).where('user_id', '=', userId).execute();
    });
  }

  return { listSchedules, createSchedule, deleteSchedule };
}
