// The team layer's side of the absence service's LeaveApproval port (src/time/absences/approval.ts;
// docs/teams.md, "Leave requests"): a person's vacation waits for a lead when at least one of the
// person's teams requires approval, and its request row is written in the booking's transaction.
import type { Transaction } from 'kysely';
import type { Database } from '../../db/types.js';
import type { LeaveApproval, RequestedLeave } from '../../time/absences/approval.js';

async function required(trx: Transaction<Database>, userId: number): Promise<boolean> {
  const team = await trx
    .selectFrom('team_members')
    .innerJoin('teams', 'teams.id', 'team_members.team_id')
    .select('teams.id')
    .where('team_members.user_id', '=', userId)
    .where('teams.absence_approval', '=', 'required')
    .executeTakeFirst();
  return team !== undefined;
}

async function open(trx: Transaction<Database>, request: RequestedLeave): Promise<void> {
  await trx
    .insertInto('leave_requests')
    .values({
      id: request.id,
      user_id: request.userId,
      state: 'requested',
      type: 'vacation',
      from_date: request.from,
      to_date: request.to,
      portion: request.portion,
      half_days: request.halfDays,
      exceeds_allowance: request.exceedsAllowance ? 1 : 0,
      decided_by: null,
      decided_at: null,
      decision_note: null,
      created_at: request.createdAt,
    })
    .execute();
}

export const teamLeaveApproval: LeaveApproval = { required, open };
