// A user's time zone is a history (docs/time-model.md, Time zone history): each zone applies from a
// date on, and a day counts in the zone in force on it (the latest one whose valid_from is on or
// before the day; days before the earliest count in the earliest). A day always starts where the day
// before ended, so no instant counts twice or never: the day of a change starts where the previous day
// ended in the old zone, and ends at the next midnight of the new zone (it may be shorter or longer
// than 24 hours, as a DST day is). Should the new zone's next midnight come before that start (a jump
// east of more than a day, such as from -11:00 to +14:00), the day of the change is empty and the next
// day starts where it started.
import type { LocalDate } from '../../db/types.js';
import { addDays, localDateIn, startOfDayIn } from './day-starts.js';

/** One zone of a history: in force from `valid_from` until the next entry's. */
export interface ZoneEntry {
  valid_from: LocalDate;
  timezone: string;
}

/** One zone for every day, or a user's zone history (oldest first). */
export type DayZones = string | readonly ZoneEntry[];

/**
 * The history as it counts: sorted by valid_from, an entry whose zone equals the one before it dropped
 * (it changes no day), never empty (nothing stored: UTC).
 */
export function normalizeZones(entries: readonly ZoneEntry[]): ZoneEntry[] {
  const sorted = [...entries].sort((a, b) => (a.valid_from < b.valid_from ? -1 : a.valid_from > b.valid_from ? 1 : 0));
  const kept: ZoneEntry[] = [];
  for (const entry of sorted) if (kept.at(-1)?.timezone !== entry.timezone) kept.push({ valid_from: entry.valid_from, timezone: entry.timezone });
  return kept.length > 0 ? kept : [{ valid_from: '1970-01-01', timezone: 'UTC' }];
}

/** Whether two histories count every day alike (both normalised). */
export function sameZones(a: readonly ZoneEntry[], b: readonly ZoneEntry[]): boolean {
  return a.length === b.length && a.every((entry, index) => entry.valid_from === b[index]?.valid_from && entry.timezone === b[index]?.timezone);
}

/** Where each day of a zone history starts, and which day an instant falls on. */
export class ZoneTimeline {
  readonly entries: readonly ZoneEntry[];
  private readonly starts = new Map<LocalDate, number>();
  private readonly changes: ReadonlySet<LocalDate>;

  constructor(entries: readonly ZoneEntry[]) {
    this.entries = normalizeZones(entries);
    this.changes = new Set(this.entries.slice(1).map((entry) => entry.valid_from));
  }

  /** The zone in force on `date`. */
  zoneOn(date: LocalDate): string {
    let zone = this.entries[0]!.timezone;
    for (const entry of this.entries) {
      if (entry.valid_from > date) break;
      zone = entry.timezone;
    }
    return zone;
  }

  /** The first instant of `date`: the next midnight, in its zone, of the day before (never before that day's start). */
  startOf(date: LocalDate): number {
    let start = this.starts.get(date);
    if (start === undefined) {
      const before = addDays(date, -1);
      start = startOfDayIn(date, this.zoneOn(before));
      // Only the day after a change can end before it starts (a jump east of more than a day).
      if (this.changes.has(before)) start = Math.max(start, this.startOf(before));
      this.starts.set(date, start);
    }
    return start;
  }

  /** The day whose span holds the instant `ms`. */
  dateOf(ms: number): LocalDate {
    let index = this.entries.length - 1;
    while (index > 0 && this.startOf(this.entries[index]!.valid_from) > ms) index--;
    const entry = this.entries[index]!;
    // The day of a change starts where the day before ended in the old zone: not at a midnight of its own zone.
    if (index > 0 && ms < this.startOf(addDays(entry.valid_from, 1))) return entry.valid_from;
    return localDateIn(ms, entry.timezone);
  }
}

const timelines = new WeakMap<readonly ZoneEntry[], ZoneTimeline>();

/** The timeline of a history, made once per history object (a request's settings hold one). */
export function zoneTimeline(entries: readonly ZoneEntry[]): ZoneTimeline {
  let timeline = timelines.get(entries);
  if (timeline === undefined) {
    timeline = new ZoneTimeline(entries);
    timelines.set(entries, timeline);
  }
  return timeline;
}
