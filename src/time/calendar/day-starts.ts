// Local days in one time zone: where a date starts (the first instant whose local date is that
// date), and the date of an instant. The zone histories (./zones.ts) and ./dates.ts build on these.
import { DateTime } from 'luxon';
import type { LocalDate } from '../../db/types.js';

const DAY_MS = 86_400_000;

// A local day starts at the first instant whose local date is that date, whatever the zone does at
// midnight (docs/time-model.md): where midnight is skipped the day starts when the clock jumps, where
// it is repeated it starts at the first pass. luxon resolves a local time that occurs twice by a guess
// that depends on the current date, and one that never occurs by shifting it: so its midnight is only
// the starting point of a search, and the answer is the instant at which luxon's own zone rules turn
// the local date over. Day starts are cached: every split of an entry asks for them.
const DAY_START_CACHE_LIMIT = 50_000;
const dayStarts = new Map<string, number>();
/** Local clocks move by at most this much at once (DST, or a zone changing its offset). */
const LARGEST_CLOCK_CHANGE_MS = 26 * 3_600_000;

/** The first instant of `date` in one zone, in ms. */
export function startOfDayIn(date: LocalDate, zone: string): number {
  const key = `${zone} ${date}`;
  let start = dayStarts.get(key);
  if (start === undefined) {
    start = firstInstantOfDate(date, zone);
    if (dayStarts.size >= DAY_START_CACHE_LIMIT) dayStarts.clear();
    dayStarts.set(key, start);
  }
  return start;
}

function firstInstantOfDate(date: LocalDate, zone: string): number {
  const reached = (ms: number) => localDateIn(ms, zone) >= date;
  const guess = DateTime.fromISO(date, { zone }).toMillis();
  if (reached(guess) && !reached(guess - 1)) return guess;
  // Binary search between an instant before the date and one on or after it.
  let before = guess - LARGEST_CLOCK_CHANGE_MS;
  let after = guess + LARGEST_CLOCK_CHANGE_MS;
  while (after - before > 1) {
    const middle = Math.floor((before + after) / 2);
    if (reached(middle)) after = middle;
    else before = middle;
  }
  return after;
}

/** The calendar date of an instant in one zone. */
export function localDateIn(ms: number, zone: string): LocalDate {
  return DateTime.fromMillis(ms, { zone }).toISODate() as LocalDate;
}

export function addDays(date: LocalDate, days: number): LocalDate {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}
