// The routes the browser client calls, each with what it sends (path params, query, body) and what it
// gets back, keyed by "METHOD /path" as the server registers it. Types only, from the TypeBox schemas of
// the routes (`Static<typeof Schema>`): the client imports this file with `import type` (src/web/api.ts),
// so nothing of the server enters the bundle. Like contract.ts, it reaches only typebox and schema modules.
//
// The answers are the routes' response schemas. Request bodies and queries are written inline in the
// route files (not exported from a schemas.ts), so they are spelled out here in the same shape, from the
// schema types where there is one, each noting the route file that holds its schema;
// test/web/route-table.test.ts holds their fields against the server's OpenAPI document.
import type { Static } from 'typebox';
import type { MessageSchema } from './schemas.js';
import type {
  Absence,
  ApiToken,
  Booking,
  Entry,
  HolidayRegions,
  LeaveRequest,
  MonthStats,
  NewApiToken,
  OvertimeStats,
  RecoveryCodes,
  Schedule,
  Settings,
  TodayStats,
  TwoFactorSetup,
  TwoFactorStatus,
  User,
  VacationStats,
  WeekStats,
  Weekday,
} from './contract.js';
import type {
  EnableWithChallengeResponse,
  LoginResponse,
  MeResponse,
  RevokedResponse,
  SessionListResponse,
  TwoFactorRequiredResponse,
  TwoFactorSetupRequiredResponse,
} from './auth/schemas.js';
import type { Anonymous } from './stats/schemas.js';
import type { CalendarResponse, OverviewResponse, TeamDetailResponse, TeamListResponse, TeamResponse } from './teams/schemas.js';
import type { AuditQuery, AuditResponse } from './audit/schemas.js';
import type { NoticesResponse } from './notices/routes.js';
import type { RequestListQuery } from './requests/schemas.js';
import type { AccountStateResponse, ResetLinkResponse, UserListQuery, UserListResponse, UserPatchBody, UserResponse } from './users/schemas.js';
import type { IdParams, RangeQuery } from './time-entries/schemas.js';

type Message = Static<typeof MessageSchema>;
/** A statistics answer to a request without a valid token (docs/api.md): the client never shows one. */
export type AnonymousStats = Static<typeof Anonymous>;
type Id = Static<typeof IdParams>;
type Range = Static<typeof RangeQuery>;
/** 204 No Content: no body. */
type NoContent = void;
type Login = Static<typeof LoginResponse>;

// Request bodies written inline in the route files.
/** auth/registration-routes.ts, POST /register. */
type RegisterBody = { email: string; password: string; full_name: string; username?: string | null; timezone?: string; setup_token?: string };
/** time-entries/routes.ts: NewEntryBody and EntryPatchBody. */
type NewEntryBody = { start_at: string; end_at?: string | null; note?: string };
type EntryPatchBody = Partial<NewEntryBody> & { expected_updated_at?: string };
/** time-entries/routes.ts: NewAbsenceBody (one day with `date`, or a range with `from` and `to`). */
type NewAbsenceBody = { date?: string; from?: string; to?: string; type: Absence['type']; portion?: Absence['portion']; note?: string };
/** time-entries/routes.ts: NewBookingBody. */
type NewBookingBody = { date: string; minutes: number; kind: Booking['kind']; note?: string };
/** settings/routes.ts: SettingsPatchBody. */
type SettingsPatchBody = Partial<Omit<Settings, 'weekly_target_minutes' | 'tracking_start' | 'break_rules' | 'zones'>> & {
  timezone_valid_from?: string;
  weekly_target_minutes?: Partial<Record<Weekday, number>>;
  tracking_start?: string | null;
  break_rules?: Array<{ worked_over_minutes: number; break_minutes: number }>;
};
/** The password and a current code (auth/two-factor-routes.ts, confirmedSchema). */
type PasswordAndCode = { password: string; code: string };

