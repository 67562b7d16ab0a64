// Per-user time-tracking settings (docs/time-model.md). A user without a stored row has the defaults;
// the first PATCH stores one. Changing the time zone from a date moves the day boundaries from that
// date on (./zone-history.ts): the new per-day totals of those days are worked out before the
// transaction and written in the one that stores the zone.
import type { Kysely, Transaction } from 'kysely';
import type { OpenedDatabase, TransactionalDatabase } from '../../db/database.js';
import type { Database, LocalDate, TimeEntryRow } from '../../db/types.js';
import { localDateOf, zoneOn, type ZoneEntry } from '../calendar/dates.js';
import type { Clock } from '../../common/clock.js';
import { preparedFor, prepareDailyTotals, replaceDailyTotals, type PreparedTotals } from '../entries/store.js';
import { changeZones, writeZones } from './zone-history.js';
import { createRebuildGate } from './rebuild-gate.js';
import { checkSettingsPatch, type BreakRule, type CheckedSettingsPatch, type SettingsPatch } from './patch.js';

export {
  checkBreakRules,
  checkSettingsPatch,
  MAX_BREAK_RULES,
  MAX_MIN_BREAK_MINUTES,
  MAX_OFFSET_MINUTES,
  MAX_TIMER_LIMIT_MINUTES,
  type BreakRule,
  type CheckedSettingsPatch,
  type SettingsPatch,
} from './patch.js';
import { ServiceError } from '../../common/errors.js';
import { changedDays, type MonthLock } from '../month-lock.js';
import { ScheduleTimeline, schedulesByUser, writeSchedule, type Schedule, type WeeklyTarget } from '../schedules.js';
import { accountRowsOf, type AccountRows, type SettingsRow } from './account-rows.js';

const MINUTE_MS = 60_000;
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

export interface SettingsDeps {
  /** `exclusively`: one rebuild of an account's totals at a time across processes (./rebuild-gate.ts). */
  database: TransactionalDatabase & Pick<OpenedDatabase, 'exclusively'>;
  clock: Clock;
  /** Refuses settings that rewrite a day of a closed month (src/time/month-lock.ts). */
  monthLock: MonthLock;
}

/** Half days as stored (null: not set) in days. */
const days = (halves: number | null | undefined): number | null => (halves === null || halves === undefined ? null : halves / 2);

/** The settings of a user as stored (defaults where nothing is), with the schedule in force on `clock`'s today. */
async function selectSettings(clock: Clock, executor: Kysely<Database>, userId: number): Promise<Settings> {
  return (await settingsAndSchedules(clock, executor, userId)).settings;
}

/**
 * The settings of a user and the stored schedules they were read with (oldest first): what the
 * statistics need of an account, read once per request (src/time/statistics/context.ts).
 */
export async function settingsAndSchedules(clock: Clock, executor: Kysely<Database>, userId: number): Promise<{ settings: Settings; schedules: Schedule[] }> {
  return (await settingsAndSchedulesOf(clock, executor, [userId])).get(userId)!;
}

/** The same of several users (a lead's overview of a team), in the same statement, by user. */
export async function settingsAndSchedulesOf(
  clock: Clock,
  executor: Kysely<Database>,
  userIds: readonly number[],
): Promise<Map<number, { settings: Settings; schedules: Schedule[] }>> {
  return byUser(clock, userIds, await accountRowsOf(executor, userIds, { running: false }));
}

/** The same with each user's running entry, if one runs: what every statistic reads first (src/time/statistics/context.ts). */
export async function settingsSchedulesAndRunningOf(
  clock: Clock,
  executor: Kysely<Database>,
  userIds: readonly number[],
): Promise<Map<number, { settings: Settings; schedules: Schedule[]; running: TimeEntryRow | undefined }>> {
  return byUser(clock, userIds, await accountRowsOf(executor, userIds, { running: true }));
}

