// What happens to a leave request (docs/teams.md, "Leave requests"): a lead or an admin approves or
// rejects it (a request, or a cancellation asked for), the person withdraws it while it waits or asks
// to cancel it once approved. Each step reads the request's state after locking its person's row
// (docs/architecture.md), so of two decisions at once, even through two processes, one stands and
// the other finds it decided (409 ALREADY_DECIDED).
import type { Kysely, Transaction } from 'kysely';
import type { TransactionalDatabase } from '../../db/database.js';
import type { Database, LeaveRequestState } from '../../db/types.js';
import { ServiceError } from '../../common/errors.js';
import type { Actor } from '../access.js';
import { requestNotFound } from './store.js';
import { createMonthLock } from '../months/lock.js';
import { recordNotice } from '../notices.js';

export type Step = 'approve' | 'reject' | 'withdraw' | 'cancel';

/** The state each step leads to from the states it may be taken in. */
const NEXT: Record<Step, Partial<Record<LeaveRequestState, LeaveRequestState>>> = {
  approve: { requested: 'approved', cancel_requested: 'cancelled' },
  reject: { requested: 'rejected', cancel_requested: 'approved' },
  withdraw: { requested: 'withdrawn' },
  cancel: { approved: 'cancel_requested' },
};

/** The states whose absences are gone: they are no absences at all any more. */
const ENDED: readonly LeaveRequestState[] = ['rejected', 'withdrawn', 'cancelled'];

function alreadyDecided(step: Step, state: LeaveRequestState): ServiceError {
  const may = Object.keys(NEXT[step]).join(' or ');
  return new ServiceError(
    'ALREADY_DECIDED',
    `This leave request is ${state}: only a request that is ${may} can be ${step === 'cancel' ? 'cancelled' : `${step}d`}`,
  );
}

/** The person a request belongs to, or NOT_FOUND. */
export async function ownerOf(db: Kysely<Database>, requestId: number): Promise<number> {
  const row = await db.selectFrom('leave_requests').select('user_id').where('id', '=', requestId).executeTakeFirst();
  if (!row) throw requestNotFound();
  return row.user_id;
}

/**
 * Whether an admin may decide a request of its own: only where nobody else could, an instance with
 * this one active admin and no other account with the role `lead`.
 */
export async function mayDecideOwn(db: Kysely<Database>, actor: Actor): Promise<boolean> {
  if (actor.role !== 'admin') return false;
  const others = await db
    .selectFrom('users')
    .innerJoin('auth_info', 'auth_info.user_id', 'users.id')
    .select('users.id')
    .where('users.id', '!=', actor.userId)
    .where('users.role', 'in', ['admin', 'lead'])
    .where('auth_info.status', '=', 'active')
    .executeTakeFirst();
  return others === undefined;
}

async function applyToAbsences(trx: Transaction<Database>, userId: number, requestId: number, from: LeaveRequestState, to: LeaveRequestState) {
  const absences = trx.updateTable('absences').where('user_id', '=', userId).where('request_id', '=', requestId);
  if (from === 'requested' && to === 'approved') await absences.set({ state: 'approved' }).execute();
  if (ENDED.includes(to)) await trx.deleteFrom('absences').where('user_id', '=', userId).where('request_id', '=', requestId).execute();
}

/** The month lock (docs/teams.md, "The lock"): the team layer's own side of the port. */
const MONTH_LOCK = createMonthLock();

/** Whether a step makes the request's days count (approved) or stop counting (cancelled). */
function changesFigures(from: LeaveRequestState, to: LeaveRequestState): boolean {
  return (from === 'requested' && to === 'approved') || (from === 'cancel_requested' && to === 'cancelled');
}

export interface StepTaken {
  from: LeaveRequestState;
  to: LeaveRequestState;
}

/**
 * Takes `step` on the request in one transaction that locks its person first; a decision (approve,
 * reject) records who (`deciderId`, null at the shell), when and the note.
 */
export async function takeStep(
  database: TransactionalDatabase,
  now: string,
  request: { id: number; userId: number },
  step: Step,
  decision?: { deciderId: number | null; note: string | null },
): Promise<StepTaken> {
  return database.transact(async (trx) => {
    await database.lockUser(trx, request.userId);
    const row = await trx.selectFrom('leave_requests').select(['state', 'from_date', 'to_date']).where('id', '=', request.id).executeTakeFirst();
    if (!row) throw requestNotFound();
    const next = NEXT[step][row.state];
    if (next === undefined) throw alreadyDecided(step, row.state);
    // Approving the days, or their cancellation, changes the figures of their months: not of a closed one.
    if (changesFigures(row.state, next)) await MONTH_LOCK.assertOpen(trx, request.userId, row.from_date, row.to_date);
    await applyToAbsences(trx, request.userId, request.id, row.state, next);
    const decided = decision === undefined ? {} : { decided_by: decision.deciderId, decided_at: now, decision_note: decision.note };
    await trx
      .updateTable('leave_requests')
      .set({ state: next, ...decided })
      .where('id', '=', request.id)
      .execute();
    // The person hears of a decision under the bell and by mail (docs/notices.md), once per decision (a
    // cancellation may be asked for and refused more than once: the time tells the decisions apart).
    if (decision !== undefined) {
      const cancellation = row.state === 'cancel_requested';
      const data = { request: request.id, approved: step === 'approve', cancellation, from: row.from_date, to: row.to_date, note: decision.note };
      await recordNotice(trx, { userId: request.userId, kind: 'request-decided', key: `request-decided:${request.id}:${row.state}>${next}:${now}`, data });
    }
    return { from: row.state, to: next };
  });
}
