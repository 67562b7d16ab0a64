// Closed months (docs/teams.md, "Closed months"; docs/api.md, "Months"): a person submits a month
// once it is over, a lead of one of the person's teams (or an admin) approves or returns it, an admin
// reopens an approved or locked one. Every change is a read-then-write of the person's row in
// `months` inside one transaction that first locks the account (database.lockUser), so two decisions
// at once leave one, and a write of a day (which locks the same account) never passes an approval.
// The edges record the audit trail with what these answer.
import type { Kysely } from 'kysely';
import type { TransactionalDatabase } from '../../db/database.js';
import type { Database, LocalDate } from '../../db/types.js';
import type { Clock } from '../../common/clock.js';
import { ServiceError } from '../../common/errors.js';
import { localDateOf } from '../../time/calendar/dates.js';
import type { DayZones } from '../../time/calendar/zones.js';
import type { MonthFigures } from '../../time/statistics/types.js';
import type { Booking, NewBooking } from '../../time/bookings.js';
import { requireAllowed, type Actor } from '../access.js';
import { membersOf, relationToPerson, relationToTeam } from '../members.js';
import { teamById, teamNotFound } from '../teams.js';
import { checkComment, monthRow, monthsOfYear, parseMonth, requireState, waitingMonths, writeMonth, type MonthStatus, type WaitingMonth } from './store.js';
import { canonicalJson, differencesOf, digestOf, sealedPart } from './seal.js';
import { lockOverdueMonths } from './auto-lock.js';
import { sheetSeal } from './sheet-seal.js';
import { recordNotice } from '../notices.js';

export interface MonthDeps {
  database: TransactionalDatabase;
  clock: Clock;
  statistics: { monthFigures(userId: number, month?: string): Promise<MonthFigures> };
  settings: { getSettings(userId: number): Promise<{ zones: DayZones }> };
  bookings: { createBooking(userId: number, input: NewBooking): Promise<Booking> };
}

function noSuchAccount(): ServiceError {
  return new ServiceError('USER_NOT_FOUND', 'No such account');
}

/** The account of the path: within the actor's reach for `action` (404 outside, 403 a role that may not), and existing. */
async function personFor(deps: MonthDeps, actor: Actor, action: 'months.decide' | 'months.reopen' | 'stats.read', userId: number): Promise<void> {
  const { db } = deps.database;
  requireAllowed(actor, action, { kind: 'person', relation: await relationToPerson(db, actor.userId, userId) }, noSuchAccount);
  if (!(await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst())) throw noSuchAccount();
}

/**
 * Nobody approves their own month (403 SELF_APPROVAL), an admin neither, unless the instance has one
 * admin and no lead: then nobody else could.
 */
async function refuseSelfApproval(db: Kysely<Database>, actor: Actor, userId: number): Promise<void> {
  if (actor.userId !== userId || actor.role === 'member') return;
  const roles = await db.selectFrom('users').select(['role']).where('role', 'in', ['admin', 'lead']).limit(2).execute();
  if (actor.role === 'admin' && roles.length === 1) return;
  throw new ServiceError('SELF_APPROVAL', 'You cannot approve or return your own month: another lead or an administrator decides it');
}

/** `decided_by`/`submitted_by`: the account, or null for the operator at the shell. */
const byOf = (actor: Actor) => (actor.userId > 0 ? actor.userId : null);

/** The person submits its own month (the operator at the shell: any account's), once it is over in the person's zone. */
async function submit(deps: MonthDeps, actor: Actor, userId: number, rawMonth: string): Promise<MonthStatus> {
  const month = parseMonth(rawMonth);
  if (actor.userId !== userId && actor.userId !== 0) throw new ServiceError('FORBIDDEN', 'A month is submitted by its own account');
  const { zones } = await deps.settings.getSettings(userId);
  const today: LocalDate = localDateOf(deps.clock.now().getTime(), zones);
  if (today.slice(0, 7) <= month)
    throw new ServiceError('MONTH_NOT_OVER', `The month ${month} has not ended yet in your time zone: submit it after its last day`);
  return deps.database.transact(async (trx) => {
    await deps.database.lockUser(trx, userId);
    const current = await monthRow(trx, userId, month);
    requireState(current, ['open', 'returned'], 'submitted');
    const next: MonthStatus = { ...current, state: 'submitted', submitted_at: deps.clock.now().toISOString(), submitted_by: byOf(actor) };
    await writeMonth(trx, userId, { ...next, decided_at: null, decided_by: null, comment: null, digest: null });
    return { ...next, decided_at: null, decided_by: null, comment: null, digest: null };
  });
}

