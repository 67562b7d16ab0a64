// Leave requests (docs/teams.md, "Leave requests"; docs/api.md, "Leave requests"): the list of one's
// own requests or of the people within a lead's or an admin's reach, the decisions through `can`
// (access.ts; a request of one's own is SELF_APPROVAL), and the person's withdrawal and cancellation.
// Every decision is audited with its actor.
import type { TransactionalDatabase } from '../../db/database.js';
import type { LeaveRequestState } from '../../db/types.js';
import type { Clock } from '../../common/clock.js';
import type { AuditService } from '../../auth/audit.js';
import { ServiceError } from '../../common/errors.js';
import { normalizeNote } from '../../time/entries/rules.js';
import { requireAllowed, type Actor } from '../access.js';
import { relationToPerson } from '../members.js';
import { mayDecideOwn, ownerOf, takeStep, type Step } from './decide.js';
import { listRequests, requestById, requestNotFound, type LeaveRequest } from './store.js';

export { teamLeaveApproval } from './approval.js';
export { LEAVE_REQUEST_STATES, type LeaveRequest } from './store.js';

export interface LeaveRequestDeps {
  database: TransactionalDatabase;
  clock: Clock;
  audit: Pick<AuditService, 'record'>;
}

export interface RequestListQuery {
  state?: LeaveRequestState;
  /** `own` (default): the actor's own requests; `team`: a lead's people's, an admin's everyone's. */
  scope?: 'own' | 'team';
  /** With `team`, an admin's (or the operator's) list of one account only. */
  userId?: number;
}

/** How a decision is recorded: the note, and the actor as the audit trail names it (default `user:<id>`). */
export interface DecisionOptions {
  note?: string;
  auditActor?: string;
}

function listFor(deps: LeaveRequestDeps, actor: Actor, query: RequestListQuery): Promise<LeaveRequest[]> {
  const { db } = deps.database;
  if ((query.scope ?? 'own') === 'own') return listRequests(db, { userId: actor.userId }, query.state);
  if (actor.role === 'admin') return listRequests(db, query.userId === undefined ? 'all' : { userId: query.userId }, query.state);
  if (actor.role === 'lead') return listRequests(db, { ledBy: actor.userId }, query.state);
  throw new ServiceError('FORBIDDEN', 'Your role may not do this (requests of a team)');
}

async function decide(deps: LeaveRequestDeps, actor: Actor, requestId: number, step: 'approve' | 'reject', options: DecisionOptions): Promise<LeaveRequest> {
  const { db } = deps.database;
  const userId = await ownerOf(db, requestId);
  const relation = await relationToPerson(db, actor.userId, userId);
  if (relation === 'self' && actor.role !== 'member' && !(await mayDecideOwn(db, actor))) {
    throw new ServiceError('SELF_APPROVAL', 'Nobody decides their own leave request: another lead or an admin does');
  }
  requireAllowed(actor, 'requests.decide', { kind: 'person', relation }, requestNotFound);
  const note = options.note === undefined ? null : normalizeNote(options.note) || null;
  const taken = await takeStep(deps.database, deps.clock.now().toISOString(), { id: requestId, userId }, step, {
    deciderId: actor.userId === 0 ? null : actor.userId,
    note,
  });
  await deps.audit.record({
    action: 'leave_request_decided',
    actor: options.auditActor ?? `user:${actor.userId}`,
    userId,
    detail: { request: requestId, decision: step, from: taken.from, to: taken.to, ...(note === null ? {} : { note }) },
  });
  return (await requestById(db, requestId))!;
}

/** Withdrawing or asking to cancel: the person's own request only (anyone else's is NOT_FOUND, as for an absence). */
async function ownStep(deps: LeaveRequestDeps, actor: Actor, requestId: number, step: Extract<Step, 'withdraw' | 'cancel'>): Promise<LeaveRequest> {
  const { db } = deps.database;
  const userId = await ownerOf(db, requestId);
  if (userId !== actor.userId) throw requestNotFound();
  await takeStep(deps.database, deps.clock.now().toISOString(), { id: requestId, userId }, step);
  return (await requestById(db, requestId))!;
}

export function createLeaveRequestService(deps: LeaveRequestDeps) {
  return {
    list: (actor: Actor, query: RequestListQuery = {}) => listFor(deps, actor, query),
    approve: (actor: Actor, requestId: number, options: DecisionOptions = {}) => decide(deps, actor, requestId, 'approve', options),
    reject: (actor: Actor, requestId: number, options: DecisionOptions = {}) => decide(deps, actor, requestId, 'reject', options),
    withdraw: (actor: Actor, requestId: number) => ownStep(deps, actor, requestId, 'withdraw'),
    cancel: (actor: Actor, requestId: number) => ownStep(deps, actor, requestId, 'cancel'),
  };
}

export type LeaveRequestService = ReturnType<typeof createLeaveRequestService>;