export interface Routes {
  'POST /api/auth/register': { body: RegisterBody; response: { user: User } };
  'GET /api/auth/registration': { response: { registration: 'open' | 'closed' } };
  'GET /api/auth/setup-link': { query: { token: string }; response: { valid: true } };
  'POST /api/auth/login': {
    body: { email: string; password: string };
    response: Login | Static<typeof TwoFactorRequiredResponse> | Static<typeof TwoFactorSetupRequiredResponse>;
  };
  'POST /api/auth/login/2fa': { body: { challenge: string; code: string }; response: Login };
  'POST /api/auth/logout': { response: Message };
  'GET /api/auth/me': { response: Static<typeof MeResponse> };
  'POST /api/auth/request-reset': {
    body: { email: string };
    response: { message: string; delivery: 'mail' | 'terminal' | 'none'; reset_token?: string; reset_url?: string };
  };
  'POST /api/auth/reset-password': { body: { token: string; new_password: string }; response: Message };
  /** invitations/schemas.ts PreviewResponse (spelled out: that module reaches the server's field rules). */
  'POST /api/invitations/preview': { body: { token: string }; response: { email: string; full_name: string; team_name: string; role: 'lead' | 'member' } };
  'POST /api/invitations/accept': {
    body: { token: string; password: string; full_name: string; timezone?: string };
    response: Login | Static<typeof TwoFactorRequiredResponse> | Static<typeof TwoFactorSetupRequiredResponse>;
  };
  'POST /api/auth/change-password': { body: { old_password: string; new_password: string; revoke_api_tokens?: boolean }; response: Message };
  'DELETE /api/auth/account': { body: { password: string; code?: string }; response: NoContent };

  'GET /api/auth/sessions': { response: Static<typeof SessionListResponse> };
  'DELETE /api/auth/sessions/:id': { params: Id; response: NoContent };
  'POST /api/auth/sessions/revoke-others': { body: { revoke_api_tokens?: boolean }; response: Static<typeof RevokedResponse> };

  'GET /api/auth/api-tokens': { response: { api_tokens: ApiToken[] } };
  'POST /api/auth/api-tokens': { body: { name: string; expires_in_days: number; password: string; code?: string }; response: NewApiToken };
  'DELETE /api/auth/api-tokens/:id': { params: Id; response: NoContent };

  'GET /api/auth/2fa': { response: TwoFactorStatus };
  /** With a session: the password; without one (REQUIRE_2FA): the challenge of login. */
  'POST /api/auth/2fa/setup': { body: { password?: string; challenge?: string }; response: TwoFactorSetup };
  /** With the challenge (no session) the answer also signs in. */
  'POST /api/auth/2fa/enable': { body: { code: string; challenge?: string }; response: Static<typeof EnableWithChallengeResponse> | RecoveryCodes };
  'POST /api/auth/2fa/disable': { body: PasswordAndCode; response: Message };
  'POST /api/auth/2fa/recovery-codes': { body: PasswordAndCode; response: RecoveryCodes };

  'GET /api/settings': { response: Settings };
  'PATCH /api/settings': { body: SettingsPatchBody; response: Settings };
  'GET /api/settings/holiday-regions': { query: { lang?: 'en' | 'de' }; response: HolidayRegions };
  'GET /api/settings/schedules': { response: { schedules: Schedule[] } };
  'DELETE /api/settings/schedules/:id': { params: Id; response: NoContent };

