// A team's months lock by themselves (docs/teams.md, "Closed months"): with `auto_lock_after_days`
// set, housekeeping locks each member's month once that many days have passed since its last day
// (in UTC), approved or not. Each round looks at the latest month that is due: a month that is still
// open, submitted or returned becomes `locked`. Each member is its own transaction that locks the
// account first, like every other change of a month, and the write is conditional (only from those
// states), so two processes running housekeeping at once lock a month once.
import type { TransactionalDatabase } from '../../db/database.js';
import type { Clock } from '../../common/clock.js';
import { addDays } from '../../time/calendar/day-starts.js';

/** The latest month whose last day lies more than `days` days before `today` (YYYY-MM-DD, UTC). */
export function dueMonth(today: string, days: number): string {
  const lastDay = addDays(today, -days - 1);
  // The month of that day is due only if the day is its last; otherwise the month before it.
  const next = addDays(lastDay, 1);
  if (next.slice(0, 7) !== lastDay.slice(0, 7)) return lastDay.slice(0, 7);
  const firstOfMonth = `${lastDay.slice(0, 7)}-01`;
  return addDays(firstOfMonth, -1).slice(0, 7);
}

/** Answers how many months were locked. */
export async function lockOverdueMonths({ database, clock }: { database: TransactionalDatabase; clock: Clock }): Promise<number> {
  const now = clock.now();
  const today = now.toISOString().slice(0, 10);
  const members = await database.db
    .selectFrom('teams')
    .innerJoin('team_members', 'team_members.team_id', 'teams.id')
    .select(['team_members.user_id', 'teams.auto_lock_after_days'])
    .where('teams.auto_lock_after_days', 'is not', null)
    .execute();
  // A member of several teams: the shortest delay decides.
  const delays = new Map<number, number>();
  for (const { user_id, auto_lock_after_days } of members) {
    delays.set(user_id, Math.min(delays.get(user_id) ?? Infinity, auto_lock_after_days!));
  }
  let locked = 0;
  for (const [userId, days] of delays) {
    const month = dueMonth(today, days);
    const done = await database.transact(async (trx) => {
      await database.lockUser(trx, userId);
      const result = await trx
        .insertInto('months')
        .values({ user_id: userId, month, state: 'locked', decided_at: now.toISOString(), decided_by: null })
        .onConflict((conflict) =>
          conflict
            .columns(['user_id', 'month'])
            .doUpdateSet({ state: 'locked', decided_at: now.toISOString(), decided_by: null })
            .where('months.state', 'in', ['open', 'submitted', 'returned']),
        )
        .executeTakeFirst();
      return Number(result.numInsertedOrUpdatedRows ?? 0);
    });
    locked += done;
  }
  return locked;
}
