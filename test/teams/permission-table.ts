// The permission table: every route of the OpenAPI document with its rule (docs/teams.md, "Who may do
// what"; docs/api.md). permissions-every-route.process.test.ts fails for a route of the document without a row
// here, and for a row whose route is gone. A new route: add one line with its rule (and, where it needs
// them, its ids, body and fresh target); docs/testing.md, "The permission test".
import { PASSWORD } from '../support/app.js';
import { queryRows } from '../support/database.js';
import { totpCode } from '../support/totp.js';
import {
  day,
  freshAccount,
  freshInvitation,
  freshMemberOfA,
  freshOwn,
  freshResetToken,
  freshSession,
  freshTeam,
  must,
  pastHour,
  type Account,
  type World,
} from './permission-world.js';

/** Who tries: M, L, O, X with a session; m, l, o, x with their API tokens; '-' no credentials; 'M>' and 'm>' M on the others. */
export const ACTORS = ['M', 'L', 'O', 'X', 'm', 'l', 'o', 'x', '-', 'M>', 'm>'] as const;

// What each actor gets, a rule a line: 'ok' the row's answer (200 unless the row says), 404 NOT_FOUND
// (or the row's code), 403 FORBIDDEN, 'tok' 403 FORBIDDEN_FOR_API_TOKEN, 401 UNAUTHORIZED, '.' not
// tried. The target is M (a person), team A or M's own object. 'M>' and 'm>' are M on what is not its
// own: a person's row is tried on N (O's member) and on L (M's own lead), a team's on team B.
// prettier-ignore
export const RULES = {
  //                       M    L    O    X    m    l    o    x    -    M>   m>
  /** Anyone, signed in or not, gets the same answer. */
  open:            /**/  ' ok   ok   ok   ok   ok   ok   ok   ok   ok   .    .  ',
  /** The caller's own figures; without a token the anonymous answer (docs/api.md, "optional"). */
  optional:        /**/  ' ok   ok   ok   ok   ok   ok   ok   ok   ok   .    .  ',
  /** Acts on the caller's own account only: every signed-in actor gets its own answer. */
  own:             /**/  ' ok   ok   ok   ok   ok   ok   ok   ok   401  .    .  ',
  /** Account management: its own, with a session only. */
  'own-session':   /**/  ' ok   ok   ok   ok   tok  tok  tok  tok  401  .    .  ',
  /** One of M's own objects (entry, absence, booking, schedule): nobody else finds it, not even an admin. */
  owner:           /**/  ' ok   404  404  404  ok   404  404  404  401  .    .  ',
  admin:           /**/  ' 403  403  403  ok   tok  tok  tok  tok  401  .    .  ',
  /** users.read: itself, a lead its people, an admin everyone; administration, so never a token. */
  'person-read':   /**/  ' ok   ok   404  ok   tok  tok  tok  tok  401  404  tok',
  /** stats.read: the same reach, and a token reads what its account may. */
  'person-stats':  /**/  ' ok   ok   404  ok   ok   ok   404  ok   401  404  404',
  /**
   * months.decide, bookings.correct, requests.decide: a lead of the person's team or an admin; the person itself 403;
   * administration, so a session only (docs/teams.md, "Closed months", "Leave requests").
   */
  'person-decide': /**/  ' 403  ok   404  ok   tok  tok  tok  tok  401  404  tok',
  /** What waits for a lead's or an admin's decision (GET /api/months/waiting): a member's role 403; reading, so a token too. */
  'lead-list':     /**/  ' 403  ok   ok   ok   403  ok   ok   ok   401  .    .  ',
  /** users.role, users.manage: an admin's; 403 within the reach, 404 outside. */
  'person-admin':  /**/  ' 403  403  404  ok   tok  tok  tok  tok  401  404  tok',
  'team-read':     /**/  ' ok   ok   404  ok   ok   ok   404  ok   401  404  404',
  'team-overview': /**/  ' 403  ok   404  ok   403  ok   404  ok   401  404  404',
  /** teams.manage: rename, delete. */
  'team-admin':    /**/  ' 403  403  404  ok   tok  tok  tok  tok  401  404  tok',
  /** teams.members (and invitations): a lead of the team gives and takes its members. */
  'team-members':  /**/  ' 403  ok   404  ok   tok  tok  tok  tok  401  404  tok',
} as const;
export type RuleName = keyof typeof RULES;

