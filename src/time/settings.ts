// Per-user time-tracking settings (docs/time-model.md). A user without a stored row has the defaults;
// the first PATCH stores one. Changing the time zone moves every day boundary: the new per-day totals
// are worked out before the transaction and written in the one that stores the zone.
import type { Kysely, Transaction } from 'kysely';
import type { TransactionalDatabase } from '../db/database.js';
import type { Database, LocalDate } from '../db/types.js';
import { localDateOf, normalizeHolidayRegion, normalizeTimezone, parseDate, WEEKDAYS, type Weekday } from './calendar.js';
import type { Clock } from '../common/clock.js';
import { prepareDailyTotals, replaceDailyTotals, type PreparedTotals } from './entries-store.js';
import { ServiceError, validationError } from '../common/errors.js';

export const MAX_DAILY_TARGET_MINUTES = 24 * 60;
/** Ten years of full-time overtime: anything beyond is a typo. */
export const MAX_OFFSET_MINUTES = 10 * 365 * 24 * 60;

export type WeeklyTarget = Record<Weekday, number>;

export interface Settings {
  timezone: string;
  weekly_target_minutes: WeeklyTarget;
  holiday_region: string | null;
  overtime_offset_minutes: number;
  tracking_start: LocalDate;
}

export interface SettingsPatch {
  timezone?: string;
  weekly_target_minutes?: Partial<WeeklyTarget>;
  holiday_region?: string | null;
  overtime_offset_minutes?: number;
  /** null: back to the default (the day the account was made). */
  tracking_start?: string | null;
}

const DEFAULT_TARGET: WeeklyTarget = { mon: 480, tue: 480, wed: 480, thu: 480, fri: 480, sat: 0, sun: 0 };

type TargetColumn = `target_${Weekday}_minutes`;
const targetColumn = (day: Weekday): TargetColumn => `target_${day}_minutes`;

function checkTarget(day: string, minutes: number): number {
  if (!Number.isInteger(minutes) || minutes < 0 || minutes > MAX_DAILY_TARGET_MINUTES) {
    throw validationError(`weekly_target_minutes.${day} must be a whole number of minutes from 0 to ${MAX_DAILY_TARGET_MINUTES}`, `weekly_target_minutes.${day}`);
  }
  return minutes;
}

export function createSettingsService(database: TransactionalDatabase, clock: Clock) {
  const { db } = database;
  /** The settings of a user (defaults where nothing is stored); NOT_FOUND if the account is gone. */
  function getSettings(userId: number): Promise<Settings> {
    return selectSettings(db, userId);
  }

  /** The same, read inside the caller's transaction (whose writes depend on them). */
  function getSettingsInTransaction(trx: Transaction<Database>, userId: number): Promise<Settings> {
    return selectSettings(trx, userId);
  }

  async function selectSettings(executor: Kysely<Database>, userId: number): Promise<Settings> {
    const row = await executor
      .selectFrom('users')
      .leftJoin('user_settings', 'user_settings.user_id', 'users.id')
      .select([
        'users.created_at',
        'user_settings.timezone',
        'user_settings.holiday_region',
        'user_settings.overtime_offset_minutes',
        'user_settings.tracking_start',
        ...WEEKDAYS.map((day) => `user_settings.${targetColumn(day)}` as const),
      ])
      .where('users.id', '=', userId)
      .executeTakeFirst();
    if (!row) throw new ServiceError('NOT_FOUND', 'No such account');
    const timezone = row.timezone ?? 'UTC';
    const weekly = Object.fromEntries(WEEKDAYS.map((day) => [day, row[targetColumn(day)] ?? DEFAULT_TARGET[day]])) as WeeklyTarget;
    return {
      timezone,
      weekly_target_minutes: weekly,
      holiday_region: row.holiday_region ?? null,
      overtime_offset_minutes: row.overtime_offset_minutes ?? 0,
      tracking_start: row.tracking_start ?? localDateOf(Date.parse(row.created_at), timezone),
    };
  }

  /** Applies a partial update; answers the whole settings object. */
  async function updateSettings(userId: number, patch: SettingsPatch): Promise<Settings> {
    const values = await checkSettingsPatch(patch);
    // The slow part of a change of zone happens before the write lock is taken (docs/time-model.md).
    let prepared: PreparedTotals | undefined;
    if (values.timezone !== undefined && values.timezone !== (await getSettings(userId)).timezone) {
      prepared = await prepareDailyTotals(db, userId, values.timezone);
    }
    return database.transact(async (trx) => {
      await database.lockUser(trx, userId);
      return writeSettingsIn(trx, userId, values, prepared);
    });
  }

  /**
   * Stores checked settings inside the caller's transaction (which has locked the user); a new zone
   * replaces the per-day totals (worked out from `prepared` if it still fits, else here). Answers the
   * whole settings object.
   */
  async function writeSettingsIn(trx: Transaction<Database>, userId: number, values: CheckedSettings, prepared?: PreparedTotals): Promise<Settings> {
    const before = await getSettingsInTransaction(trx, userId);
    const now = clock.now().toISOString();
    await trx
      .insertInto('user_settings')
      .values({ user_id: userId, tracking_start: null, holiday_region: null, ...values, updated_at: now })
      .onConflict((conflict) => conflict.column('user_id').doUpdateSet({ ...values, updated_at: now }))
      .execute();
    const after = await getSettingsInTransaction(trx, userId);
    if (after.timezone !== before.timezone) {
      await replaceDailyTotals(trx, userId, prepared?.zone === after.timezone ? prepared : { zone: after.timezone, entries: [], totals: new Map() });
    }
    return after;
  }

  return { getSettings, getSettingsInTransaction, updateSettings, writeSettingsIn };
}

/** A settings patch checked and normalised, as the columns it sets. */
export type CheckedSettings = Partial<Record<TargetColumn, number>> & {
  timezone?: string;
  holiday_region?: string | null;
  overtime_offset_minutes?: number;
  tracking_start?: string | null;
};

/** Checks a patch (VALIDATION_ERROR naming the field at fault) and answers the columns it sets. */
export async function checkSettingsPatch(patch: SettingsPatch): Promise<CheckedSettings> {
  const values: CheckedSettings = {};
  if (patch.timezone !== undefined) values.timezone = normalizeTimezone(patch.timezone);
  if (patch.holiday_region !== undefined) {
    values.holiday_region = patch.holiday_region === null || patch.holiday_region.trim() === '' ? null : await normalizeHolidayRegion(patch.holiday_region);
  }
  if (patch.overtime_offset_minutes !== undefined) {
    const offset = patch.overtime_offset_minutes;
    if (!Number.isInteger(offset) || Math.abs(offset) > MAX_OFFSET_MINUTES) {
      throw validationError(`overtime_offset_minutes must be a whole number from -${MAX_OFFSET_MINUTES} to ${MAX_OFFSET_MINUTES}`, 'overtime_offset_minutes');
    }
    values.overtime_offset_minutes = offset;
  }
  if (patch.tracking_start !== undefined) {
    values.tracking_start = patch.tracking_start === null ? null : parseDate(patch.tracking_start, 'tracking_start');
  }
  for (const [day, minutes] of Object.entries(patch.weekly_target_minutes ?? {})) {
    if (!(WEEKDAYS as readonly string[]).includes(day)) throw validationError(`weekly_target_minutes has no day "${day}" (mon … sun)`, 'weekly_target_minutes');
    if (minutes !== undefined) values[targetColumn(day as Weekday)] = checkTarget(day, minutes);
  }
  return values;
}

export type SettingsService = ReturnType<typeof createSettingsService>;
