// Per-user time-tracking settings (docs/time-model.md). A user without a stored row has the defaults;
// the first PATCH stores one. Changing the time zone moves every day boundary: the new per-day totals
// are worked out before the transaction and written in the one that stores the zone.
import type { Kysely, Transaction } from 'kysely';
import type { TransactionalDatabase } from '../db/database.js';
import type { Database, LocalDate } from '../db/types.js';
import { localDateOf, normalizeTimezone, parseDate } from './calendar/dates.js';
import { normalizeHolidayRegion } from './calendar/holidays.js';
import type { Clock } from '../common/clock.js';
import { prepareDailyTotals, replaceDailyTotals, type PreparedTotals } from './entries/store.js';
import { ServiceError, validationError } from '../common/errors.js';
import { checkWeeklyTarget, DEFAULT_TARGET, ScheduleTimeline, storedSchedules, writeSchedule, type WeeklyTarget } from './schedules.js';

const MINUTE_MS = 60_000;
export const DEFAULT_MIN_BREAK_MINUTES = 15;

/** Ten years of full-time overtime: anything beyond is a typo. */
export const MAX_OFFSET_MINUTES = 10 * 365 * 24 * 60;

export interface BreakRule {
  worked_over_minutes: number;
  break_minutes: number;
}

/** At most this many break rules (the German law has two). */
export const MAX_BREAK_RULES = 10;
export const MAX_MIN_BREAK_MINUTES = 240;

export interface Settings {
  timezone: string;
  /** The schedule in force today (docs/time-model.md, Target schedules). */
  weekly_target_minutes: WeeklyTarget;
  /** The first day of that schedule. */
  targets_valid_from: LocalDate;
  holiday_region: string | null;
  overtime_offset_minutes: number;
  tracking_start: LocalDate;
  /** By threshold, ascending (docs/time-model.md, Break rules). */
  break_rules: BreakRule[];
  min_break_minutes: number;
  /** Days of vacation a year, halves allowed; null: not tracked (docs/time-model.md, Vacation allowance). */
  vacation_days_per_year: number | null;
  /** The most days carried into a year; null: no limit. */
  vacation_carry_over_max_days: number | null;
  /** Days of vacation taken in the year of tracking_start before it (that year's remaining days go down by them); null: none. */
  vacation_taken_before_tracking_days: number | null;
  /** A running entry is stopped at its start plus this many minutes; null: never (docs/time-model.md, Forgotten timer). */
  timer_limit_minutes: number | null;
}

export interface SettingsPatch {
  timezone?: string;
  /** From `targets_valid_from` on, or from today (in the user's zone). */
  weekly_target_minutes?: Partial<WeeklyTarget>;
  targets_valid_from?: string;
  holiday_region?: string | null;
  overtime_offset_minutes?: number;
  /** null: back to the default (the day the account was made). */
  tracking_start?: string | null;
  break_rules?: BreakRule[];
  min_break_minutes?: number;
  vacation_days_per_year?: number | null;
  vacation_carry_over_max_days?: number | null;
  vacation_taken_before_tracking_days?: number | null;
  timer_limit_minutes?: number | null;
}

/** The longest timer limit: the longest an entry may last (31 days). */
export const MAX_TIMER_LIMIT_MINUTES = 31 * 24 * 60;

/** Days in half steps from 0 to 366 (as half days), or null; else VALIDATION_ERROR naming the field. */
function halfDays(value: number | null, field: string): number | null {
  if (value === null) return null;
  if (typeof value !== 'number' || !Number.isInteger(value * 2) || value < 0 || value > 366) {
    throw validationError(`${field} must be a number of days from 0 to 366 in steps of a half day, or null`, field);
  }
  return value * 2;
}

/** Break rules of the request: whole minutes, distinct thresholds, sorted by threshold; else VALIDATION_ERROR naming the field. */
export function checkBreakRules(rules: unknown): BreakRule[] {
  if (!Array.isArray(rules) || rules.length > MAX_BREAK_RULES)
    throw validationError(`break_rules must be a list of at most ${MAX_BREAK_RULES} rules`, 'break_rules');
  const checked = rules.map((rule: Partial<BreakRule> | null, index) => {
    const over = rule?.worked_over_minutes;
    const minutes = rule?.break_minutes;
    if (!Number.isInteger(over) || (over as number) < 0 || (over as number) > 1440) {
      throw validationError('worked_over_minutes must be a whole number of minutes from 0 to 1440', `break_rules.${index}.worked_over_minutes`);
    }
    if (!Number.isInteger(minutes) || (minutes as number) < 1 || (minutes as number) > 720) {
      throw validationError('break_minutes must be a whole number of minutes from 1 to 720', `break_rules.${index}.break_minutes`);
    }
    return { worked_over_minutes: over as number, break_minutes: minutes as number };
  });
  if (new Set(checked.map((rule) => rule.worked_over_minutes)).size !== checked.length)
    throw validationError('two break rules have the same worked_over_minutes', 'break_rules');
  return checked.sort((a, b) => a.worked_over_minutes - b.worked_over_minutes);
}