  'GET /api/time-entries': { query: Range; response: { entries: Entry[] } };
  'POST /api/time-entries': { body: NewEntryBody; response: { entry: Entry } };
  'POST /api/time-entries/start': { body: { note?: string } | null; response: { entry: Entry } };
  'POST /api/time-entries/stop': { response: { entry: Entry } };
  'GET /api/time-entries/current': { response: { entry: Entry | null } };
  'PATCH /api/time-entries/:id': { params: Id; body: EntryPatchBody; response: { entry: Entry } };
  'DELETE /api/time-entries/:id': { params: Id; query: { expected_updated_at?: string }; response: NoContent };
  'GET /api/time-entries/absences': { query: Range; response: { absences: Absence[] } };
  /** One day answers `absence`, a range `absences`. */
  'POST /api/time-entries/absences': {
    body: NewAbsenceBody;
    response: ({ absence: Absence } | { absences: Absence[] }) & { exceeds_allowance?: true };
  };
  'DELETE /api/time-entries/absences/:id': { params: Id; response: NoContent };
  /** Every day of one booking (`request_id`); answers the days removed. */
  'DELETE /api/time-entries/absences/requests/:id': { params: Id; response: { absences: Absence[] } };
  /** One's own leave request (docs/teams.md, "Leave requests"): withdrawn while it waits, or its cancellation asked for once approved. */
  'POST /api/requests/:id/withdraw': { params: Id; response: { request: LeaveRequest } };
  'POST /api/requests/:id/cancel': { params: Id; response: { request: LeaveRequest } };
  'GET /api/time-entries/bookings': { query: { from?: string; to?: string }; response: { bookings: Booking[] } };
  'POST /api/time-entries/bookings': { body: NewBookingBody; response: { booking: Booking } };
  'DELETE /api/time-entries/bookings/:id': { params: Id; response: NoContent };

  'GET /api/stats/today': { response: TodayStats | AnonymousStats };
  'GET /api/stats/week': { query: { date?: string; region?: string; lang?: 'en' | 'de' }; response: WeekStats };
  'GET /api/stats/overtime': { response: OvertimeStats | AnonymousStats };
  'GET /api/stats/vacation': { query: { year?: number; from?: string; to?: string; portion?: 'full' | 'half' }; response: VacationStats | AnonymousStats };
  'GET /api/stats/month': { query: MonthQuery; response: MonthStats | AnonymousStats };
  // Closed months (months/routes.ts; docs/teams.md): the own months of a year, and submitting one.
  'GET /api/months': { query: { year: number }; response: { year: number; months: MonthStatus[] } };
  'POST /api/months/:month/submit': { params: { month: string }; response: { month: MonthStatus } };
  // What waits for a lead's or an admin's decision (docs/teams.md): leave requests and submitted months; a person's month and the decisions.
  'GET /api/requests': { query: Static<typeof RequestListQuery>; response: { requests: LeaveRequest[] } };
  'POST /api/requests/:id/approve': { params: Id; body: { note?: string }; response: { request: LeaveRequest } };
  'POST /api/requests/:id/reject': { params: Id; body: { note?: string }; response: { request: LeaveRequest } };
  'GET /api/months/waiting': { response: { months: Array<MonthStatus & { user: User }> } };
  'GET /api/users/:id/months/:month': { params: PersonMonth; response: { month: MonthStatus } };
  'POST /api/users/:id/months/:month/approve': { params: PersonMonth; body: { comment?: string }; response: { month: MonthStatus } };
  'POST /api/users/:id/months/:month/return': { params: PersonMonth; body: { comment: string }; response: { month: MonthStatus } };
  'POST /api/users/:id/months/:month/reopen': { params: PersonMonth; body: { reason: string }; response: { month: MonthStatus } };

