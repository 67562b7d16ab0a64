// An account's stored settings as the figures need them, in one statement (docs/performance.md): the
// settings row, the zone history and the schedules, the two histories as JSON arrays beside the row
// (on PostgreSQL every statement is a round trip). The statistics add the running entry to the same
// statement (src/time/statistics/context.ts).
import type { Kysely } from 'kysely';
import { jsonRows, rowsOfJson } from '../../db/sql.js';
import type { Database } from '../../db/types.js';
import type { Clock } from '../../common/clock.js';
import { ServiceError } from '../../common/errors.js';
import { localDateOf, zoneOn, type ZoneEntry } from '../calendar/dates.js';
import { ScheduleTimeline, scheduleOfRow, TARGET_COLUMNS, type Schedule } from '../schedules.js';
import type { BreakRule } from './patch.js';
import type { LocalDate } from '../../db/types.js';
import type { WeeklyTarget } from '../schedules.js';

export const DEFAULT_MIN_BREAK_MINUTES = 15;

export interface Settings {
  /** The zone in force today. */
  timezone: string;
  /** Every zone with its first day, oldest first (docs/time-model.md, Time zone history). */
  zones: ZoneEntry[];
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
  /** Today offers once to turn the limit on (an account made before it was on by default); false once on or dismissed. */
  suggest_timer_limit: boolean;
  /** The missing-day reminder is on (docs/notices.md); default true. */
  reminders_enabled: boolean;
}

/** The timer limit of a new account (12 hours); accounts made before it keep theirs (docs/time-model.md). */
export const DEFAULT_TIMER_LIMIT_MINUTES = 720;

export interface StoredSettings {
  settings: Settings;
  /** The stored schedules, oldest first (empty: the implicit default). */
  schedules: Schedule[];
}

/** The statement: a row per account, its settings' columns null where it stored none. */
export function storedSettingsQuery(executor: Kysely<Database>, userIds: readonly number[]) {
  return executor
    .selectFrom('users')
    .leftJoin('user_settings', 'user_settings.user_id', 'users.id')
    .select((eb) => [
      'users.id',
      'users.created_at',
      'user_settings.holiday_region',
      'user_settings.overtime_offset_minutes',
      'user_settings.tracking_start',
      'user_settings.break_rules',
      'user_settings.min_break_minutes',
      'user_settings.vacation_half_days_per_year',
      'user_settings.vacation_carry_over_max_half_days',
      'user_settings.vacation_taken_before_tracking_half_days',
      'user_settings.timer_limit_minutes',
      'user_settings.user_id as settings_row',
      'user_settings.suggest_timer_limit',
      'user_settings.reminders_enabled',
      jsonRows<ZoneEntry>(executor, eb.selectFrom('zone_history').select(['valid_from', 'timezone']).whereRef('zone_history.user_id', '=', 'users.id')).as(
        'zone_rows',
      ),
      jsonRows<ScheduleRow>(
        executor,
        eb
          .selectFrom('target_schedules')
          .select(['id', 'valid_from', ...TARGET_COLUMNS])
          .whereRef('target_schedules.user_id', '=', 'users.id'),
      ).as('schedule_rows'),
    ])
    .where('users.id', 'in', userIds);
}

/** A stored schedule's columns. */
type ScheduleRow = Parameters<typeof scheduleOfRow>[0];

type StoredRow = Awaited<ReturnType<ReturnType<typeof storedSettingsQuery>['execute']>>[number];

/** The settings of several accounts by id (NOT_FOUND for an id without an account). */
export async function storedSettingsOf(clock: Clock, executor: Kysely<Database>, userIds: readonly number[]): Promise<Map<number, StoredSettings>> {
  const rows = await storedSettingsQuery(executor, userIds).execute();
  return new Map(userIds.map((userId) => [userId, storedSettingsOfRow(clock, rowOf(rows, userId))]));
}

/** The row of an account among a statement's rows, or NOT_FOUND. */
export function rowOf<R extends { id: number }>(rows: readonly R[], userId: number): R {
  const row = rows.find((candidate) => candidate.id === userId);
  if (!row) throw new ServiceError('NOT_FOUND', 'No such account');
  return row;
}

const byFirstDay = (a: { valid_from: string }, b: { valid_from: string }) => (a.valid_from < b.valid_from ? -1 : a.valid_from > b.valid_from ? 1 : 0);

/** The settings and schedules of one account from its row of the statement above. */
export function storedSettingsOfRow(clock: Clock, row: StoredRow): StoredSettings {
  const stored: ZoneEntry[] = rowsOfJson(row.zone_rows).sort(byFirstDay);
  const schedules = rowsOfJson(row.schedule_rows).sort(byFirstDay).map(scheduleOfRow);
  const trackingStart = row.tracking_start ?? localDateOf(Date.parse(row.created_at), stored.length > 0 ? stored : 'UTC');
  const zones = stored.length > 0 ? stored : [{ valid_from: trackingStart, timezone: 'UTC' }];
  const today = localDateOf(clock.now().getTime(), zones);
  const inForce = schedules.filter((schedule) => schedule.valid_from <= today).at(-1) ?? schedules[0];
  const settings: Settings = {
    timezone: zoneOn(today, zones),
    zones,
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
    timer_limit_minutes: row.settings_row === null ? DEFAULT_TIMER_LIMIT_MINUTES : (row.timer_limit_minutes ?? null),
    suggest_timer_limit: row.suggest_timer_limit === 1,
    reminders_enabled: row.reminders_enabled !== 0,
  };
  return { settings, schedules };
}

/** Half days as stored (null: not set) in days. */
const days = (halves: number | null | undefined): number | null => (halves === null || halves === undefined ? null : halves / 2);
