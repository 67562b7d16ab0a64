// Calendar arithmetic and the dated display of instants: weeks start on Monday (docs/time-model.md).
// Dates are YYYY-MM-DD calendar dates; instants are placed on them in the account's zone by luxon, and
// shown in the client's language.
import { DateTime } from 'luxon';
import type { Weekday } from '../http/contract.js';

/** The days of a week, Monday first, by the keys of the weekly targets. */
export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const satisfies readonly Weekday[];
/** Every key of the weekly targets is in the list: a day left out does not compile. */
type ListsEvery<Missing extends never> = Missing;
type _EveryWeekdayListed = ListsEvery<Exclude<Weekday, (typeof WEEKDAYS)[number]>>;

/** The Monday of the week that holds `date`. */
export function weekStartOf(date: string): string {
  return DateTime.fromISO(date, { zone: 'UTC' }).startOf('week').toISODate() as string;
}

/** The date `weeks` weeks after (or before) `date`, moved to that week's Monday. */
export function shiftWeek(date: string, weeks: number): string {
  return weekStartOf(DateTime.fromISO(date, { zone: 'UTC' }).plus({ weeks }).toISODate() as string);
}

/** The month (YYYY-MM) `months` months after `month`. */
export function shiftMonth(month: string, months: number): string {
  return DateTime.fromISO(`${month}-01`, { zone: 'UTC' }).plus({ months }).toFormat('yyyy-MM');
}

/** A month (YYYY-MM) by its name and year in `locale`: "November 2026". */
export function monthName(month: string, locale: string): string {
  return DateTime.fromISO(`${month}-01`, { zone: 'UTC' }).setLocale(locale).toLocaleString({ month: 'long', year: 'numeric' });
}

/** The date `days` days after `date`. */
export function addDays(date: string, days: number): string {
  return DateTime.fromISO(date, { zone: 'UTC' }).plus({ days }).toISODate() as string;
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

/** A local date and a time of day (HH:mm) in the user's zone as a UTC instant; undefined if invalid. */
export function instantOf(date: string, time: string, zone: string): string | undefined {
  if (!date || !/^\d{1,2}:\d{2}$/.test(time)) return undefined;
  const instant = DateTime.fromISO(`${date}T${time.padStart(5, '0')}`, { zone });
  return instant.isValid ? (instant.toUTC().toISO() as string) : undefined;
}

/** An instant's local date and time of day (for the fields of a form). */
export function partsOf(instant: string, zone: string): { date: string; time: string } {
  const local = DateTime.fromISO(instant, { zone });
  return { date: local.toISODate() as string, time: local.toFormat('HH:mm') };
}

export function localDateOf(instant: string, zone: string): string {
  return DateTime.fromISO(instant, { zone }).toISODate() as string;
}

/** Words for the days next to today, from the catalog of the language. */
export interface RelativeDays {
  today: string;
  tomorrow: string;
  yesterday: string;
}

/** A time of day in the user's zone: "16:30" or "4:30 PM" as the locale writes it. */
export function timeOfDay(instant: string, zone: string, locale: string): string {
  return DateTime.fromISO(instant, { zone }).setLocale(locale).toLocaleString(DateTime.TIME_SIMPLE);
}

/** A short date: "Mon 2 Mar" / "Mo., 2. März". */
export function shortDate(date: string, locale: string): string {
  return DateTime.fromISO(date, { zone: 'UTC' }).setLocale(locale).toLocaleString({ weekday: 'short', day: 'numeric', month: 'short' });
}

/**
 * An instant with its day unless it is today: "6:05 PM", "tomorrow 1:10 AM", "yesterday 11:30 PM",
 * "Thu 6:05 PM" within a week, "Thu 12 Mar 6:05 PM" further away.
 */
export function datedTime(instant: string, zone: string, locale: string, words: RelativeDays, now: Date = new Date()): string {
  const local = DateTime.fromISO(instant, { zone }).setLocale(locale);
  const today = DateTime.fromJSDate(now, { zone }).startOf('day');
  const days = Math.round(local.startOf('day').diff(today, 'days').days);
  const time = local.toLocaleString(DateTime.TIME_SIMPLE);
  if (days === 0) return time;
  if (days === 1) return `${words.tomorrow} ${time}`;
  if (days === -1) return `${words.yesterday} ${time}`;
  const day = Math.abs(days) < 7 ? local.toLocaleString({ weekday: 'short' }) : local.toLocaleString({ weekday: 'short', day: 'numeric', month: 'short' });
  return `${day} ${time}`;
}

/** An entry's span: "08:30–12:00" within one day, "Mon 22:00 – Tue 02:30" across midnight (dates too when longer). */
export function spanLabel(start: string, end: string | null, zone: string, locale: string, runningWord: string): string {
  const from = DateTime.fromISO(start, { zone }).setLocale(locale);
  if (end === null) return `${from.toLocaleString(DateTime.TIME_SIMPLE)}–${runningWord}`;
  const to = DateTime.fromISO(end, { zone }).setLocale(locale);
  if (from.hasSame(to, 'day')) return `${from.toLocaleString(DateTime.TIME_SIMPLE)}–${to.toLocaleString(DateTime.TIME_SIMPLE)}`;
  const dayFormat = to.diff(from, 'hours').hours >= 24 ? ({ weekday: 'short', day: 'numeric', month: 'short' } as const) : ({ weekday: 'short' } as const);
  return `${from.toLocaleString(dayFormat)} ${from.toLocaleString(DateTime.TIME_SIMPLE)} – ${to.toLocaleString(dayFormat)} ${to.toLocaleString(DateTime.TIME_SIMPLE)}`;
}
