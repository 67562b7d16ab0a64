// What waits for a lead (docs/notices.md, "The lead's digest"): the leave requests and the submitted
// months of the people in the teams the lead leads (never the lead's own: nobody decides those), as
// the digest's providers. Each is one statement.
import type { Kysely } from 'kysely';
import type { Database } from '../db/types.js';
import type { PendingItem, PendingProvider } from './notices-reminders.js';
import { listRequests } from './requests/store.js';
import { waitingMonths } from './months/store.js';

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
      const rows = await waitingMonths(db, { ledBy: leadId });
      return rows.map((row) => ({ kind: 'month', id: `${row.user.id}:${row.month}`, person: row.user.full_name, summary: `month ${row.month} submitted` }));
    },
  };
}