/** One try of a row: who, with which credential, on which target, and whether the row's answer is expected. */
export interface Attempt {
  /** The actor, and for M on another the other: `M>N`. */
  who: string;
  /** The account whose session or token is sent (none for '-'). */
  account: Account | undefined;
  /** M on another: the person N or L (a team's row: team B, an invitation into B); undefined: the target is M or team A. */
  other: 'N' | 'L' | undefined;
  succeeds: boolean;
}

type Ids = Record<string, number | string>;

export interface Row {
  route: string;
  rule: RuleName;
  /** The status of an allowed attempt (200), and its error code where that answer is one. */
  answer?: number;
  answerCode?: string;
  /** The code of a 404 (NOT_FOUND). */
  notFound?: string;
  /** The path's ids; a fresh target for an attempt that succeeds where success changes or ends it. */
  ids?: (world: World, attempt: Attempt) => Ids | Promise<Ids>;
  query?: string;
  body?: (world: World, attempt: Attempt) => unknown;
  /** A fresh session of the account for an attempt that succeeds (the action ends it). */
  freshSession?: boolean;
  /** Before and after an attempt that succeeds (a running timer to stop; what a later row needs). */
  before?: (world: World, attempt: Attempt) => Promise<void>;
  after?: (world: World, attempt: Attempt, body: any) => void | Promise<void>;
  /** The answer is the caller's own. */
  mine?: (body: any, account: Account) => boolean;
  /** Attempts at once (default: all of a wave): 1 for one account's running timer, a few for what a process takes a few at a time. */
  atOnce?: number;
}

const person = (w: World, a: Attempt) => ({ id: w[a.other ?? 'M'].id });
const personOrFresh = async (w: World, a: Attempt) => (a.succeeds ? { id: await freshAccount(w) } : person(w, a));
const team = (w: World, a: Attempt) => ({ id: a.other ? w.teams.B : w.teams.A });
const teamOrFresh = async (w: World, a: Attempt) => (a.succeeds ? { id: await freshTeam(w) } : team(w, a));
/** One of M's own objects: a fresh one for an attempt that deletes it. */
const owned = (kind: keyof World['own']) => async (w: World, a: Attempt) => ({ id: a.succeeds ? await freshOwn[kind](w) : w.own[kind] });
const keep = (w: World, a: Attempt, what: string, value?: unknown) =>
  value === undefined ? w.kept.get(`${a.account?.id}:${what}`) : w.kept.set(`${a.account?.id}:${what}`, value);
const password = (a: Attempt) => a.account?.password ?? PASSWORD;
const range = '?from=2000-01-01&to=2099-12-31';
/** A month long over, another for each attempt (each submits once). */
const pastMonth = (n: number) => `${2000 + Math.floor(n / 12)}-${String((n % 12) + 1).padStart(2, '0')}`;
const monthState = { answer: 409, answerCode: 'MONTH_STATE', notFound: 'USER_NOT_FOUND' } as const;

/** A notice of M's, as the reminder job records one (no route makes one). */
async function mNotice(w: World): Promise<{ id: number }> {
  const key = `permission:${w.unique()}`;
  const data = JSON.stringify({ date: '2026-03-02', target_minutes: 480 });
  await queryRows(w.db, "insert into notices (user_id, kind, key, data, created_at) values (?, 'missing-day', ?, ?, '2026-03-03T07:00:00.000Z')", [
    w.M.id,
    key,
    data,
  ]);
  const [row] = await queryRows<{ id: number }>(w.db, 'select id from notices where key = ?', [key]);
  return { id: Number(row!.id) };
}

