// Per-user time-tracking settings (docs/time-model.md). A user without a stored row has the defaults;
// the first PATCH stores one. Changing the time zone from a date moves the day boundaries from that
// date on (./zone-history.ts): the new per-day totals of those days are worked out before the
// transaction and written in the one that stores the zone.
import type { Kysely, Transaction } from 'kysely';
import type { OpenedDatabase, TransactionalDatabase } from '../../db/database.js';
import type { Database } from '../../db/types.js';
import { localDateOf } from '../calendar/dates.js';
import type { Clock } from '../../common/clock.js';
import { preparedFor, prepareDailyTotals, replaceDailyTotals, type PreparedTotals } from '../entries/store.js';
import { changeZones, writeZones } from './zone-history.js';
import { createRebuildGate } from './rebuild-gate.js';
import { checkSettingsPatch, type CheckedSettingsPatch, type SettingsPatch } from './patch.js';

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
import { changedDays, type MonthLock } from '../month-lock.js';
import { DEFAULT_TIMER_LIMIT_MINUTES, storedSettingsOf, type Settings } from './stored.js';

export { DEFAULT_MIN_BREAK_MINUTES, DEFAULT_TIMER_LIMIT_MINUTES, type Settings } from './stored.js';
import { writeSchedule } from '../schedules.js';

const MINUTE_MS = 60_000;

export interface SettingsDeps {
  /** `exclusively`: one rebuild of an account's totals at a time across processes (./rebuild-gate.ts). */
  database: TransactionalDatabase & Pick<OpenedDatabase, 'exclusively'>;
  clock: Clock;
  /** Refuses settings that rewrite a day of a closed month (src/time/month-lock.ts). */
  monthLock: MonthLock;
}

/** The settings of a user as stored (defaults where nothing is), with the schedule in force on `clock`'s today. */
async function selectSettings(clock: Clock, executor: Kysely<Database>, userId: number): Promise<Settings> {
  return (await storedSettingsOf(clock, executor, [userId])).get(userId)!.settings;
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