export interface SettingsDeps {
  database: TransactionalDatabase;
  clock: Clock;
}

/** Half days as stored (null: not set) in days. */
const days = (halves: number | null | undefined): number | null => (halves === null || halves === undefined ? null : halves / 2);

/** The settings of a user as stored (defaults where nothing is), with the schedule in force on `clock`'s today. */
async function selectSettings(clock: Clock, executor: Kysely<Database>, userId: number): Promise<Settings> {
  const row = await executor
    .selectFrom('users')
    .leftJoin('user_settings', 'user_settings.user_id', 'users.id')
    .select([
      'users.created_at',
      'user_settings.timezone',
      'user_settings.holiday_region',
      'user_settings.overtime_offset_minutes',
      'user_settings.tracking_start',
      'user_settings.break_rules',
      'user_settings.min_break_minutes',
      'user_settings.vacation_half_days_per_year',
      'user_settings.vacation_carry_over_max_half_days',
      'user_settings.vacation_taken_before_tracking_half_days',
      'user_settings.timer_limit_minutes',
    ])
    .where('users.id', '=', userId)
    .executeTakeFirst();
  if (!row) throw new ServiceError('NOT_FOUND', 'No such account');
  const timezone = row.timezone ?? 'UTC';
  const trackingStart = row.tracking_start ?? localDateOf(Date.parse(row.created_at), timezone);
  const schedules = await storedSchedules(executor, userId);
  const today = localDateOf(clock.now().getTime(), timezone);
  const inForce = schedules.filter((schedule) => schedule.valid_from <= today).at(-1) ?? schedules[0];
  return {
    timezone,
    weekly_target_minutes: inForce?.weekly_target_minutes ?? new ScheduleTimeline([]).on(today),
    targets_valid_from: inForce?.valid_from ?? trackingStart,
    holiday_region: row.holiday_region ?? null,
    overtime_offset_minutes: row.overtime_offset_minutes ?? 0,
    tracking_start: trackingStart,
    break_rules: row.break_rules ? (JSON.parse(row.break_rules) as BreakRule[]) : [],
    min_break_minutes: row.min_break_minutes ?? DEFAULT_MIN_BREAK_MINUTES,
    vacation_days_per_year: days(row.vacation_half_days_per_year),
    vacation_carry_over_max_days: days(row.vacation_carry_over_max_half_days),
    vacation_taken_before_tracking_days: days(row.vacation_taken_before_tracking_half_days),
    timer_limit_minutes: row.timer_limit_minutes ?? null,
  };
}

export function createSettingsService({ database, clock }: SettingsDeps) {
  const { db } = database;
  /** The settings of a user (defaults where nothing is stored); NOT_FOUND if the account is gone. */
  function getSettings(userId: number): Promise<Settings> {
    return selectSettings(clock, db, userId);
  }

  /** The same, read inside the caller's transaction (whose writes depend on them). */
  function getSettingsInTransaction(trx: Transaction<Database>, userId: number): Promise<Settings> {
    return selectSettings(clock, trx, userId);
  }

  /** Applies a partial update; answers the whole settings object. */
  async function updateSettings(userId: number, patch: SettingsPatch): Promise<Settings> {
    const checked = await checkSettingsPatch(patch);
    // The slow part of a change of zone (or of the shortest break, which the stored breaks depend on)
    // happens before the write lock is taken (docs/time-model.md).
    let prepared: PreparedTotals | undefined;
    const current = await getSettings(userId);
    const zone = checked.values.timezone ?? current.timezone;
    const minBreak = checked.values.min_break_minutes ?? current.min_break_minutes;
    if (zone !== current.timezone || minBreak !== current.min_break_minutes) {
      prepared = await prepareDailyTotals(db, userId, zone, minBreak * MINUTE_MS);
    }
    return database.transact(async (trx) => {
      await database.lockUser(trx, userId);
      return writeSettingsIn(trx, userId, checked, prepared);
    });
  }

  /**
   * Stores checked settings inside the caller's transaction (which has locked the user): the columns,
   * then the weekly targets as the schedule from their first day (today in the zone, unless named); a
   * new zone or shortest break replaces the per-day totals (worked out from `prepared` if it still
   * fits, else here). Answers the whole settings object.
   */
  async function writeSettingsIn(trx: Transaction<Database>, userId: number, checked: CheckedSettingsPatch, prepared?: PreparedTotals): Promise<Settings> {
    const { values, targets } = checked;
    const before = await getSettingsInTransaction(trx, userId);
    const now = clock.now().toISOString();
    await trx
      .insertInto('user_settings')
      .values({
        user_id: userId,
        tracking_start: null,
        holiday_region: null,
        vacation_half_days_per_year: null,
        vacation_carry_over_max_half_days: null,
        vacation_taken_before_tracking_half_days: null,
        timer_limit_minutes: null,
        ...values,
        updated_at: now,
      })
      .onConflict((conflict) => conflict.column('user_id').doUpdateSet({ ...values, updated_at: now }))
      .execute();
    let after = await getSettingsInTransaction(trx, userId);
    if (targets !== undefined) {
      // From today in the (new) zone, unless the request names the first day.
      const validFrom = targets.validFrom ?? localDateOf(clock.now().getTime(), after.timezone);
      await writeSchedule(trx, userId, {
        validFrom,
        patch: targets.patch,
        replace: true,
        trackingStart: after.tracking_start,
        formerTrackingStart: before.tracking_start,
        now,
      });
      after = await getSettingsInTransaction(trx, userId);
    }
    if (after.timezone !== before.timezone || after.min_break_minutes !== before.min_break_minutes) {
      const minBreakMs = after.min_break_minutes * MINUTE_MS;
      const usable = prepared?.zone === after.timezone && prepared.minBreakMs === minBreakMs;
      await replaceDailyTotals(trx, userId, usable && prepared ? prepared : { zone: after.timezone, minBreakMs, entries: [], totals: new Map() });
    }
    return after;
  }

  return { getSettings, getSettingsInTransaction, updateSettings, writeSettingsIn };
}

