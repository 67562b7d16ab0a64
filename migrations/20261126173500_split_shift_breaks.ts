// Split shifts (docs/time-model.md, Break rules): a gap between a day's entries longer than the longest
// break, 3 hours, splits the shift and is no break. The breaks taken per day (`daily_totals.break_ms`)
// counted such gaps until now: this works them out again for the days where that can have happened
// (a day whose breaks add up to more than 3 hours), from that day's finished entries.
// Frozen in time: uses Kysely<any> and its own copy of the day rule (migration 009d's).
import { DateTime } from 'luxon';
import type { Kysely } from 'kysely';

const LARGEST_CLOCK_CHANGE_MS = 26 * 3_600_000;
const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;
const MAX_BREAK_MS = 180 * MINUTE_MS;

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

/** The breaks of these days: gaps of at least minBreakMs and at most MAX_BREAK_MS between a day's pieces of entries. */
async function breaksOf(db: Kysely<any>, userId: number, zone: string, minBreakMs: number, dates: string[]): Promise<Map<string, number>> {
  const dayStarts = new Map<string, number>();
  const breaks = new Map<string, number>(dates.map((date) => [date, 0]));
  const lastEnd = new Map<string, number>();
  const first = [...dates].sort()[0]!;
  const last = [...dates].sort().at(-1)!;
  // Every entry that can touch those days (an entry lasts at most 31 days), in start order.
  const entries: Array<{ start_at: string; end_at: string }> = await db
    .selectFrom('time_entries')
    .select(['start_at', 'end_at'])
    .where('user_id', '=', userId)
    .where('end_at', 'is not', null)
    .where('start_at', '>=', new Date(startOfDay(first, zone, dayStarts) - 32 * DAY_MS).toISOString())
    .where('start_at', '<', new Date(startOfDay(nextDate(last), zone, dayStarts)).toISOString())
    .orderBy('start_at')
    .execute();
  for (const entry of entries) {
    const endMs = Date.parse(entry.end_at);
    let cursor = Date.parse(entry.start_at);
    while (cursor < endMs) {
      const date = localDateOf(cursor, zone);
      const pieceEnd = Math.min(endMs, startOfDay(nextDate(date), zone, dayStarts));
      const previous = lastEnd.get(date);
      const gap = previous === undefined ? 0 : cursor - previous;
      if (breaks.has(date) && gap >= minBreakMs && gap <= MAX_BREAK_MS) breaks.set(date, breaks.get(date)! + gap);
      lastEnd.set(date, pieceEnd);
      cursor = pieceEnd;
    }
  }
  return breaks;
}

export async function up(db: Kysely<any>): Promise<void> {
  const days: Array<{ user_id: number; date: string }> = await db
    .selectFrom('daily_totals')
    .select(['user_id', 'date'])
    .where('break_ms', '>', MAX_BREAK_MS)
    .orderBy('user_id')
    .execute();
  const byUser = new Map<number, string[]>();
  for (const day of days) byUser.set(day.user_id, [...(byUser.get(day.user_id) ?? []), day.date]);
  for (const [userId, dates] of byUser) {
    const settings: { timezone: string | null; min_break_minutes: number | null } | undefined = await db
      .selectFrom('user_settings')
      .select(['timezone', 'min_break_minutes'])
      .where('user_id', '=', userId)
      .executeTakeFirst();
    const breaks = await breaksOf(db, userId, settings?.timezone ?? 'UTC', (settings?.min_break_minutes ?? 15) * MINUTE_MS, dates);
    for (const [date, breakMs] of breaks) {
      await db.updateTable('daily_totals').set({ break_ms: breakMs }).where('user_id', '=', userId).where('date', '=', date).execute();
    }
  }
}

// The breaks before this migration counted a split shift's gap; the corrected ones are kept.
export async function down(): Promise<void> {}
