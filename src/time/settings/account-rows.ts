// What every figure of an account reads first, in one statement (docs/decisions/0011-account-reads-in-one-union.md):
// the settings with the zone history, the stored schedules and, for the statistics, the running
// entry. On PostgreSQL each statement is a round trip of its own, which costs the server process more
// than the reading; three reads of a few rows each are one union of rows tagged by kind.
import { sql, type Kysely } from 'kysely';
import type { Database, Instant, LocalDate, TimeEntryRow } from '../../db/types.js';
import type { Weekday } from '../calendar/dates.js';
import { TARGET_COLUMNS, type ScheduleRow } from '../schedules.js';

type TargetColumns<T> = Record<`target_${Weekday}_minutes`, T>;

/** A row of the settings and one zone of the history (a row per zone; one row, its zone null, without a history). */
export interface SettingsRow {
  id: number;
  created_at: Instant;
  holiday_region: string | null;
  overtime_offset_minutes: number | null;
  tracking_start: LocalDate | null;
  break_rules: string | null;
  min_break_minutes: number | null;
  vacation_half_days_per_year: number | null;
  vacation_carry_over_max_half_days: number | null;
  vacation_taken_before_tracking_half_days: number | null;
  timer_limit_minutes: number | null;
  /** The user's id where a settings row is stored, else null. */
  settings_row: number | null;
  suggest_timer_limit: number | null;
  reminders_enabled: number | null;
  zone_from: LocalDate | null;
  zone: string | null;
}

export interface AccountRows {
  settings: SettingsRow[];
  /** Oldest first, by user. */
  schedules: ScheduleRow[];
  /** The entries without an end (with `running`). */
  running: TimeEntryRow[];
}

const SETTINGS = 0;
const SCHEDULE = 1;

/** The settings' and the zone's columns after created_at, in the order of the first part. */
const SETTINGS_COLUMNS = [
  'holiday_region',
  'overtime_offset_minutes',
  'tracking_start',
  'break_rules',
  'min_break_minutes',
  'vacation_half_days_per_year',
  'vacation_carry_over_max_half_days',
  'vacation_taken_before_tracking_half_days',
  'timer_limit_minutes',
  'settings_row',
  'suggest_timer_limit',
  'reminders_enabled',
  'zone_from',
  'zone',
] as const;
const ENTRY_COLUMNS = ['start_at', 'end_at', 'note', 'updated_at', 'auto_stopped'] as const;

/** A column a part does not fill (its type comes from the first part). */
const none = <A extends string>(alias: A) => sql<never>`null`.as(alias);

/**
 * The first part: the settings joined to the zone history. It types the columns the other parts
 * fill (`cast(null as …)`): PostgreSQL takes a union column's type from its first typed part, and two
 * bare nulls would make it text.
 */
function settingsPart(executor: Kysely<Database>, userIds: readonly number[]) {
  return executor
    .selectFrom('users')
    .leftJoin('user_settings', 'user_settings.user_id', 'users.id')
    .leftJoin('zone_history', 'zone_history.user_id', 'users.id')
    .select([
      sql<number>`0`.as('kind'),
      'users.id as id',
      'users.created_at as created_at',
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
      'zone_history.valid_from as zone_from',
      'zone_history.timezone as zone',
      sql<number | null>`cast(null as integer)`.as('row_id'),
      sql<LocalDate | null>`cast(null as date)`.as('valid_from'),
      ...TARGET_COLUMNS.map((column) => sql<number | null>`cast(null as integer)`.as(column)),
      sql<Instant | null>`cast(null as timestamptz)`.as('start_at'),
      sql<Instant | null>`cast(null as timestamptz)`.as('end_at'),
      sql<string | null>`cast(null as text)`.as('note'),
      sql<Instant | null>`cast(null as timestamptz)`.as('updated_at'),
      sql<number | null>`cast(null as integer)`.as('auto_stopped'),
    ])
    .where('users.id', 'in', userIds);
}

/**
 * The rows of `userIds` in one statement, by kind and user (zones and schedules oldest first). Its
 * columns are matched by position: each part lists them in the order of the first.
 */
export async function accountRowsOf(executor: Kysely<Database>, userIds: readonly number[], { running }: { running: boolean }): Promise<AccountRows> {
  const schedules = executor
    .selectFrom('target_schedules')
    .select([
      sql<number>`1`.as('kind'),
      'user_id as id',
      none('created_at'),
      ...SETTINGS_COLUMNS.map(none),
      'id as row_id',
      'valid_from',
      ...TARGET_COLUMNS,
      ...ENTRY_COLUMNS.map(none),
    ])
    .where('user_id', 'in', userIds);
  const entries = executor
    .selectFrom('time_entries')
    .select([
      sql<number>`2`.as('kind'),
      'user_id as id',
      'created_at',
      ...SETTINGS_COLUMNS.map(none),
      'id as row_id',
      none('valid_from'),
      ...TARGET_COLUMNS.map(none),
      ...ENTRY_COLUMNS,
    ])
    .where('user_id', 'in', userIds)
    .where('end_at', 'is', null);
  const union = settingsPart(executor, userIds).unionAll(schedules);
  const rows = await (running ? union.unionAll(entries) : union).orderBy('kind').orderBy('id').orderBy('zone_from').orderBy('valid_from').execute();
  const found: AccountRows = { settings: [], schedules: [], running: [] };
  for (const row of rows) {
    if (row.kind === SETTINGS) found.settings.push({ ...pick(row, SETTINGS_COLUMNS), id: row.id, created_at: row.created_at });
    else if (row.kind === SCHEDULE)
      found.schedules.push({ id: row.row_id!, user_id: row.id, valid_from: row.valid_from!, ...(pick(row, TARGET_COLUMNS) as TargetColumns<number>) });
    else
      found.running.push({
        id: row.row_id!,
        user_id: row.id,
        created_at: row.created_at,
        ...(pick(row, ENTRY_COLUMNS) as Omit<TimeEntryRow, 'id' | 'user_id' | 'created_at'>),
      });
  }
  return found;
}

function pick<R, K extends keyof R>(row: R, keys: readonly K[]): Pick<R, K> {
  const picked = {} as Pick<R, K>;
  for (const key of keys) picked[key] = row[key];
  return picked;
}
