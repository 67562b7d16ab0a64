// Reading leave requests (docs/teams.md, "Leave requests"; docs/api.md, "Leave requests"): one by id,
// or a list by person, state and reach, each with its person and who decided last.
import type { Kysely } from 'kysely';
import type { Database, LeaveRequestState, LocalDate } from '../../db/types.js';
import { ServiceError } from '../../common/errors.js';
import { peopleLedBy } from '../members.js';

export const LEAVE_REQUEST_STATES: readonly LeaveRequestState[] = ['requested', 'approved', 'rejected', 'withdrawn', 'cancel_requested', 'cancelled'];
/** The most requests one list answers, newest first. */
export const MAX_LISTED_REQUESTS = 500;

export interface LeaveRequest {
  id: number;
  person: { id: number; email: string; full_name: string };
  type: 'vacation';
  from: LocalDate;
  to: LocalDate;
  portion: 'full' | 'half';
  days: number;
  state: LeaveRequestState;
  exceeds_allowance: boolean;
  /** The lead's note with the last decision. */
  note: string | null;
  /** Who decided last: null before any decision, at the shell, or when that account is gone. */
  decided_by: { id: number; full_name: string } | null;
  decided_at: string | null;
  created_at: string;
}

export function requestNotFound(): ServiceError {
  return new ServiceError('NOT_FOUND', 'No such leave request');
}

/** Whose requests a list holds: one person's, the people of the teams a lead leads, or everyone's. */
export type RequestReach = { userId: number } | { ledBy: number } | 'all';

function selectRequests(db: Kysely<Database>) {
  return db
    .selectFrom('leave_requests as r')
    .innerJoin('users as person', 'person.id', 'r.user_id')
    .leftJoin('users as decider', 'decider.id', 'r.decided_by')
    .select([
      'r.id',
      'r.type',
      'r.from_date',
      'r.to_date',
      'r.portion',
      'r.half_days',
      'r.state',
      'r.exceeds_allowance',
      'r.decision_note',
      'r.decided_at',
      'r.created_at',
      'person.id as person_id',
      'person.email as person_email',
      'person.full_name as person_name',
      'decider.id as decider_id',
      'decider.full_name as decider_name',
    ]);
}

type Row = Awaited<ReturnType<ReturnType<typeof selectRequests>['executeTakeFirstOrThrow']>>;

function publicRequest(row: Row): LeaveRequest {
  return {
    id: row.id,
    person: { id: row.person_id, email: row.person_email, full_name: row.person_name },
    type: row.type,
    from: row.from_date,
    to: row.to_date,
    portion: row.portion,
    days: row.half_days / 2,
    state: row.state,
    exceeds_allowance: Number(row.exceeds_allowance) === 1,
    note: row.decision_note,
    decided_by: row.decider_id === null || row.decider_name === null ? null : { id: row.decider_id, full_name: row.decider_name },
    decided_at: row.decided_at,
    created_at: row.created_at,
  };
}

export async function requestById(db: Kysely<Database>, requestId: number): Promise<LeaveRequest | undefined> {
  const row = await selectRequests(db).where('r.id', '=', requestId).executeTakeFirst();
  return row && publicRequest(row);
}

/** The requests within `reach`, in `state` if given, newest first (at most MAX_LISTED_REQUESTS). */
export async function listRequests(db: Kysely<Database>, reach: RequestReach, state?: LeaveRequestState): Promise<LeaveRequest[]> {
  let query = selectRequests(db);
  if (reach !== 'all' && 'userId' in reach) query = query.where('r.user_id', '=', reach.userId);
  if (reach !== 'all' && 'ledBy' in reach) {
    // The people of the teams the lead leads, not the lead itself (nobody decides their own).
    query = query.where('r.user_id', 'in', peopleLedBy(db, reach.ledBy));
  }
  if (state !== undefined) query = query.where('r.state', '=', state);
  const rows = await query.orderBy('r.id', 'desc').limit(MAX_LISTED_REQUESTS).execute();
  return rows.map(publicRequest);
}
