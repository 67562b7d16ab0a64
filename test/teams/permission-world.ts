// The people, teams and objects the permission test (permissions-every-route.process.test.ts) tries every
// route with, on one real `serve`: a member M of team A, its lead L, the lead O of team B (with its
// member N), an admin X, each signed in and with an API token; S, a second admin (so that X may close
// its account), and R, an account in no team (a reset and a membership to give). The helpers make the
// fresh targets of the rows that change or end what they act on (docs/testing.md, "The permission test").
import { DateTime } from 'luxon';
import { PASSWORD } from '../support/app.js';
import { createAccountWithCli, tempDb } from '../support/cli-accounts.js';
import { call, startServer, type RunningServer } from '../support/server.js';

export interface Account {
  id: number;
  email: string;
  /** Its password now (the change-password row changes it). */
  password: string;
  /** A session token, and an API token of the account (none for the accounts that only stand as targets). */
  session: string;
  token: string;
}

export interface Answer {
  status: number;
  body: any;
}

export interface World {
  server: RunningServer;
  /** Its database, for rows no route makes (queryRows of test/support/database.ts): a notice. */
  db: string;
  M: Account;
  L: Account;
  O: Account;
  X: Account;
  N: Account;
  S: Account;
  R: Account;
  teams: { A: number; B: number };
  /** M's own objects, which everyone else must not find; and invitations into A and B (one only to look at). */
  own: { entry: number; absence: number; requestId: number; booking: number; schedule: number; leaveRequest: number; approvedLeave: number };
  /** A leave request each of N and of L (M's own lead): what M must not find (docs/teams.md, "Leave requests"). */
  leaveRequests: { N: number; L: number };
  invitations: { A: number; B: number; previewToken: string };
  /** What a row leaves for a later one, by account id (the two-factor secret and recovery codes, a spare token's id). */
  kept: Map<string, unknown>;
  /** A number never given before (unique names, addresses and days). */
  unique: () => number;
  send: (method: string, url: string, body?: unknown, credential?: string) => Promise<Answer>;
}