/** A settings patch checked and normalised: the columns it sets, and the weekly targets it changes. */
export interface CheckedSettingsPatch {
  values: {
    timezone?: string;
    holiday_region?: string | null;
    overtime_offset_minutes?: number;
    tracking_start?: string | null;
    break_rules?: string;
    min_break_minutes?: number;
    vacation_half_days_per_year?: number | null;
    vacation_carry_over_max_half_days?: number | null;
    vacation_taken_before_tracking_half_days?: number | null;
    timer_limit_minutes?: number | null;
  };
  /** The days given (checked), from `validFrom` on; without it, from today in the user's zone. */
  targets?: { patch: Partial<WeeklyTarget>; validFrom?: LocalDate };
}

/** Checks a patch (VALIDATION_ERROR naming the field at fault) and answers what it sets. */
export async function checkSettingsPatch(patch: SettingsPatch): Promise<CheckedSettingsPatch> {
  const values: CheckedSettingsPatch['values'] = {};
  if (patch.timer_limit_minutes !== undefined) {
    const limit = patch.timer_limit_minutes;
    if (limit !== null && (!Number.isInteger(limit) || limit < 1 || limit > MAX_TIMER_LIMIT_MINUTES)) {
      throw validationError(`timer_limit_minutes must be a whole number of minutes from 1 to ${MAX_TIMER_LIMIT_MINUTES}, or null`, 'timer_limit_minutes');
    }
    values.timer_limit_minutes = limit;
  }
  if (patch.vacation_days_per_year !== undefined) values.vacation_half_days_per_year = halfDays(patch.vacation_days_per_year, 'vacation_days_per_year');
  if (patch.vacation_carry_over_max_days !== undefined) {
    values.vacation_carry_over_max_half_days = halfDays(patch.vacation_carry_over_max_days, 'vacation_carry_over_max_days');
  }
  if (patch.vacation_taken_before_tracking_days !== undefined) {
    const field = 'vacation_taken_before_tracking_days';
    values.vacation_taken_before_tracking_half_days = halfDays(patch.vacation_taken_before_tracking_days, field);
  }
  if (patch.break_rules !== undefined) values.break_rules = JSON.stringify(checkBreakRules(patch.break_rules));
  if (patch.min_break_minutes !== undefined) {
    const minutes = patch.min_break_minutes;
    if (!Number.isInteger(minutes) || minutes < 1 || minutes > MAX_MIN_BREAK_MINUTES) {
      throw validationError(`min_break_minutes must be a whole number of minutes from 1 to ${MAX_MIN_BREAK_MINUTES}`, 'min_break_minutes');
    }
    values.min_break_minutes = minutes;
  }
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
  if (patch.targets_valid_from !== undefined && patch.weekly_target_minutes === undefined) {
    throw validationError('targets_valid_from goes with weekly_target_minutes (the targets that start that day)', 'targets_valid_from');
  }
  if (patch.weekly_target_minutes === undefined) return { values };
  // The days given, checked here (each problem names its day); the rest come from the schedule in force that day.
  const given = Object.fromEntries(Object.entries(patch.weekly_target_minutes).filter(([, minutes]) => minutes !== undefined));
  const checkedDays = checkWeeklyTarget(given, DEFAULT_TARGET);
  const targetPatch = Object.fromEntries(Object.keys(given).map((day) => [day, checkedDays[day as keyof WeeklyTarget]])) as Partial<WeeklyTarget>;
  const validFrom = patch.targets_valid_from === undefined ? undefined : parseDate(patch.targets_valid_from, 'targets_valid_from');
  return { values, targets: { patch: targetPatch, ...(validFrom === undefined ? {} : { validFrom }) } };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
