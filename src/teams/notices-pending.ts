// What waits for a lead (docs/notices.md, "The lead's digest"): the leave requests and the submitted
// months of the people in the teams the lead leads (never the lead's own: nobody decides those), as
// the digest's providers. Each is one statement.
import type { Kysely } from 'kysely';
import type { Database } from '../db/types.js';
import type { PendingItem, PendingProvider } from './notices-reminders.js';
import { listRequests } from './requests/store.js';

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

/** Leave requests waiting for a decision (asked for, or their cancellation asked for): the lead's reach of GET /api/requests. */
export function pendingLeaveRequests(db: Kysely<Database>): PendingProvider {
  return {
    async pending(leadId: number): Promise<PendingItem[]> {
      const waiting = [...(await listRequests(db, { ledBy: leadId }, 'requested')), ...(await listRequests(db, { ledBy: leadId }, 'cancel_requested'))];
      return waiting
        .sort((a, b) => a.id - b.id)
        .map((request) => ({
          kind: request.state === 'requested' ? 'leave-request' : 'leave-cancellation',
          id: request.id,
          person: request.person.full_name,
          summary: `${request.state === 'requested' ? 'vacation' : 'cancellation of vacation'} ${request.from}${request.to === request.from ? '' : ` to ${request.to}`}`,
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