/** A request whose answer must be 2xx (the set-up and the fresh targets): its body. */
export async function must(world: World, method: string, url: string, body?: unknown, credential?: string): Promise<any> {
  const answer = await world.send(method, url, body, credential);
  if (answer.status >= 300) throw new Error(`${method} ${url}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body;
}

export async function signIn(world: Pick<World, 'send'>, email: string, password = PASSWORD): Promise<string> {
  const answer = await world.send('POST', '/api/auth/login', { email, password });
  if (answer.status !== 200) throw new Error(`login ${email}: ${answer.status} ${JSON.stringify(answer.body)}`);
  return answer.body.token as string;
}

/** A day `offset` days from today (UTC), as YYYY-MM-DD. */
export function day(offset: number): string {
  return DateTime.utc().plus({ days: offset }).toISODate()!;
}

/** An hour of a past day that no other row uses: an entry that overlaps nothing. */
export function pastHour(world: World): { start_at: string; end_at: string } {
  const start = DateTime.utc()
    .startOf('day')
    .minus({ days: 3 + world.unique() })
    .set({ hour: 6 });
  return { start_at: start.toISO()!, end_at: start.plus({ hours: 1 }).toISO()! };
}

/** A new account (registered over the API) in no team: a target an action may disable or end. */
export async function freshAccount(world: World): Promise<number> {
  const email = `fresh${world.unique()}@example.com`;
  return (await must(world, 'POST', '/api/auth/register', { email, password: PASSWORD, full_name: 'Fresh Person' })).user.id as number;
}

/** A new team of the admin's: one to rename or delete. */
export async function freshTeam(world: World): Promise<number> {
  return (await must(world, 'POST', '/api/teams', { name: `Spare ${world.unique()}` }, world.X.session)).team.id as number;
}

/** A new invitation into team A, by the admin: its id and the token of its link (dev mode answers it). */
export async function freshInvitation(world: World): Promise<{ id: number; token: string }> {
  const body = { email: `invited${world.unique()}@example.com`, full_name: 'Invited Person', team_id: world.teams.A, role: 'member' };
  const issued = await must(world, 'POST', '/api/invitations', body, world.X.session);
  return { id: issued.invitation.id as number, token: new URL(issued.invite_url as string).searchParams.get('token')! };
}

/** M's own objects, made with M's session: a fresh one for each attempt that deletes one. */
export const freshOwn: Record<keyof World['own'], (world: World) => Promise<number>> = {
  entry: async (w) => (await must(w, 'POST', '/api/time-entries', pastHour(w), w.M.session)).entry.id,
  absence: async (w) => (await sickDay(w)).id,
  requestId: async (w) => (await sickDay(w)).request_id,
  booking: async (w) => (await must(w, 'POST', '/api/time-entries/bookings', { date: day(-2), minutes: 5, kind: 'correction' }, w.M.session)).booking.id,
  /** Vacation of M's, a request in team A (which requires approval). */
  leaveRequest: async (w) => vacationRequest(w, w.M.session),
  /** The same, approved by the admin: one whose cancellation M may ask for. */
  approvedLeave: async (w) => {
    const id = await vacationRequest(w, w.M.session);
    await must(w, 'POST', `/api/requests/${id}/approve`, {}, w.X.session);
    return id;
  },
  schedule: async (w) => {
    const schedule = { valid_from: day(1 + w.unique()), weekly_target_minutes: { mon: 400 } };
    return (await must(w, 'POST', '/api/settings/schedules', schedule, w.M.session)).schedule.id;
  },
};

/** A day of vacation of the session's account, far ahead and on a day no other row uses: its request's id. */
async function vacationRequest(world: World, session: string): Promise<number> {
  return (await must(world, 'POST', '/api/time-entries/absences', { date: day(30 + world.unique()), type: 'vacation' }, session)).absence.request_id;
}

async function sickDay(world: World): Promise<{ id: number; request_id: number }> {
  return (await must(world, 'POST', '/api/time-entries/absences', { date: day(-3 - world.unique()), type: 'sick' }, world.M.session)).absence;
}

/** A new session of the account, and its id in the account's list: one to end. */
export async function freshSession(world: World, account: Account): Promise<{ token: string; id: number }> {
  const token = await signIn(world, account.email, account.password);
  const listed = await must(world, 'GET', '/api/auth/sessions', undefined, token);
  return { token, id: listed.sessions.find((session: { current: boolean }) => session.current).id };
}

/** A new member of team A (an account registered for it): one to take out of the team. */
export async function freshMemberOfA(world: World): Promise<number> {
  const userId = await freshAccount(world);
  await must(world, 'PUT', `/api/teams/${world.teams.A}/members/${userId}`, { role: 'member' }, world.X.session);
  return userId;
}

/** A new reset token of R's (dev mode answers it); a newer one voids it. */
export async function freshResetToken(world: World): Promise<string> {
  return (await must(world, 'POST', '/api/auth/request-reset', { email: world.R.email })).reset_token as string;
}

/** Makes the accounts and teams, starts the one `serve`, signs everyone in and gives each actor an API token. */
export async function makeWorld(): Promise<World> {
  const db = tempDb();
  const emails = { X: 'x-admin@example.com', S: 's-admin@example.com', L: 'l-lead@example.com', O: 'o-lead@example.com' };
  for (const [name, role] of [
    ['X', 'admin'],
    ['S', 'admin'],
    ['L', 'lead'],
    ['O', 'lead'],
  ] as const) {
    await createAccountWithCli(db, emails[name], ['--role', role]);
  }
  // --dev: a reset link and an invitation link are answered (no SMTP here); two argon2 hashes at once.
  const server = await startServer(db, { HASH_CONCURRENCY: '2', LOG_LEVEL: 'warn' }, ['--dev']);
  let counter = 0;
  const send = async (method: string, url: string, body?: unknown, credential?: string): Promise<Answer> => {
    const { status, text } = await call(server, method, url, body, credential);
    return { status, body: text.startsWith('{') ? JSON.parse(text) : text };
  };
  // N and R only stand as targets: registered, never signed in (a hash less each).
  const account = async (email: string, made: 'by the CLI' | 'registered' | 'target'): Promise<Account> => {
    if (made !== 'by the CLI') {
      const registered = await send('POST', '/api/auth/register', { email, password: PASSWORD, full_name: email.split('@')[0] });
      if (made === 'target') return { id: registered.body.user.id as number, email, password: PASSWORD, session: '', token: '' };
    }
    const session = await signIn({ send }, email);
    const me = await send('GET', '/api/auth/me', undefined, session);
    return { id: me.body.user.id as number, email, password: PASSWORD, session, token: '' };
  };
  const [X, S, L, O, M, N, R] = await Promise.all([
    account(emails.X, 'by the CLI'),
    account(emails.S, 'by the CLI'),
    account(emails.L, 'by the CLI'),
    account(emails.O, 'by the CLI'),
    account('m-member@example.com', 'registered'),
    account('n-member@example.com', 'target'),
    account('r-nobody@example.com', 'target'),
  ]);
  const world: World = {
    server,
    db,
    ...{ M: M!, L: L!, O: O!, X: X!, N: N!, S: S!, R: R! },
    teams: { A: 0, B: 0 },
    own: { entry: 0, absence: 0, requestId: 0, booking: 0, schedule: 0, leaveRequest: 0, approvedLeave: 0 },
    leaveRequests: { N: 0, L: 0 },
    invitations: { A: 0, B: 0, previewToken: '' },
    kept: new Map(),
    unique: () => ++counter,
    send,
  };
  await Promise.all(
    [world.M, world.L, world.O, world.X].map(async (who) => {
      const made = await must(world, 'POST', '/api/auth/api-tokens', { name: 'script', expires_in_days: 30, password: PASSWORD }, who.session);
      who.token = made.token as string;
    }),
  );
  await teamsAndObjects(world);
  return world;
}

/** Teams A (lead L, member M) and B (lead O, member N); M's own objects; invitations into A and B. */
async function teamsAndObjects(world: World): Promise<void> {
  const admin = world.X.session;
  world.teams.A = (await must(world, 'POST', '/api/teams', { name: 'Team A' }, admin)).team.id;
  world.teams.B = (await must(world, 'POST', '/api/teams', { name: 'Team B' }, admin)).team.id;
  const { A, B } = world.teams;
  await must(world, 'PUT', `/api/teams/${A}/members/${world.L.id}`, { role: 'lead' }, admin);
  await must(world, 'PUT', `/api/teams/${A}/members/${world.M.id}`, { role: 'member' }, admin);
  await must(world, 'PUT', `/api/teams/${B}/members/${world.O.id}`, { role: 'lead' }, admin);
  await must(world, 'PUT', `/api/teams/${B}/members/${world.N.id}`, { role: 'member' }, admin);
  for (const kind of Object.keys(world.own) as Array<keyof World['own']>) world.own[kind] = await freshOwn[kind](world);
  world.leaveRequests.N = await vacationRequest(world, await signIn(world, world.N.email));
  world.leaveRequests.L = await vacationRequest(world, world.L.session);
  world.invitations.A = (await freshInvitation(world)).id;
  world.invitations.previewToken = (await freshInvitation(world)).token;
  const intoB = { email: `invited${world.unique()}@example.com`, full_name: 'Invited Person', team_id: B, role: 'member' };
  world.invitations.B = (await must(world, 'POST', '/api/invitations', intoB, admin)).invitation.id;
}
