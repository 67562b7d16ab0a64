// Table types of the current schema. Migrations never import these: they are frozen in time.
import type { ColumnType, Generated, Selectable } from 'kysely';
import type { DailyTotalsTable, ExportLeasesTable, Instant, LocalDate, ServerProcessesTable } from './types-operations.js';
export type { DailyTotalsTable, ExportLeasesTable, Instant, LocalDate, ServerProcessesTable } from './types-operations.js';
import type * as Teams from './types-teams.js';
export type * from './types-teams.js';

export interface UsersTable {
  id: Generated<number>;
  /** Trimmed and lower-cased. */
  email: string;
  full_name: string;
  /** Unique without regard to ASCII case (COLLATE NOCASE). */
  username: string | null;
  created_at: Instant;
  /** docs/teams.md; `member` unless set. */
  role: Generated<Teams.UserRole>;
}

export type AccountStatus = 'active' | 'disabled';

export interface AuthInfoTable {
  user_id: number;
  /** argon2id PHC string. */
  password_hash: string;
  failed_attempts: number;
  locked_until: Instant | null;
  status: AccountStatus;
  updated_at: Instant;
}

export interface AuthTokensTable {
  id: Generated<number>;
  user_id: number;
  /** Hex SHA-256 of the whole JWT. */
  token_hash: string;
  created_at: Instant;
  expires_at: Instant;
  /** The client's address and User-Agent at sign-in (null for sessions older than these columns). */
  client_address: string | null;
  user_agent: string | null;
  /** Which configured secret signed the token: the first 8 bytes of its SHA-256, hex. */
  key_id: string | null;
  /** Last use, to 5 minutes (src/auth/sessions/activity.ts); null: not written since sign-in. */
  last_seen_at: ColumnType<Instant | null, Instant | null | undefined, Instant | null>;
  /** Wrong passwords this session sent where a session must give the password again (the third revokes it). */
  password_guesses: Generated<number>;
}

/** Named tokens for scripts; the token is `ttpat_` and 43 base64url characters, stored only as its SHA-256. */
export interface ApiTokensTable {
  id: Generated<number>;
  user_id: number;
  name: string;
  /** Hex SHA-256 of the whole token. */
  token_hash: string;
  created_at: Instant;
  expires_at: Instant;
  /** Last use, to 5 minutes (src/auth/sessions/activity.ts). */
  last_used_at: ColumnType<Instant | null, Instant | null | undefined, Instant | null>;
}

/** A TOTP secret (encrypted: src/auth/secret-box.ts) per account; enabled once confirmed with a code. */
export interface TwoFactorTable {
  user_id: number;
  /** `v1.` and base64url of IV, ciphertext and tag (AES-256-GCM, the account id as associated data). */
  secret_ciphertext: string;
  enabled_at: Instant | null;
  /** The 30-second step of the last code accepted: a code of that step or an earlier one is refused. */
  last_used_step: number | null;
  created_at: Instant;
  updated_at: Instant;
}

/** Wrong two-factor codes of an account, counted apart from wrong passwords (src/auth/two-factor/code-lockout.ts). */
export interface TwoFactorFailuresTable {
  user_id: number;
  /** Wrong codes in a row; at the cap only a recovery code (or `user 2fa-reset`) signs in. */
  consecutive: number;
  /** Wrong codes since the last lock. */
  since_lock: number;
  /** Locks so far in this run: each lasts twice as long as the one before. */
  locks: number;
  locked_until: Instant | null;
  updated_at: Instant;
}

export interface TwoFactorRecoveryCodesTable {
  id: Generated<number>;
  user_id: number;
  /** SHA-256 of the normalised code (80 random bits), hex. */
  code_hash: string;
  created_at: Instant;
  used_at: Instant | null;
}

export type ChallengePurpose = 'sign_in' | 'setup';

/** The step between a right password and the second factor (or, with REQUIRE_2FA, its set-up). */
export interface LoginChallengesTable {
  id: Generated<number>;
  user_id: number;
  /** Hex SHA-256 of the challenge. */
  token_hash: string;
  purpose: ChallengePurpose;
  password_fingerprint: string;
  created_at: Instant;
  expires_at: Instant;
  used_at: Instant | null;
}

/** Where an account signed in from lately: a keyed hash of "device name | network" (src/auth/sessions/new-device.ts). */
export interface LoginDevicesTable {
  user_id: number;
  key_hash: string;
  first_seen_at: Instant;
  last_seen_at: Instant;
}

export interface AuditEventsTable {
  id: Generated<number>;
  at: Instant;
  /** Who did it: `os:<login>` for an admin command, `user:<id>` for the account itself, `server`. */
  actor: string;
  action: string;
  user_id: number | null;
  user_email: string | null;
  /** JSON object: what changed. */
  detail: Generated<string>;
}

export interface ResetTokensTable {
  id: Generated<number>;
  user_id: number;
  /** Hex SHA-256 of the reset token. */
  token_hash: string;
  created_at: Instant;
  expires_at: Instant;
  used_at: Instant | null;
  /** `request` (POST /api/auth/request-reset) or `admin` (`timetrack reset issue`). */
  issued_by: ColumnType<ResetTokenIssuer, ResetTokenIssuer | undefined, never>;
}

export type ResetTokenIssuer = 'request' | 'admin';

/** Failed logins against identifiers that match no account, so that lockout does not reveal which exist. */
export interface UnknownLoginFailuresTable {
  identifier: string;
  failed_attempts: number;
  locked_until: Instant | null;
  updated_at: Instant;
}

