// A user's time zone history (docs/time-model.md, Time zone history): which zone each day counts in,
// as stored, and what a change of zone from a date makes of it. The day arithmetic is in
// ./calendar/zones.ts. A change from a date keeps every day before it as it was; a change from a day
// on or before the tracking start ("all my days") is the one change that recounts every day.
import type { Transaction } from 'kysely';
import type { Database, LocalDate } from '../../db/types.js';
import { validationError } from '../../common/errors.js';
import { localDateIn, normalizeTimezone, parseDate } from '../calendar/dates.js';
import { normalizeZones, sameZones, type ZoneEntry } from '../calendar/zones.js';

/** A user keeps at most this many zones: a traveller's few changes a month for decades. */
export const MAX_ZONES = 1000;

/** A change of zone: `timezone` from `validFrom` on (default: today in that zone). */
export interface ZoneChange {
  timezone: string;
  validFrom?: LocalDate;
}

/** A history after a change, and the first day it counts differently (undefined: every day). */
export interface ChangedZones {
  zones: ZoneEntry[];
  from: LocalDate | undefined;
}

/**
 * The history after `change`: every zone from its first day on replaced by the new one, the days
 * before kept. A change from a day on or before the tracking start leaves one zone for every day.
 * Answers undefined when no day changes; VALIDATION_ERROR (naming timezone_valid_from) for a first
 * day after today in the new zone.
 */
export function changeZones(current: { zones: readonly ZoneEntry[]; tracking_start: LocalDate }, change: ZoneChange, nowMs: number): ChangedZones | undefined {
  const today = localDateIn(nowMs, change.timezone);
  const validFrom = change.validFrom ?? today;
  if (validFrom > today) {
    throw validationError(
      `timezone_valid_from must be today (${today} in ${change.timezone}) or earlier: a zone applies to days already begun`,
      'timezone_valid_from',
    );
  }
  const allDays = validFrom <= current.tracking_start;
  // The days before the change keep their zones; when they all had the earliest one, it now starts at the tracking start.
  const kept = current.zones.filter((entry) => entry.valid_from < validFrom);
  const before = kept.length > 0 ? kept : current.zones.slice(0, 1).map((entry) => ({ valid_from: current.tracking_start, timezone: entry.timezone }));
  const zones = allDays
    ? [{ valid_from: current.tracking_start, timezone: change.timezone }]
    : normalizeZones([...before, { valid_from: validFrom, timezone: change.timezone }]);
  if (zones.length > MAX_ZONES) throw validationError(`an account keeps at most ${MAX_ZONES} time zones`, 'timezone');
  if (sameZones(zones, normalizeZones(current.zones))) return undefined;
  return { zones, from: allDays ? undefined : validFrom };
}

/** Replaces the stored history of a user (inside the caller's transaction, which has locked the user). */
export async function writeZones(trx: Transaction<Database>, userId: number, zones: readonly ZoneEntry[], now: string): Promise<void> {
  await trx.deleteFrom('zone_history').where('user_id', '=', userId).execute();
  if (zones.length === 0) return;
  await trx
    .insertInto('zone_history')
    .values(zones.map((entry) => ({ user_id: userId, valid_from: entry.valid_from, timezone: entry.timezone, created_at: now })))
    .execute();
}

/** The zone change of a request: a known zone, and a date its first day (VALIDATION_ERROR naming the field). */
export function checkZoneChange(patch: { timezone?: string; timezone_valid_from?: string }): { zone?: ZoneChange } {
  if (patch.timezone_valid_from !== undefined && patch.timezone === undefined) {
    throw validationError('timezone_valid_from goes with timezone (the zone that starts that day)', 'timezone_valid_from');
  }
  if (patch.timezone === undefined) return {};
  const timezone = normalizeTimezone(patch.timezone);
  if (patch.timezone_valid_from === undefined) return { zone: { timezone } };
  return { zone: { timezone, validFrom: parseDate(patch.timezone_valid_from, 'timezone_valid_from') } };
}
