// The entries of a week by local day, as the server counts them (docs/time-model.md, Local days): an
// entry across midnight is split there and shows on both days. The day totals are the server's figures
// (the week's day rows), never summed here.
import { DateTime } from 'luxon';
import type { Entry } from '../../http/contract.js';

/** An entry's piece of one local day: its whole minutes that day, and whether it began the day before. */
export interface EntryPiece {
  entry: Entry;
  minutes: number;
  continued: boolean;
}

/** The pieces of `entries` by local date in `zone`, for the dates from `from` up to (not including) `to`; a running entry runs to `nowMs`. */
export function piecesByDay(entries: readonly Entry[], zone: string, from: string, to: string, nowMs: number): Map<string, EntryPiece[]> {
  const days = new Map<string, EntryPiece[]>();
  for (const entry of entries) {
    const startMs = Date.parse(entry.start_at);
    const endMs = Math.max(startMs, entry.end_at ? Date.parse(entry.end_at) : nowMs);
    let dayStart = DateTime.fromMillis(startMs, { zone }).startOf('day');
    let first = true;
    // At least the start's day, then each further day the entry reaches.
    while (first || dayStart.toMillis() < endMs) {
      const nextDay = dayStart.plus({ days: 1 });
      const date = dayStart.toISODate() as string;
      const pieceMs = Math.min(endMs, nextDay.toMillis()) - Math.max(startMs, dayStart.toMillis());
      if (date >= from && date < to) days.set(date, [...(days.get(date) ?? []), { entry, minutes: Math.floor(pieceMs / 60_000), continued: !first }]);
      dayStart = nextDay;
      first = false;
    }
  }
  return new Map([...days].sort(([a], [b]) => a.localeCompare(b)));
}