export interface UserSettingsTable {
  user_id: number;
  /** The zone before zone histories (the migration 20261126170500_zone_history): no longer read, kept as it was. */
  timezone: Generated<string>;
  /** "DE" or "DE-BY": a country, or a country and a region, of date-holidays. */
  holiday_region: string | null;
  overtime_offset_minutes: Generated<number>;
  /** Null: the day the account was made, in the user's time zone. */
  tracking_start: LocalDate | null;
  /** JSON array of {worked_over_minutes, break_minutes}, by threshold. */
  break_rules: Generated<string>;
  min_break_minutes: Generated<number>;
  /** The vacation allowance in half days (null: not tracked). */
  vacation_half_days_per_year: number | null;
  /** The most vacation carried into a year, in half days (null: no limit). */
  vacation_carry_over_max_half_days: number | null;
  vacation_taken_before_tracking_half_days: number | null;
  /** A running entry is stopped at its start plus this many minutes (null: never). */
  timer_limit_minutes: number | null;
  /** 1: Today offers once to turn the timer limit on (accounts made before it was on by default). */
  suggest_timer_limit: Generated<number>;
  /** 1: the missing-day reminder is on (docs/notices.md). */
  reminders_enabled: Generated<number>;
  /** Targets before schedules (migration 009): no longer read, kept as they were. */
  target_mon_minutes: Generated<number>;
  target_tue_minutes: Generated<number>;
  target_wed_minutes: Generated<number>;
  target_thu_minutes: Generated<number>;
  target_fri_minutes: Generated<number>;
  target_sat_minutes: Generated<number>;
  target_sun_minutes: Generated<number>;
  updated_at: Instant;
}

export interface TimeEntriesTable {
  id: Generated<number>;
  user_id: number;
  start_at: Instant;
  /** Null while running. */
  end_at: Instant | null;
  note: string;
  created_at: Instant;
  updated_at: Instant;
  /** 1: the server stopped it at its timer limit, and its end has not been set since. */
  auto_stopped: Generated<number>;
}

/** Weekly targets valid from a date on (docs/time-model.md, Target schedules). */
export interface TargetSchedulesTable {
  id: Generated<number>;
  user_id: number;
  valid_from: LocalDate;
  target_mon_minutes: number;
  target_tue_minutes: number;
  target_wed_minutes: number;
  target_thu_minutes: number;
  target_fri_minutes: number;
  target_sat_minutes: number;
  target_sun_minutes: number;
  created_at: Instant;
}

/** A time zone in force from a date on (docs/time-model.md, Time zone history). */
export interface ZoneHistoryTable {
  user_id: number;
  valid_from: LocalDate;
  /** IANA zone name. */
  timezone: string;
  created_at: Instant;
}

export type AbsenceType = 'vacation' | 'sick' | 'holiday';

export type AbsencePortion = 'full' | 'half';

export interface AbsencesTable {
  id: Generated<number>;
  user_id: number;
  date: LocalDate;
  type: AbsenceType;
  /** `half`: the day's target is halved (rounded down to a minute). */
  portion: Generated<AbsencePortion>;
  note: string;
  /**
   * The booking this day belongs to: the id of the first absence of one POST (a day, a half day or a
   * range); a later leave request groups its days the same way.
   */
  request_id: Generated<number>;
  /** `requested`: waits for a lead's approval, holds its day but counts in no figure (docs/teams.md, "Leave requests"). */
  state: Generated<AbsenceState>;
  created_at: Instant;
}

export type AbsenceState = 'requested' | 'approved';

export type BookingKind = 'payout' | 'correction';

/** A booking on the balance, counted on its date (docs/time-model.md, Bookings). */
export interface BookingsTable {
  id: Generated<number>;
  user_id: number;
  date: LocalDate;
  /** Signed, never 0; a payout is negative. */
  minutes: number;
  kind: BookingKind;
  note: string;
  created_at: Instant;
}

export interface Database {
  users: UsersTable;
  auth_info: AuthInfoTable;
  auth_tokens: AuthTokensTable;
  api_tokens: ApiTokensTable;
  two_factor: TwoFactorTable;
  two_factor_failures: TwoFactorFailuresTable;
  two_factor_recovery_codes: TwoFactorRecoveryCodesTable;
  login_challenges: LoginChallengesTable;
  login_devices: LoginDevicesTable;
  audit_events: AuditEventsTable;
  reset_tokens: ResetTokensTable;
  unknown_login_failures: UnknownLoginFailuresTable;
  user_settings: UserSettingsTable;
  time_entries: TimeEntriesTable;
  absences: AbsencesTable;
  daily_totals: DailyTotalsTable;
  export_leases: ExportLeasesTable;
  target_schedules: TargetSchedulesTable;
  zone_history: ZoneHistoryTable;
  bookings: BookingsTable;
  server_processes: ServerProcessesTable;
  teams: Teams.TeamsTable;
  team_members: Teams.TeamMembersTable;
  invitations: Teams.InvitationsTable;
  admin_setup_links: Teams.AdminSetupLinksTable;
  leave_requests: Teams.LeaveRequestsTable;
  months: Teams.MonthsTable;
  notices: Teams.NoticesTable;
  notice_checks: Teams.NoticeChecksTable;
}

export type TimeEntryRow = Selectable<TimeEntriesTable>;
export type AbsenceRow = Selectable<AbsencesTable>;
