// The team layer's side of the MonthLock port (src/time/month-lock.ts; docs/teams.md, "Closed
// months"): a change to a day of an approved or locked month is refused with MONTH_LOCKED. Asked
// inside the writing service's transaction, after it locked the account's row; approving locks that
// row too, so a write and an approval of one account never pass each other.
import type { Transaction } from 'kysely';
import type { Database, LocalDate } from '../../db/types.js';
import { MonthLockedError, type MonthLock } from '../../time/month-lock.js';

/** States whose days no longer change. */
export const CLOSED_STATES = ['approved', 'locked'] as const;

export function createMonthLock(): MonthLock {
  return {
    async assertOpen(trx: Transaction<Database>, userId: number, from: LocalDate, through: LocalDate): Promise<void> {
      const closed = await trx
        .selectFrom('months')
        .select('month')
        .where('user_id', '=', userId)
        .where('state', 'in', CLOSED_STATES)
        .where('month', '>=', from.slice(0, 7))
        .where('month', '<=', through.slice(0, 7))
        .orderBy('month')
        .limit(1)
        .executeTakeFirst();
      if (closed) throw new MonthLockedError(closed.month);
    },
  };
}
