// The month of the timesheet: its days with their first start and last end, and the balance carried
// in and out.
import type { LocalDate } from '../../db/types.js';
import { validationError } from '../../common/errors.js';
import { addDays, localDateOf, parseDate, splitByLocalDay, startOfDay, toIso, zoneOn } from '../calendar/dates.js';
import { entriesOverlapping } from '../entries/store.js';
import { periodFigures } from './balance.js';
import { accountContext } from './context.js';
import { dayFigures, MINUTE_MS, sumOf } from './days.js';
import type { MonthFigures, StatisticsDeps } from './types.js';

/**
 * The month (YYYY-MM; default: this month in the user's zone) day by day, with each day's first
 * start and last end, the totals, and the balance carried in and out.
 */
export async function monthFigures(deps: StatisticsDeps, userId: number, month?: string): Promise<MonthFigures> {
  const context = await accountContext(deps, userId);
  const { settings, nowMs } = context;
  const today = localDateOf(nowMs, settings.zones);
  const shown = month ?? today.slice(0, 7);
  if (!/^\d{4}-\d{2}$/.test(shown)) throw validationError('month must be YYYY-MM', 'month');
  const first = parseDate(`${shown}-01`, 'month');
  const last = addDays(
    Number(shown.slice(5, 7)) === 12
      ? `${Number(shown.slice(0, 4)) + 1}-01-01`
      : `${shown.slice(0, 5)}${String(Number(shown.slice(5, 7)) + 1).padStart(2, '0')}-01`,
    -1,
  );
  const { rows: days } = await dayFigures(deps.db, context, first, last);
  // First start and last end of each day, from the month's entries (their pieces of each day).
  const spans = new Map<LocalDate, { first: number; last: number | null }>();
  const zone = settings.zones;
  for (const entry of await entriesOverlapping(deps.db, userId, { from: toIso(startOfDay(first, zone)), to: toIso(startOfDay(addDays(last, 1), zone)) })) {
    const startMs = Date.parse(entry.start_at);
    const limitMs = settings.timer_limit_minutes === null ? Infinity : startMs + settings.timer_limit_minutes * MINUTE_MS;
    const endMs = entry.end_at === null ? Math.min(nowMs, limitMs) : Date.parse(entry.end_at);
    let cursor = startMs;
    for (const piece of splitByLocalDay(startMs, Math.max(endMs, startMs + 1), zone)) {
      const pieceEnd = cursor + piece.ms;
      const span = spans.get(piece.date) ?? { first: cursor, last: 0 };
      span.first = Math.min(span.first, cursor);
      span.last = entry.end_at === null && pieceEnd >= endMs ? null : span.last === null ? null : Math.max(span.last, pieceEnd);
      spans.set(piece.date, span);
      cursor = pieceEnd;
    }
  }
  const yesterday = addDays(today, -1);
  const before = addDays(first, -1) < yesterday ? addDays(first, -1) : yesterday;
  const carried = settings.overtime_offset_minutes + (await periodFigures(deps.db, context, settings.tracking_start, before)).balance_minutes;
  // The month's complete days: carried in + their balance = the balance at the month's end (or through yesterday).
  const totals = sumOf(days);
  return {
    month: shown,
    timezone: zoneOn(first, zone),
    // The zones of the month's days, each from its first day in the month.
    zones: [{ valid_from: first, timezone: zoneOn(first, zone) }, ...zone.slice(1).filter((entry) => entry.valid_from > first && entry.valid_from <= last)],
    days: days.map((day) => {
      const span = spans.get(day.date);
      return { ...day, first_start: span ? toIso(span.first) : null, last_end: span && span.last !== null ? toIso(span.last) : null };
    }),
    totals,
    balance_before_minutes: carried,
    balance_after_minutes: carried + totals.balance_minutes,
    balance_through: last < yesterday ? last : yesterday,
  };
}
