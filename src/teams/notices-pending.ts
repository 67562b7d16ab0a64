// What waits for a lead (docs/notices.md, "The lead's digest"): the leave requests and the submitted
// months of the people in the teams the lead leads (never the lead's own: nobody decides those), as
// the digest's providers. Each is one statement.
import type { Kysely } from 'kysely';
import type { Database } from '../db/types.js';
import type { PendingItem, PendingProvider } from './notices-reminders.js';

/** The accounts in the teams `leadId` leads, the lead itself left out. */
function peopleLedBy(db: Kysely<Database>, leadId: number) {
  return db
    .selectFrom('team_members as led')
    .innerJoin('team_members as lead', 'lead.team_id', 'led.team_id')
    .select('led.user_id')
    .where('lead.user_id', '=', leadId)
    .where('lead.role', '=', 'lead')
    .where('led.user_id', '!=', leadId);
}

/** Leave requests waiting for a decision: asked for, or their cancellation asked for. */
export function pendingLeaveRequests(db: Kysely<Database>): PendingProvider {
  return {
    async pending(leadId: number): Promise<PendingItem[]> {
      const rows = await db
        .selectFrom('leave_requests')
        .innerJoin('users', 'users.id', 'leave_requests.user_id')
        .select(['leave_requests.id', 'leave_requests.state', 'leave_requests.from_date', 'leave_requests.to_date', 'users.full_name'])
        .where('leave_requests.state', 'in', ['requested', 'cancel_requested'])
        .where('leave_requests.user_id', 'in', peopleLedBy(db, leadId))
        .orderBy('leave_requests.id')
        .execute();
      return rows.map((row) => ({
        kind: row.state === 'requested' ? 'leave-request' : 'leave-cancellation',
        id: row.id,
        person: row.full_name,
        summary: `${row.state === 'requested' ? 'vacation' : 'cancellation of vacation'} ${row.from_date}${row.to_date === row.from_date ? '' : ` to ${row.to_date}`}`,
      }));
    },
  };
}

/** Months submitted and not yet approved or returned. */
export function pendingMonths(db: Kysely<Database>): PendingProvider {
  return {
    async pending(leadId: number): Promise<PendingItem[]> {
      const rows = await db
        .selectFrom('months')
        .innerJoin('users', 'users.id', 'months.user_id')
        .select(['months.user_id', 'months.month', 'users.full_name'])
        .where('months.state', '=', 'submitted')
        .where('months.user_id', 'in', peopleLedBy(db, leadId))
        .orderBy('months.month')
        .orderBy('months.user_id')
        .execute();
      return rows.map((row) => ({ kind: 'month', id: `${row.user_id}:${row.month}`, person: row.full_name, summary: `month ${row.month} submitted` }));
    },
  };
}
