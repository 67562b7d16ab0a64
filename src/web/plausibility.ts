// What the entry editor asks once before saving (docs/web-client.md, Plausibility): a typed duration
// that reads as far too many hours ("45": minutes or hours?), an end before the start that makes the
// entry run overnight, an entry longer than 12 hours, and an entry on a public holiday or a day off.
// Each doubt names the field to go back to; a doubt the person confirmed is not asked again.

/** Longer than this, a manual entry is asked about. */
export const LONG_ENTRY_MINUTES = 12 * 60;

export type Doubt =
  | { kind: 'minutesOrHours'; field: 'duration'; typed: string }
  | { kind: 'overnight'; field: 'end_at' }
  | { kind: 'long'; field: 'end_at' | 'duration'; minutes: number }
  | { kind: 'holiday'; field: 'date'; name: string }
  | { kind: 'absence'; field: 'date'; type: 'vacation' | 'sick' | 'holiday' };

/** What the editor knows when Save is pressed. */
export interface TypedEntry {
  /** The end as typed (HH:MM), empty when a duration was typed. */
  end: string;
  start: string;
  duration: string;
  /** The entry's length in minutes as it would be saved (null: running). */
  minutes: number | null;
}

/** A bare whole number ("45") read as hours would be longer than a long entry: it may have meant minutes. */
export function looksLikeMinutes(duration: string): boolean {
  const typed = duration.trim();
  return /^\d{1,4}$/.test(typed) && Number(typed) * 60 > LONG_ENTRY_MINUTES;
}

/** The first doubt about the typed times that is not in `confirmed`, if any. */
export function timeDoubt(entry: TypedEntry, confirmed: ReadonlySet<Doubt['kind']>): Doubt | undefined {
  if (!entry.end && looksLikeMinutes(entry.duration) && !confirmed.has('minutesOrHours')) {
    return { kind: 'minutesOrHours', field: 'duration', typed: entry.duration.trim() };
  }
  if (entry.end && entry.start && entry.end < entry.start && !confirmed.has('overnight')) return { kind: 'overnight', field: 'end_at' };
  if (entry.minutes !== null && entry.minutes > LONG_ENTRY_MINUTES && !confirmed.has('long')) {
    return { kind: 'long', field: entry.end ? 'end_at' : 'duration', minutes: entry.minutes };
  }
  return undefined;
}

/** A day of the week statistics: its holiday and absence. */
interface Day {
  date: string;
  public_holiday: string | null;
  absence: 'vacation' | 'sick' | 'holiday' | null;
}

/** The doubt about the day itself (a public holiday, an absence) that is not in `confirmed`, if any. */
export function dayDoubt(day: Day | undefined, confirmed: ReadonlySet<Doubt['kind']>): Doubt | undefined {
  if (!day) return undefined;
  if (day.public_holiday && !confirmed.has('holiday')) return { kind: 'holiday', field: 'date', name: day.public_holiday };
  if (day.absence && !confirmed.has('absence')) return { kind: 'absence', field: 'date', type: day.absence };
  return undefined;
}
