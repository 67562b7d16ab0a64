// The one list of the schema's tables, typed against `Database` (src/db/types.ts): a table added
// there but not here does not compile. Parents come before the tables that refer to them (foreign
// keys), the order `db copy` writes them in; the integrity checks read every one of them.
import type { Database } from './types.js';

export type TableName = keyof Database;

/**
 * The list as given, when it names every table of `Database`; otherwise a compile error whose message
 * names the tables it lacks (`{ missing: "projects" }`).
 */
function everyTable<const Listed extends readonly TableName[]>(
  tables: Listed & ([Exclude<TableName, Listed[number]>] extends [never] ? unknown : { missing: Exclude<TableName, Listed[number]> }),
): Listed {
  return tables;
}

export const TABLES = everyTable([
  'users',
  'auth_info',
  'auth_tokens',
  'api_tokens',
  'two_factor',
  'two_factor_failures',
  'two_factor_recovery_codes',
  'login_challenges',
  'login_devices',
  'reset_tokens',
  'unknown_login_failures',
  'audit_events',
  'user_settings',
  'target_schedules',
  'zone_history',
  'time_entries',
  'absences',
  'bookings',
  'daily_totals',
  'export_leases',
  'server_processes',
  'teams',
  'team_members',
  'invitations',
  'admin_setup_links',
  'months',
  'leave_requests',
  'notices',
  'notice_checks',
]);