/** Approves (and seals) or returns a submitted month. */
async function decide(deps: MonthDeps, actor: Actor, userId: number, rawMonth: string, approve: boolean, rawComment?: string): Promise<MonthStatus> {
  const month = parseMonth(rawMonth);
  const comment = checkComment(rawComment, 'comment', !approve);
  await refuseSelfApproval(deps.database.db, actor, userId);
  await personFor(deps, actor, 'months.decide', userId);
  const decided = await deps.database.transact(async (trx) => {
    await deps.database.lockUser(trx, userId);
    const current = await monthRow(trx, userId, month);
    requireState(current, ['submitted'], approve ? 'approved' : 'returned');
    const next: MonthStatus = {
      ...current,
      state: approve ? 'approved' : 'returned',
      decided_at: deps.clock.now().toISOString(),
      decided_by: byOf(actor),
      comment,
    };
    await writeMonth(trx, userId, next);
    // The person hears of a return under the bell and by mail (docs/notices.md), once per return.
    if (!approve)
      await recordNotice(trx, { userId, kind: 'month-returned', key: `month-returned:${userId}:${month}:${next.decided_at}`, data: { month, comment } });
    return next;
  });
  return approve ? seal(deps, userId, decided) : decided;
}

/**
 * The seal, once the approval is committed: from then on no write reaches the month's days, so the
 * figures read now are those approved. Stored only while the month is still approved and unsealed.
 */
async function seal(deps: MonthDeps, userId: number, approved: MonthStatus): Promise<MonthStatus> {
  const figures = canonicalJson(sealedPart(await deps.statistics.monthFigures(userId, approved.month)));
  const digest = digestOf(figures);
  await deps.database.db
    .updateTable('months')
    .set({ digest, figures })
    .where('user_id', '=', userId)
    .where('month', '=', approved.month)
    .where('state', '=', 'approved')
    .where('digest', 'is', null)
    .execute();
  return { ...approved, digest };
}

/** An admin opens an approved or locked month again; answers the month and the digest it had. */
async function reopen(deps: MonthDeps, actor: Actor, userId: number, rawMonth: string, rawReason?: string) {
  const month = parseMonth(rawMonth);
  const reason = checkComment(rawReason, 'reason', true);
  await personFor(deps, actor, 'months.reopen', userId);
  return deps.database.transact(async (trx) => {
    await deps.database.lockUser(trx, userId);
    const current = await monthRow(trx, userId, month);
    requireState(current, ['approved', 'locked'], 'reopened');
    const next: MonthStatus = { ...current, state: 'open', decided_at: deps.clock.now().toISOString(), decided_by: byOf(actor), comment: reason, digest: null };
    await writeMonth(trx, userId, next);
    return { month: next, previous_digest: current.digest };
  });
}

/** The seal worked out again: does the month still add up to what was approved? */
async function verify(deps: MonthDeps, actor: Actor, userId: number, rawMonth: string) {
  const month = parseMonth(rawMonth);
  await personFor(deps, actor, 'stats.read', userId);
  const row = await deps.database.db
    .selectFrom('months')
    .select(['digest', 'figures'])
    .where('user_id', '=', userId)
    .where('month', '=', month)
    .executeTakeFirst();
  if (!row?.digest || !row.figures) throw new ServiceError('MONTH_STATE', `The month ${month} has no seal: only an approved month has one`);
  const now = sealedPart(await deps.statistics.monthFigures(userId, month));
  const digest = digestOf(canonicalJson(now));
  if (digest === row.digest) return { matches: true as const, digest };
  return { matches: false as const, digest, sealed_digest: row.digest, differences: differencesOf(JSON.parse(row.figures), now) };
}

