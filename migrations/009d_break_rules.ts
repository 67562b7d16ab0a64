// Break rules (docs/time-model.md): settings `break_rules` (JSON, empty: no rule) and
// `min_break_minutes` (default 15), and per day the breaks taken (`daily_totals.break_ms`: the gaps of
// at least that long between the day's finished entries), worked out here for every user's days.
// Frozen in time: uses Kysely<any> and its own copy of the day rule (migration 004's).
import { sql, type Kysely } from 'kysely';
import { DateTime } from 'luxon';

const LARGEST_CLOCK_CHANGE_MS = 26 * 3_600_000;
const DAY_MS = 86_400_000;
const MIN_BREAK_MS = 15 * 60_000;

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
  await db.schema
    .alterTable('user_settings')
    .addColumn('break_rules', 'text', (col) => col.notNull().defaultTo('[]'))
    .execute();
  await db.schema
    .alterTable('user_settings')
    .addColumn('min_break_minutes', 'integer', (col) =>
      col
        .notNull()
        .defaultTo(15)
        .check(sql`min_break_minutes between 1 and 240`),
    )
    .execute();
  await db.schema
    .alterTable('daily_totals')
    .addColumn('break_ms', 'integer', (col) => col.notNull().defaultTo(0))
    .execute();

  const users: Array<{ id: number; timezone: string | null }> = await db
    .selectFrom('users')
    .leftJoin('user_settings', 'user_settings.user_id', 'users.id')
    .select(['users.id as id', 'user_settings.timezone as timezone'])
    .execute();
  for (const user of users) {
    const zone = user.timezone ?? 'UTC';
    const dayStarts = new Map<string, number>();
    const breaks = new Map<string, number>();
    const lastEnd = new Map<string, number>();
    const entries: Array<{ start_at: string; end_at: string }> = await db
      .selectFrom('time_entries')
      .select(['start_at', 'end_at'])
      .where('user_id', '=', user.id)
      .where('end_at', 'is not', null)
      .orderBy('start_at')
      .execute();
    for (const entry of entries) {
      const endMs = Date.parse(entry.end_at);
      let cursor = Date.parse(entry.start_at);
      while (cursor < endMs) {
        const date = localDateOf(cursor, zone);
        const pieceEnd = Math.min(endMs, startOfDay(nextDate(date), zone, dayStarts));
        const previous = lastEnd.get(date);
        if (previous !== undefined && cursor - previous >= MIN_BREAK_MS) breaks.set(date, (breaks.get(date) ?? 0) + cursor - previous);
        lastEnd.set(date, pieceEnd);
        cursor = pieceEnd;
      }
    }
    for (const [date, breakMs] of breaks) {
      await db.updateTable('daily_totals').set({ break_ms: breakMs }).where('user_id', '=', user.id).where('date', '=', date).execute();
    }
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('daily_totals').dropColumn('break_ms').execute();
  await db.schema.alterTable('user_settings').dropColumn('min_break_minutes').execute();
  await db.schema.alterTable('user_settings').dropColumn('break_rules').execute();
}
