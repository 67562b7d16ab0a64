// A settings patch (PATCH /api/settings, an account document's settings): its shape, and the checks that
// turn it into the columns it sets (VALIDATION_ERROR naming the field at fault). The service that stores
// it: ./settings.ts.
import type { LocalDate } from '../../db/types.js';
import { parseDate, type ZoneEntry } from '../calendar/dates.js';
import { normalizeHolidayRegion } from '../calendar/holidays.js';
import { checkZoneChange, type ZoneChange } from './zone-history.js';
import { validationError } from '../../common/errors.js';
import { checkWeeklyTarget, DEFAULT_TARGET, type WeeklyTarget } from '../schedules.js';

/** Ten years of full-time overtime: anything beyond is a typo. */
export const MAX_OFFSET_MINUTES = 10 * 365 * 24 * 60;

export interface BreakRule {
  worked_over_minutes: number;
  break_minutes: number;
}

/** At most this many break rules (the German law has two). */
export const MAX_BREAK_RULES = 10;
export const MAX_MIN_BREAK_MINUTES = 240;

export interface SettingsPatch {
  /** From `timezone_valid_from` on, or from today (in that zone). */
  timezone?: string;
  timezone_valid_from?: string;
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
  /** Days already taken in the tracking start's year before it (docs/time-model.md, Vacation allowance). */
  vacation_taken_before_tracking_days?: number | null;
  timer_limit_minutes?: number | null;
  /** false: the offer on Today is dismissed. */
  suggest_timer_limit?: boolean;
  /** false: no missing-day reminder (docs/notices.md). */
  reminders_enabled?: boolean;
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

/** A settings patch checked and normalised: the columns it sets, and the weekly targets it changes. */
export interface CheckedSettingsPatch {
  values: {
    holiday_region?: string | null;
    overtime_offset_minutes?: number;
    tracking_start?: string | null;
    break_rules?: string;
    min_break_minutes?: number;
    vacation_half_days_per_year?: number | null;
    vacation_carry_over_max_half_days?: number | null;
    vacation_taken_before_tracking_half_days?: number | null;
    timer_limit_minutes?: number | null;
    suggest_timer_limit?: number;
    reminders_enabled?: number;
  };
  /** The days given (checked), from `validFrom` on; without it, from today in the user's zone. */
  targets?: { patch: Partial<WeeklyTarget>; validFrom?: LocalDate };
  /** A new zone from a date on (default: today in that zone). */
  zone?: ZoneChange;
  /** A whole zone history replacing the stored one (an account document). */
  zones?: ZoneEntry[];
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
    if (limit !== null) values.suggest_timer_limit = 0;
  }
  if (patch.suggest_timer_limit !== undefined) {
    if (typeof patch.suggest_timer_limit !== 'boolean') throw validationError('suggest_timer_limit must be true or false', 'suggest_timer_limit');
    values.suggest_timer_limit = patch.suggest_timer_limit && values.suggest_timer_limit !== 0 ? 1 : 0;
  }
  if (patch.reminders_enabled !== undefined) {
    if (typeof patch.reminders_enabled !== 'boolean') throw validationError('reminders_enabled must be true or false', 'reminders_enabled');
    values.reminders_enabled = patch.reminders_enabled ? 1 : 0;
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
  const zone = checkZoneChange(patch);
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
  if (patch.weekly_target_minutes === undefined) return { values, ...zone };
  // The days given, checked here (each problem names its day); the rest come from the schedule in force that day.
  const given = Object.fromEntries(Object.entries(patch.weekly_target_minutes).filter(([, minutes]) => minutes !== undefined));
  const checkedDays = checkWeeklyTarget(given, DEFAULT_TARGET);
  const targetPatch = Object.fromEntries(Object.keys(given).map((day) => [day, checkedDays[day as keyof WeeklyTarget]])) as Partial<WeeklyTarget>;
  const validFrom = patch.targets_valid_from === undefined ? undefined : parseDate(patch.targets_valid_from, 'targets_valid_from');
  return { values, ...zone, targets: { patch: targetPatch, ...(validFrom === undefined ? {} : { validFrom }) } };
}
