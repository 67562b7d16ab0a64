// Reading the stored per-day totals of finished entries (the daily_totals table ./store.ts keeps), for
// the figures: of one account, or of several in one statement (a lead's overview).
import type { Kysely } from 'kysely';
import type { Database, LocalDate } from '../../db/types.js';
import type { DayTotal } from './store.js';

/** Worked and break ms of finished entries per local day, from `from` through `through`. */
export async function dailyTotals(executor: Kysely<Database>, userId: number, from: LocalDate, through: LocalDate): Promise<Map<LocalDate, DayTotal>> {
  return (await dailyTotalsOf(executor, [userId], from, through)).get(userId)!;
}

/** dailyTotals of each of `userIds` (every one present, maybe empty), in one statement. */
export async function dailyTotalsOf(
  executor: Kysely<Database>,
  userIds: readonly number[],
  from: LocalDate,
  through: LocalDate,
): Promise<Map<number, Map<LocalDate, DayTotal>>> {
  const found = new Map(userIds.map((userId) => [userId, new Map<LocalDate, DayTotal>()]));
  if (userIds.length === 0 || through < from) return found;
  const rows = await executor
    .selectFrom('daily_totals')
    .select(['user_id', 'date', 'worked_ms', 'break_ms'])
    .where('user_id', 'in', userIds)
    .where('date', '>=', from)
    .where('date', '<=', through)
    .execute();
  for (const row of rows) found.get(row.user_id)!.set(row.date, { workedMs: row.worked_ms, breakMs: row.break_ms });
  return found;
}