/** Each member's state of the month: a lead of the team or an admin (as the team's overview). */
async function teamMonths(deps: MonthDeps, actor: Actor, teamId: number, rawMonth: string) {
  const month = parseMonth(rawMonth);
  const { db } = deps.database;
  requireAllowed(actor, 'teams.overview', { kind: 'team', relation: await relationToTeam(db, actor.userId, teamId) }, teamNotFound);
  const team = await teamById(db, teamId);
  if (!team) throw teamNotFound();
  const members = await membersOf(db, teamId);
  return { team, month, members: await Promise.all(members.map(async ({ user }) => ({ user, ...(await monthRow(db, user.id, month)) }))) };
}

/** A person's month as it stands: the person, a lead of one of the person's teams, an admin (404 outside). */
async function personMonth(deps: MonthDeps, actor: Actor, userId: number, rawMonth: string): Promise<MonthStatus> {
  const month = parseMonth(rawMonth);
  await personFor(deps, actor, 'stats.read', userId);
  return monthRow(deps.database.db, userId, month);
}

/** The submitted months waiting for the actor's decision: a lead's people's, an admin's everyone's; a member's role may not ask. */
function waiting(deps: MonthDeps, actor: Actor): Promise<WaitingMonth[]> {
  const { db } = deps.database;
  if (actor.role === 'admin') return waitingMonths(db, 'all');
  if (actor.role === 'lead') return waitingMonths(db, { ledBy: actor.userId });
  throw new ServiceError('FORBIDDEN', 'Your role may not do this (months waiting for a decision)');
}

/** A correction on a person's balance, booked by a lead of the person's team or an admin (in an open month). */
async function bookCorrection(deps: MonthDeps, actor: Actor, userId: number, input: Omit<NewBooking, 'kind'>): Promise<Booking> {
  const { db } = deps.database;
  requireAllowed(actor, 'bookings.correct', { kind: 'person', relation: await relationToPerson(db, actor.userId, userId) }, noSuchAccount);
  if (!(await db.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst())) throw noSuchAccount();
  return deps.bookings.createBooking(userId, { ...input, kind: 'correction' });
}

export function createMonthService(deps: MonthDeps) {
  const { db } = deps.database;
  return {
    /** The actor's own months of a year (every month, open where nothing is stored). */
    ownYear: (actor: Actor, year: number) => monthsOfYear(db, actor.userId, year),
    /** A person's month as the actor may read it (GET /api/users/:id/months/:month). */
    personMonth: (actor: Actor, userId: number, month: string) => personMonth(deps, actor, userId, month),
    /** The submitted months waiting for the actor (GET /api/months/waiting). */
    waiting: (actor: Actor) => waiting(deps, actor),
    /** A person's month as it stands (the CLI's status). */
    status: (userId: number, month: string) => monthRow(db, userId, parseMonth(month)),
    submit: (actor: Actor, userId: number, month: string) => submit(deps, actor, userId, month),
    approve: (actor: Actor, userId: number, month: string, comment?: string) => decide(deps, actor, userId, month, true, comment),
    return: (actor: Actor, userId: number, month: string, comment?: string) => decide(deps, actor, userId, month, false, comment),
    reopen: (actor: Actor, userId: number, month: string, reason?: string) => reopen(deps, actor, userId, month, reason),
    verify: (actor: Actor, userId: number, month: string) => verify(deps, actor, userId, month),
    /** The seal the timesheet prints and the month's JSON carries (./sheet-seal.ts); null unless approved. */
    sealOf: (userId: number, month: string) => sheetSeal(db, userId, parseMonth(month)),
    teamMonths: (actor: Actor, teamId: number, month: string) => teamMonths(deps, actor, teamId, month),
    bookCorrection: (actor: Actor, userId: number, input: Omit<NewBooking, 'kind'>) => bookCorrection(deps, actor, userId, input),
    /** Housekeeping: the months of teams with auto_lock_after_days, that long after their end (./auto-lock.ts). */
    lockOverdueMonths: () => lockOverdueMonths(deps),
  };
}

export type MonthService = ReturnType<typeof createMonthService>;