function byUser(clock: Clock, userIds: readonly number[], rows: AccountRows) {
  const schedulesOf = schedulesByUser(rows.schedules);
  const found = new Map<number, { settings: Settings; schedules: Schedule[]; running: TimeEntryRow | undefined }>();
  for (const userId of userIds) {
    const own = rows.settings.filter((row) => row.id === userId);
    if (own.length === 0) throw new ServiceError('NOT_FOUND', 'No such account');
    const schedules = schedulesOf.get(userId) ?? [];
    const running = rows.running.find((row) => row.user_id === userId);
    found.set(userId, { settings: settingsOfRows(clock, own, schedules), schedules, running });
  }
  return found;
}

/** The settings of one user from its rows of the statement above (a row per zone) and its schedules. */
function settingsOfRows(clock: Clock, rows: SettingsRow[], schedules: Schedule[]): Settings {
  const row = rows[0]!;
  const stored: ZoneEntry[] = rows.flatMap(({ zone_from, zone }) => (zone_from !== null && zone !== null ? [{ valid_from: zone_from, timezone: zone }] : []));
  const trackingStart = row.tracking_start ?? localDateOf(Date.parse(row.created_at), stored.length > 0 ? stored : 'UTC');
  const zones = stored.length > 0 ? stored : [{ valid_from: trackingStart, timezone: 'UTC' }];
  const today = localDateOf(clock.now().getTime(), zones);
  const inForce = schedules.filter((schedule) => schedule.valid_from <= today).at(-1) ?? schedules[0];
  return {
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
}

export function createSettingsService({ database, clock, monthLock }: SettingsDeps) {
  const { db } = database;
  const rebuilds = createRebuildGate(clock, database);
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
    const current = await getSettings(userId);
    const minBreak = checked.values.min_break_minutes ?? current.min_break_minutes;
    const trackingStart = checked.values.tracking_start ?? current.tracking_start;
    const zones = checked.zone && changeZones({ ...current, tracking_start: trackingStart }, checked.zone, clock.now().getTime());
    const from = minBreak === current.min_break_minutes ? zones?.from : undefined;
    const write = (prepared?: PreparedTotals) =>
      database.transact(async (trx) => {
        await database.lockUser(trx, userId);
        return writeSettingsIn(trx, userId, checked, prepared);
      });
    if (zones === undefined && minBreak === current.min_break_minutes) return write();
    // One rebuild of the account at a time, within its budget (./rebuild-gate.ts), decided before the work.
    return rebuilds.run(userId, async () => write(await prepareDailyTotals(db, userId, zones?.zones ?? current.zones, minBreak * MINUTE_MS, from)));
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
        timer_limit_minutes: DEFAULT_TIMER_LIMIT_MINUTES,
        ...values,
        updated_at: now,
      })
      .onConflict((conflict) => conflict.column('user_id').doUpdateSet({ ...values, updated_at: now }))
      .execute();
    let after = await getSettingsInTransaction(trx, userId);
    // A new zone from a date (or, from a document, a whole history) changes the days from that date on.
    const zones = checked.zones ? { zones: checked.zones, from: undefined } : checked.zone && changeZones(after, checked.zone, clock.now().getTime());
    if (zones !== undefined) {
      await writeZones(trx, userId, zones.zones, now);
      after = await getSettingsInTransaction(trx, userId);
    }
    if (targets !== undefined) {
      // From today in the (new) zone, unless the request names the first day.
      const validFrom = targets.validFrom ?? localDateOf(clock.now().getTime(), after.zones);
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
    const changed = changedDays(before, after, {
      zones: zones && (zones.from ?? null),
      targets: targets && (targets.validFrom ?? localDateOf(clock.now().getTime(), after.zones)),
    });
    if (changed) await monthLock.assertOpen(trx, userId, ...changed);
    if (zones !== undefined || after.min_break_minutes !== before.min_break_minutes) {
      const minBreakMs = after.min_break_minutes * MINUTE_MS;
      const from = after.min_break_minutes === before.min_break_minutes ? zones?.from : undefined;
      const usable = preparedFor(prepared, after.zones, minBreakMs, from);
      await replaceDailyTotals(trx, userId, usable ? prepared : { zone: after.zones, minBreakMs, from, entries: { count: -1, digest: '' }, totals: new Map() });
    }
    return after;
  }

  return { getSettings, getSettingsInTransaction, updateSettings, writeSettingsIn };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
