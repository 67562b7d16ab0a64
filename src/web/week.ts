// Calendar arithmetic of the week views: weeks start on Monday (docs/time-model.md). Dates are
// YYYY-MM-DD calendar dates; instants are placed on them in the user's time zone by luxon.
import { DateTime } from 'luxon';

/** The Monday of the week that holds `date`. */
export function weekStartOf(date: string): string {
  return DateTime.fromISO(date, { zone: 'UTC' }).startOf('week').toISODate() as string;
}

/** The date `weeks` weeks after (or before) `date`, moved to that week's Monday. */
export function shiftWeek(date: string, weeks: number): string {
  return weekStartOf(DateTime.fromISO(date, { zone: 'UTC' }).plus({ weeks }).toISODate() as string);
}

/** The seven dates Monday–Sunday of the week that holds `date`. */
export function weekDates(date: string): string[] {
  const monday = DateTime.fromISO(weekStartOf(date), { zone: 'UTC' });
  return Array.from({ length: 7 }, (_, day) => monday.plus({ days: day }).toISODate() as string);
}

/** Today's date in a time zone. */
export function todayIn(zone: string, now: Date = new Date()): string {
  return DateTime.fromJSDate(now, { zone }).toISODate() as string;
}

/** An instant as the value of a datetime-local field, in the user's zone. */
export function toLocalInput(instant: string, zone: string): string {
  return DateTime.fromISO(instant, { zone }).toFormat("yyyy-LL-dd'T'HH:mm");
}

/** A datetime-local field's value, read in the user's zone, as a UTC instant; undefined if empty or invalid. */
export function fromLocalInput(value: string, zone: string): string | undefined {
  if (!value) return undefined;
  const instant = DateTime.fromISO(value, { zone });
  return instant.isValid ? (instant.toUTC().toISO() as string) : undefined;
}
