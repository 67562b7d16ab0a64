// Where the browser test types its entry by hand, built from the clock so that the test passes at
// every hour of every day: the entry lies within one local day (no span across midnight or a week's
// end, where the week's total would split), away from any clock change (every wall-clock time typed
// exists once), and ends well before now (never in the way of the timer entry the test made just
// before). Today when it has room, else the day before (which is last week on a Monday morning).
import { DateTime } from 'luxon';

export interface EntryPlan {
  /** The entry's start, in the account's zone, on a whole minute. */
  start: DateTime;
  /** start + minutes. */
  end: DateTime;
  minutes: number;
  /** Whether the entry is in now's week (Monday to Sunday), so that the test knows to page back. */
  thisWeek: boolean;
}

/** Minutes between the entry's end and now: the timer entry of the test started a moment before now. */
export const ENTRY_CLEARANCE_MINUTES = 15;

/** No clock change within this many hours of the entry (a repeated hour makes a typed time ambiguous). */
const CLOCK_CHANGE_MARGIN_HOURS = 3;

function clearOfClockChanges(start: DateTime, end: DateTime): boolean {
  const offsets = [start.minus({ hours: CLOCK_CHANGE_MARGIN_HOURS }), start, end, end.plus({ hours: CLOCK_CHANGE_MARGIN_HOURS })].map(
    (instant) => instant.offset,
  );
  return offsets.every((offset) => offset === start.offset);
}

/**
 * The latest start of an entry of `minutes` on today's or an earlier local date of `now` that ends
 * ENTRY_CLEARANCE_MINUTES before now, on the same date as it starts, clear of clock changes.
 */
export function planEntry(now: DateTime, minutes = 90): EntryPlan {
  const latestEnd = now.startOf('minute').minus({ minutes: ENTRY_CLEARANCE_MINUTES });
  for (let daysBack = 0; daysBack <= 3; daysBack++) {
    const day = now.startOf('day').minus({ days: daysBack });
    const dayEnd = day.plus({ days: 1 }).startOf('day');
    // The latest start on this date, then earlier in steps of half an hour.
    let start = DateTime.min(latestEnd, dayEnd.minus({ minutes: 1 }))
      .minus({ minutes })
      .startOf('minute');
    for (; start >= day; start = start.minus({ minutes: 30 })) {
      const end = start.plus({ minutes });
      const sameDate = start.toISODate() === day.toISODate() && end.minus({ milliseconds: 1 }).toISODate() === day.toISODate();
      if (sameDate && end <= latestEnd && clearOfClockChanges(start, end)) {
        return { start, end, minutes, thisWeek: start.startOf('week').toISODate() === now.startOf('week').toISODate() };
      }
    }
  }
  throw new Error(`no place for an entry of ${minutes} minutes before ${now.toISO()}`);
}
