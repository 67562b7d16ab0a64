// Rebuilds every user's per-day totals under the corrected day boundary: a local day starts at the
// first instant whose local date is that date (where midnight is skipped, when the clock jumps; where it
// is repeated, at the first pass). Totals written before could put an hour on the wrong day, or on no
// day, depending on the date the server had when the entry was written.
// Frozen in time: uses Kysely<any> and its own copy of the day rule, never the application's code.
import { DateTime } from 'luxon';
import type { Kysely } from 'kysely';

const LARGEST_CLOCK_CHANGE_MS = 26 * 3_600_000;
const DAY_MS = 86_400_000;

function localDateOf(ms: number, zone: string): string {
  return DateTime.fromMillis(ms, { zone }).toISODate() as string;
}

function nextDate(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + DAY_MS).toISOString().slice(0, 10);
}

function startOfDay(date: string, zone: string, cache: Map<string, number>): number {
  const cached = cache.get(date);
  if (cached !== undefined) return cached;
  const reached = (ms: number) => localDateOf(ms, zone) >= date;
  const guess = DateTime.fromISO(date, { zone }).toMillis();
  let start = guess;
  if (!(reached(guess) && !reached(guess - 1))) {
    let before = guess - LARGEST_CLOCK_CHANGE_MS;
    let after = guess + LARGEST_CLOCK_CHANGE_MS;
    while (after - before > 1) {
      const middle = Math.floor((before + after) / 2);
      if (reached(middle)) after = middle;
      else before = middle;
    }
    start = after;
  }
  cache.set(date, start);
  return start;
}

export async function up(db: Kysely<any>): Promise<void> {
  const users: Array<{ id: number; timezone: string | null }> = await db
    .selectFrom('users')
    .leftJoin('user_settings', 'user_settings.user_id', 'users.id')
    .select(['users.id as id', 'user_settings.timezone as timezone'])
    .execute();
  for (const user of users) {
    const zone = user.timezone ?? 'UTC';
    const dayStarts = new Map<string, number>();
    const totals = new Map<string, number>();
    const entries: Array<{ start_at: string; end_at: string }> = await db
      .selectFrom('time_entries')
      .select(['start_at', 'end_at'])
      .where('user_id', '=', user.id)
      .where('end_at', 'is not', null)
      .execute();
    for (const entry of entries) {
      const endMs = Date.parse(entry.end_at);
      let cursor = Date.parse(entry.start_at);
      while (cursor < endMs) {
        const date = localDateOf(cursor, zone);
        const pieceEnd = Math.min(endMs, startOfDay(nextDate(date), zone, dayStarts));
        totals.set(date, (totals.get(date) ?? 0) + pieceEnd - cursor);
        cursor = pieceEnd;
      }
    }
    await db.deleteFrom('daily_totals').where('user_id', '=', user.id).execute();
    for (const [date, workedMs] of totals) {
      await db.insertInto('daily_totals').values({ user_id: user.id, date, worked_ms: workedMs }).execute();
    }
  }
}

// The totals before this migration were wrong on some days; the corrected ones are kept.
export async function down(): Promise<void> {}
