// The list of migrations, by name. Kysely applies them in name order; add a new file here and
// never edit one that has shipped. A new one is named by the UTC time it was written,
// YYYYMMDDHHMMSS_name (docs/database.md); the shipped ones keep their numbered names.
import type { Migration } from 'kysely';
import * as accountsAndSessions from './001_accounts_and_sessions.js';
import * as timeTracking from './002_time_tracking.js';
import * as dailyTotalsCoveringIndex from './003_daily_totals_covering_index.js';
import * as dailyTotalsByFirstInstantOfDay from './004_daily_totals_by_first_instant_of_day.js';
import * as failedLoginIdentifiersHashed from './005_failed_login_identifiers_hashed.js';
import * as auditAndSessionDetails from './006_audit_and_session_details.js';
import * as resetTokenOrigin from './007_reset_token_origin.js';
import * as usernameLookupByLower from './008_username_lookup_by_lower.js';
import * as targetSchedules from './009_target_schedules.js';
import * as absencePortion from './009b_absence_portion.js';
import * as bookings from './009c_bookings.js';
import * as breakRules from './009d_break_rules.js';
import * as vacationAllowance from './009e_vacation_allowance.js';
import * as forgottenTimer from './009f_forgotten_timer.js';
import * as sessionActivity from './010_session_activity.js';
import * as apiTokens from './010b_api_tokens.js';
import * as twoFactor from './010c_two_factor.js';
import * as loginDevices from './010d_login_devices.js';
import * as exportLeases from './011_export_leases.js';
import * as absenceRequests from './20261126170000_absence_requests.js';
import * as runningEntryFromStart from './20261126170100_running_entry_from_start.js';
import * as timerLimitDefault from './20261126170200_timer_limit_default.js';
import * as vacationTakenBeforeTracking from './20261126170300_vacation_taken_before_tracking.js';
import * as zoneHistory from './20261126170500_zone_history.js';
import * as splitShiftBreaks from './20261126173500_split_shift_breaks.js';
import * as secondFactorFailures from './20261126230000_second_factor_failures.js';
import * as serverProcesses from './20261126233000_server_processes.js';
import * as userRoles from './20261127022500_user_roles.js';
import * as teams from './20261127024000_teams.js';
import * as invitations from './20261127030000_invitations.js';
import * as adminSetupLinks from './20261127053000_admin_setup_links.js';
import * as teamNameKey from './20261127054500_team_name_key.js';
import * as months from './20261127090000_months.js';
import * as leaveRequests from './20261127090500_leave_requests.js';
import * as notices from './20261127091000_notices.js';

export const migrations: Record<string, Migration> = {
  '001_accounts_and_sessions': accountsAndSessions,
  '002_time_tracking': timeTracking,
  '003_daily_totals_covering_index': dailyTotalsCoveringIndex,
  '004_daily_totals_by_first_instant_of_day': dailyTotalsByFirstInstantOfDay,
  '005_failed_login_identifiers_hashed': failedLoginIdentifiersHashed,
  '006_audit_and_session_details': auditAndSessionDetails,
  '007_reset_token_origin': resetTokenOrigin,
  '008_username_lookup_by_lower': usernameLookupByLower,
  '009_target_schedules': targetSchedules,
  '009b_absence_portion': absencePortion,
  '009c_bookings': bookings,
  '009d_break_rules': breakRules,
  '009e_vacation_allowance': vacationAllowance,
  '009f_forgotten_timer': forgottenTimer,
  '010_session_activity': sessionActivity,
  '010b_api_tokens': apiTokens,
  '010c_two_factor': twoFactor,
  '010d_login_devices': loginDevices,
  '011_export_leases': exportLeases,
  '20261126170000_absence_requests': absenceRequests,
  '20261126170100_running_entry_from_start': runningEntryFromStart,
  '20261126170200_timer_limit_default': timerLimitDefault,
  '20261126170300_vacation_taken_before_tracking': vacationTakenBeforeTracking,
  '20261126170500_zone_history': zoneHistory,
  '20261126173500_split_shift_breaks': splitShiftBreaks,
  '20261126230000_second_factor_failures': secondFactorFailures,
  '20261126233000_server_processes': serverProcesses,
  '20261127022500_user_roles': userRoles,
  '20261127024000_teams': teams,
  '20261127030000_invitations': invitations,
  '20261127053000_admin_setup_links': adminSetupLinks,
  '20261127054500_team_name_key': teamNameKey,
  '20261127090000_months': months,
  '20261127090500_leave_requests': leaveRequests,
  '20261127091000_notices': notices,
};