/** In the order they run: the rows that end sessions and accounts last, closing the account at the very end. */
export const ROWS: Row[] = [
  { route: 'GET /api/health', rule: 'open' },
  { route: 'GET /api/ready', rule: 'open' },
  { route: 'GET /api/auth/registration', rule: 'open' },
  // Admins exist (X, S): no setup link works, for anyone (docs/teams.md, "The first admin").
  { route: 'GET /api/auth/setup-link', rule: 'open', query: '?token=unknown', answer: 400, answerCode: 'INVALID_SETUP_LINK' },
  {
    route: 'POST /api/auth/register',
    rule: 'open',
    answer: 201,
    body: (w) => ({ email: `new${w.unique()}@example.com`, password: PASSWORD, full_name: 'New' }),
  },
  // Each sign-in in flight holds one of the account's LOCKOUT_ATTEMPTS (5) slots (docs/api.md, "Lockout"): 4 at once.
  { route: 'POST /api/auth/login', rule: 'open', atOnce: 4, body: (w) => ({ email: w.S.email, password: PASSWORD }) },
  { route: 'POST /api/auth/login/2fa', rule: 'open', answer: 401, answerCode: 'INVALID_CHALLENGE', body: () => ({ challenge: 'unknown', code: '123456' }) },
  { route: 'POST /api/auth/request-reset', rule: 'open', body: (w) => ({ email: w.R.email }) },
  // A newer reset link voids the one before: one at a time.
  { route: 'POST /api/auth/reset-password', rule: 'open', atOnce: 1, body: async (w) => ({ token: await freshResetToken(w), new_password: PASSWORD }) },
  { route: 'POST /api/invitations/preview', rule: 'open', body: (w) => ({ token: w.invitations.previewToken }) },
  {
    route: 'POST /api/invitations/accept',
    rule: 'open',
    body: async (w) => ({ token: (await freshInvitation(w)).token, password: PASSWORD, full_name: 'Invited' }),
  },

  { route: 'GET /api/auth/me', rule: 'own', mine: (body, account) => body.user.id === account.id },
  { route: 'GET /api/auth/validate', rule: 'own', mine: (body, account) => body.user_id === account.id },
  { route: 'GET /api/auth/sessions', rule: 'own-session' },
  { route: 'GET /api/auth/api-tokens', rule: 'own-session' },
  { route: 'GET /api/auth/2fa', rule: 'own-session' },
  { route: 'GET /api/stats/week', rule: 'optional' },
  { route: 'GET /api/stats/overtime', rule: 'optional' },
  { route: 'GET /api/stats/today', rule: 'optional' },
  { route: 'GET /api/stats/month', rule: 'optional' },
  { route: 'GET /api/stats/vacation', rule: 'optional' },
  { route: 'GET /api/stats/month.csv', rule: 'own' },
  { route: 'GET /api/stats/month.pdf', rule: 'own', atOnce: 4 },
  { route: 'GET /api/settings', rule: 'own' },
  { route: 'GET /api/notices', rule: 'own' },
  { route: 'POST /api/notices/:id/read', rule: 'owner', answer: 204, ids: mNotice },
  { route: 'POST /api/notices/read-all', rule: 'own' },
  { route: 'PATCH /api/settings', rule: 'own', body: () => ({ vacation_days_per_year: 25 }) },
  { route: 'GET /api/settings/holiday-regions', rule: 'own' },
  // A process generates 2 exports of one client address at once, and one of an account (docs/api.md).
  { route: 'GET /api/settings/export', rule: 'own', atOnce: 2 },
  { route: 'GET /api/settings/schedules', rule: 'own' },
  { route: 'POST /api/settings/schedules', rule: 'own', answer: 201, body: (w) => ({ valid_from: day(1 + w.unique()), weekly_target_minutes: { mon: 420 } }) },
  { route: 'DELETE /api/settings/schedules/:id', rule: 'owner', answer: 204, ids: owned('schedule') },
  { route: 'GET /api/time-entries', rule: 'own', query: range },
  { route: 'POST /api/time-entries', rule: 'own', answer: 201, body: (w) => pastHour(w) },
  { route: 'GET /api/time-entries/current', rule: 'own' },
  { route: 'GET /api/time-entries/export', rule: 'own', query: range, atOnce: 2 },
  {
    route: 'POST /api/time-entries/start',
    rule: 'own',
    answer: 201,
    atOnce: 1,
    after: (w, a) => must(w, 'POST', '/api/time-entries/stop', undefined, a.account!.session),
  },
  {
    route: 'POST /api/time-entries/stop',
    rule: 'own',
    atOnce: 1,
    before: (w, a) => must(w, 'POST', '/api/time-entries/start', {}, a.account!.session),
  },
  { route: 'GET /api/time-entries/:id', rule: 'owner', ids: (w) => ({ id: w.own.entry }) },
  { route: 'PATCH /api/time-entries/:id', rule: 'owner', ids: (w) => ({ id: w.own.entry }), body: () => ({ note: 'changed' }) },
  { route: 'DELETE /api/time-entries/:id', rule: 'owner', answer: 204, ids: owned('entry') },
  { route: 'GET /api/time-entries/absences', rule: 'own', query: range },
  { route: 'POST /api/time-entries/absences', rule: 'own', answer: 201, body: (w) => ({ date: day(-3 - w.unique()), type: 'sick' }) },
  { route: 'DELETE /api/time-entries/absences/:id', rule: 'owner', answer: 204, ids: owned('absence') },
  { route: 'DELETE /api/time-entries/absences/requests/:id', rule: 'owner', ids: owned('requestId') },
  { route: 'GET /api/time-entries/bookings', rule: 'own', query: range },
  { route: 'POST /api/time-entries/bookings', rule: 'own', answer: 201, body: () => ({ date: day(-2), minutes: 15, kind: 'correction' }) },
  { route: 'DELETE /api/time-entries/bookings/:id', rule: 'owner', answer: 204, ids: owned('booking') },

  // Leave requests (docs/teams.md, "Leave requests"): M's; M on N's and on its own lead L's.
  { route: 'GET /api/requests', rule: 'own' },
  ...(['approve', 'reject'] as const).map((step): Row => ({
    route: `POST /api/requests/:id/${step}`,
    rule: 'person-decide',
    ids: async (w, a) => ({ id: a.succeeds ? await freshOwn.leaveRequest(w) : a.other ? w.leaveRequests[a.other] : w.own.leaveRequest }),
    body: () => ({ note: 'decided' }),
  })),
  { route: 'POST /api/requests/:id/withdraw', rule: 'owner', ids: owned('leaveRequest') },
  { route: 'POST /api/requests/:id/cancel', rule: 'owner', ids: owned('approvedLeave') },

  { route: 'GET /api/users', rule: 'admin' },
  { route: 'GET /api/audit', rule: 'admin' },
  { route: 'GET /api/users/:id', rule: 'person-read', ids: person },
  { route: 'PATCH /api/users/:id', rule: 'person-admin', ids: person, body: () => ({ role: 'member' }) },
  { route: 'POST /api/users/:id/disable', rule: 'person-admin', ids: personOrFresh },
  { route: 'POST /api/users/:id/enable', rule: 'person-admin', ids: person },
  { route: 'POST /api/users/:id/unlock', rule: 'person-admin', ids: person },
  { route: 'POST /api/users/:id/two-factor-reset', rule: 'person-admin', ids: personOrFresh },
  { route: 'POST /api/users/:id/reset-link', rule: 'person-admin', ids: person },
  ...['week', 'month', 'overtime', 'vacation', 'month.csv'].map((figure): Row => ({
    route: `GET /api/users/:id/stats/${figure}`,
    rule: 'person-stats',
    notFound: 'USER_NOT_FOUND',
    ids: person,
  })),
  { route: 'GET /api/users/:id/stats/month.pdf', rule: 'person-stats', notFound: 'USER_NOT_FOUND', ids: person, atOnce: 4 },

  // Closed months (docs/teams.md): the month of a decision is open, so an allowed attempt meets MONTH_STATE.
  { route: 'GET /api/months', rule: 'own', query: '?year=2026' },
  { route: 'POST /api/months/:month/submit', rule: 'own', ids: (w) => ({ month: pastMonth(w.unique()) }) },
  ...(['approve', 'return'] as const).map((decision): Row => ({
    route: `POST /api/users/:id/months/:month/${decision}`,
    rule: 'person-decide',
    ...monthState,
    ids: (w, a) => ({ ...person(w, a), month: '1999-01' }),
    body: () => ({ comment: 'seen' }),
  })),
  {
    route: 'POST /api/users/:id/months/:month/reopen',
    rule: 'person-admin',
    ...monthState,
    ids: (w, a) => ({ ...person(w, a), month: '1999-01' }),
    body: () => ({ reason: 'why' }),
  },
  { route: 'GET /api/months/waiting', rule: 'lead-list' },
  { route: 'GET /api/users/:id/months/:month', rule: 'person-stats', notFound: 'USER_NOT_FOUND', ids: (w, a) => ({ ...person(w, a), month: '1999-01' }) },
  { route: 'GET /api/users/:id/months/:month/verify', rule: 'person-stats', ...monthState, ids: (w, a) => ({ ...person(w, a), month: '1999-01' }) },
  {
    route: 'POST /api/users/:id/bookings',
    rule: 'person-decide',
    answer: 201,
    notFound: 'USER_NOT_FOUND',
    ids: person,
    body: () => ({ date: day(-2), minutes: 15 }),
  },
  { route: 'GET /api/teams/:id/months', rule: 'team-overview', ids: team, query: '?month=2026-01' },

  { route: 'GET /api/teams', rule: 'own' },
  { route: 'POST /api/teams', rule: 'admin', answer: 201, body: (w) => ({ name: `Made ${w.unique()}` }) },
  { route: 'GET /api/teams/:id', rule: 'team-read', ids: team },
  { route: 'GET /api/teams/:id/overview', rule: 'team-overview', ids: team },
  { route: 'GET /api/teams/:id/calendar', rule: 'team-read', ids: team },
  { route: 'PATCH /api/teams/:id', rule: 'team-admin', ids: teamOrFresh, body: (w) => ({ name: `Renamed ${w.unique()}` }) },
  { route: 'DELETE /api/teams/:id', rule: 'team-admin', answer: 204, ids: teamOrFresh },
  { route: 'PUT /api/teams/:id/members/:userId', rule: 'team-members', ids: (w, a) => ({ ...team(w, a), userId: w.R.id }), body: () => ({ role: 'member' }) },
  {
    route: 'DELETE /api/teams/:id/members/:userId',
    rule: 'team-members',
    answer: 204,
    ids: async (w, a) => (a.succeeds ? { id: w.teams.A, userId: await freshMemberOfA(w) } : { ...team(w, a), userId: a.other ? w.N.id : w.M.id }),
  },
  { route: 'GET /api/invitations', rule: 'own-session' },
  {
    route: 'POST /api/invitations',
    rule: 'team-members',
    answer: 201,
    body: (w, a) => ({ email: `asked${w.unique()}@example.com`, full_name: 'Asked', team_id: a.other ? w.teams.B : w.teams.A, role: 'member' }),
  },
  { route: 'POST /api/invitations/:id/resend', rule: 'team-members', ids: (w, a) => ({ id: a.other ? w.invitations.B : w.invitations.A }), body: () => ({}) },
  {
    route: 'DELETE /api/invitations/:id',
    rule: 'team-members',
    answer: 204,
    ids: async (w, a) => ({ id: a.succeeds ? (await freshInvitation(w)).id : a.other ? w.invitations.B : w.invitations.A }),
  },

  // Account management that changes or ends what later rows use: each on the actor's own account.
  {
    route: 'POST /api/auth/api-tokens',
    rule: 'own-session',
    answer: 201,
    body: (_w, a) => ({ name: 'spare', expires_in_days: 1, password: password(a) }),
    after: (w, a, made) => void keep(w, a, 'spare token', made.id),
  },
  {
    route: 'DELETE /api/auth/api-tokens/:id',
    rule: 'own-session',
    answer: 204,
    ids: (w, a) => ({ id: a.succeeds ? (keep(w, a, 'spare token') as number) : 999_999 }),
  },
  {
    route: 'DELETE /api/auth/sessions/:id',
    rule: 'own-session',
    answer: 204,
    ids: async (w, a) => ({ id: a.succeeds ? (await freshSession(w, a.account!)).id : 999_999 }),
  },
  { route: 'POST /api/auth/logout', rule: 'own-session', freshSession: true },
  { route: 'POST /api/auth/sessions/revoke-others', rule: 'own-session', body: () => ({ revoke_api_tokens: false }) },
  {
    route: 'POST /api/auth/change-password',
    rule: 'own-session',
    body: (_w, a) => ({ old_password: password(a), new_password: `${password(a)} again`, revoke_api_tokens: false }),
    after: (_w, a) => void (a.account!.password = `${a.account!.password} again`),
  },
  {
    route: 'POST /api/auth/2fa/setup',
    rule: 'own-session',
    body: (_w, a) => ({ password: password(a) }),
    after: (w, a, made) => void keep(w, a, 'secret', made.secret),
  },
  {
    route: 'POST /api/auth/2fa/enable',
    rule: 'own-session',
    body: (w, a) => ({ code: a.succeeds ? totpCode(keep(w, a, 'secret') as string, Date.now()) : '123456' }),
    after: (w, a, made) => void keep(w, a, 'recovery', made.recovery_codes),
  },
  {
    route: 'POST /api/auth/2fa/recovery-codes',
    rule: 'own-session',
    body: (w, a) => ({ password: password(a), code: a.succeeds ? (keep(w, a, 'recovery') as string[])[0] : '123456' }),
    after: (w, a, made) => void keep(w, a, 'recovery', made.recovery_codes),
  },
  {
    route: 'POST /api/auth/2fa/disable',
    rule: 'own-session',
    body: (w, a) => ({ password: password(a), code: a.succeeds ? (keep(w, a, 'recovery') as string[])[0] : '123456' }),
  },
  { route: 'DELETE /api/auth/account', rule: 'own-session', answer: 204, body: (_w, a) => ({ password: password(a) }) },
];
