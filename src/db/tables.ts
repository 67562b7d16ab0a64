// The one list of the schema's tables, typed against `Database` (src/db/types.ts): a table added
// there but not here does not compile. Parents come before the tables that refer to them (foreign
// keys), the order `db copy` writes them in; the integrity checks read every one of them.
import type { Database } from './types.js';

export type TableName = keyof Database;

export const TABLES = [
  'users',
  'auth_info',
  'auth_tokens',
  'api_tokens',
  'two_factor',
  'two_factor_recovery_codes',
  'login_challenges',
  'login_devices',
  'reset_tokens',
  'unknown_login_failures',
  'audit_events',
  'user_settings',
  'target_schedules',
  'time_entries',
  'absences',
  'bookings',
  'daily_totals',
  'export_leases',
] as const satisfies readonly TableName[];

/** Fails to compile, naming the table, when `Database` has a table that TABLES lacks. */
type EveryTableListed<Missing extends never> = Missing;
export type UnlistedTables = EveryTableListed<Exclude<TableName, (typeof TABLES)[number]>>;