  // The lead's view (docs/teams.md): a team's week, and another account's figures.
  'GET /api/teams': { query: { members?: boolean }; response: Static<typeof TeamListResponse> };
  'GET /api/teams/:id/overview': { params: Id; query: { week?: string }; response: Static<typeof OverviewResponse> };
  'GET /api/teams/:id/calendar': { params: Id; query: { month?: string; lang?: 'en' | 'de' }; response: Static<typeof CalendarResponse> };
  'GET /api/users/:id/stats/week': { params: Id; query: { date?: string; region?: string; lang?: 'en' | 'de' }; response: WeekStats };
  'GET /api/users/:id/stats/month': { params: Id; query: MonthQuery; response: MonthStats };
  // Administration (users/routes.ts, users/action-routes.ts, audit/routes.ts): admins with a session only.
  'GET /api/users': { query: Static<typeof UserListQuery>; response: Static<typeof UserListResponse> };
  'PATCH /api/users/:id': { params: Id; body: Static<typeof UserPatchBody>; response: Static<typeof UserResponse> };
  'POST /api/users/:id/disable': { params: Id; response: AccountState };
  'POST /api/users/:id/enable': { params: Id; response: AccountState };
  'POST /api/users/:id/unlock': { params: Id; response: AccountState };
  'POST /api/users/:id/two-factor-reset': { params: Id; response: AccountState };
  'POST /api/users/:id/reset-link': { params: Id; response: Static<typeof ResetLinkResponse> };
  'GET /api/audit': { query: Static<typeof AuditQuery>; response: Static<typeof AuditResponse> };
  // Teams and invitations (teams/routes.ts, invitations/routes.ts): changes are administration, a session only.
  'POST /api/teams': { body: { name: string }; response: Static<typeof TeamResponse> };
  'GET /api/teams/:id': { params: Id; response: Static<typeof TeamDetailResponse> };
  'PATCH /api/teams/:id': {
    params: Id;
    body: { name?: string; absence_approval?: 'required' | 'none'; auto_lock_after_days?: number | null };
    response: Static<typeof TeamResponse>;
  };
  'DELETE /api/teams/:id': { params: Id; response: NoContent };
  'PUT /api/teams/:id/members/:userId': { params: MemberIds; body: { role: TeamRole }; response: Static<typeof TeamDetailResponse> };
  'DELETE /api/teams/:id/members/:userId': { params: MemberIds; response: NoContent };
  'GET /api/invitations': { response: { invitations: Invitation[] } };
  'POST /api/invitations': { body: InvitationBody; response: IssuedInvitation };
  'POST /api/invitations/:id/resend': { params: Id; body: { language?: 'en' | 'de' } | null; response: IssuedInvitation };
  'DELETE /api/invitations/:id': { params: Id; response: NoContent };
  // The bell (notices/routes.ts): own notices.
  'GET /api/notices': { response: Static<typeof NoticesResponse> };
  'POST /api/notices/:id/read': { params: Id; response: NoContent };
  'POST /api/notices/read-all': { response: { read: number } };
}

type TeamRole = 'lead' | 'member';
type MemberIds = { id: number; userId: number };
/** invitations/schemas.ts InvitationSchema, InvitationBody and IssuedInvitationResponse (spelled out: that module reaches the server's field rules). */
type Invitation = {
  id: number;
  email: string;
  full_name: string;
  team_id: number;
  team_name: string;
  role: TeamRole;
  invited_by: string;
  created_at: string;
  expires_at: string;
};
type InvitationBody = { email: string; full_name: string; team_id: number; role: TeamRole; language?: 'en' | 'de' };
type IssuedInvitation = {
  invitation: { id: number; email: string; team_name: string; role: TeamRole; expires_at: string };
  delivery: 'mail' | 'terminal' | 'none';
  invite_url?: string;
};

type AccountState = Static<typeof AccountStateResponse>;

type PersonMonth = { id: number; month: string };
type MonthQuery = { month?: string; lang?: 'en' | 'de' };
/** months/schemas.ts MonthStatusSchema (spelled out: that module reaches the server's field rules). */
type MonthStatus = {
  month: string;
  state: 'open' | 'submitted' | 'returned' | 'approved' | 'locked';
  submitted_at: string | null;
  submitted_by: number | null;
  decided_at: string | null;
  decided_by: number | null;
  comment: string | null;
  digest: string | null;
};

/** The routes that answer a file (CSV, PDF, the account document), with their query. */
export interface DownloadRoutes {
  'GET /api/time-entries/export': { query: Range };
  'GET /api/settings/export': Record<never, never>;
  'GET /api/stats/month.csv': { query: MonthQuery };
  'GET /api/stats/month.pdf': { query: MonthQuery };
  'GET /api/users/:id/stats/month.pdf': { params: Id; query: MonthQuery };
}
