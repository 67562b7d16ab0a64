// Calendar days in a user's time zone (public holidays: ./holidays.ts). Instants become days only
// through luxon (a day in Europe/Berlin has 23, 24 or 25 hours); dates (YYYY-MM-DD) are counted as
// plain calendar dates, which no time zone can change. A user's zone is a history (./zones.ts): every
// function that maps instants to days takes one zone, or such a history.
import { DateTime, IANAZone } from 'luxon';
import type { LocalDate } from '../../db/types.js';
import { validationError } from '../../common/errors.js';
import { zoneTimeline, type DayZones } from './zones.js';
import { addDays, localDateIn, startOfDayIn } from './day-starts.js';

export { addDays, localDateIn, startOfDayIn } from './day-starts.js';

export type { DayZones, ZoneEntry } from './zones.js';

export const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
export type Weekday = (typeof WEEKDAYS)[number];

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
// An instant needs a zone designator: a local time without one would mean a different instant to every reader.
const INSTANT_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i;
/** Instants and dates outside this range are refused: they are typos, and they keep ISO text sortable. */
const EARLIEST = Date.UTC(1970, 0, 1);
const LATEST = Date.UTC(2100, 0, 1);
const DAY_MS = 86_400_000;

/** A valid YYYY-MM-DD date between 1970 and 2099, else VALIDATION_ERROR naming the field. */
export function parseDate(value: string, field: string): LocalDate {
  const match = DATE_PATTERN.exec(value);
  const time = match ? Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) : NaN;
  if (!match || Number.isNaN(time) || new Date(time).toISOString().slice(0, 10) !== value || time < EARLIEST || time >= LATEST) {
    throw validationError(`${field} must be a date YYYY-MM-DD between 1970 and 2099`, field);
  }
  return value;
}

/** An ISO 8601 instant with a zone designator, as milliseconds since the epoch. */
export function parseInstant(value: string, field: string): number {
  const parsed = INSTANT_PATTERN.test(value) ? DateTime.fromISO(value, { setZone: true }) : undefined;
  if (!parsed?.isValid || parsed.toMillis() < EARLIEST || parsed.toMillis() >= LATEST) {
    throw validationError(`${field} must be an ISO 8601 instant with a zone designator (e.g. 2026-03-02T08:00:00Z) between 1970 and 2099`, field);
  }
  return parsed.toMillis();
}

/** A range bound of a query: an instant, or a date meaning midnight at the start of that day in `zone`. */
export function parseInstantOrDate(value: string, zone: DayZones, field: string): number {
  if (DATE_PATTERN.test(value)) return startOfDay(parseDate(value, field), zone);
  return parseInstant(value, field);
}

export function toIso(ms: number): string {
  return new Date(ms).toISOString();
}

/** The canonical IANA name of a time zone, or VALIDATION_ERROR. */
export function normalizeTimezone(value: string): string {
  if (!IANAZone.isValidZone(value)) throw validationError('timezone must be an IANA time zone such as Europe/Berlin or UTC', 'timezone');
  return new Intl.DateTimeFormat('en', { timeZone: value }).resolvedOptions().timeZone;
}

/** The first instant of `date` in `zone` (see above), in ms; with a zone history, where the day before ends (./zones.ts). */
export function startOfDay(date: LocalDate, zone: DayZones): number {
  if (typeof zone !== 'string') return zoneTimeline(zone).startOf(date);
  return startOfDayIn(date, zone);
}

/** The local day of an instant in `zone` (with a zone history: the day whose span holds it). */
export function localDateOf(ms: number, zone: DayZones): LocalDate {
  if (typeof zone !== 'string') return zoneTimeline(zone).dateOf(ms);
  return localDateIn(ms, zone);
}

/** The zone of `date`: the zone itself, or the one in force that day in a history. */
export function zoneOn(date: LocalDate, zone: DayZones): string {
  return typeof zone === 'string' ? zone : zoneTimeline(zone).zoneOn(date);
}

/** Local wall-clock time of an instant, as spreadsheets read it (e.g. 2026-03-02 09:30:00), in the zone of the day it falls on. */
export function localDateTimeOf(ms: number, zone: DayZones): string {
  return DateTime.fromMillis(ms, { zone: zoneOn(localDateOf(ms, zone), zone) }).toFormat('yyyy-MM-dd HH:mm:ss');
}

export function weekdayOf(date: LocalDate): Weekday {
  // getUTCDay: 0 = Sunday.
  return WEEKDAYS[(new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7] as Weekday;
}

/** How many of each weekday lie from `from` through `through` (both included), by arithmetic. */
export function weekdayCounts(from: LocalDate, through: LocalDate): Map<Weekday, number> {
  const days = Math.max(0, Math.round((Date.parse(`${through}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS) + 1);
  const first = WEEKDAYS.indexOf(weekdayOf(from));
  const counts = new Map<Weekday, number>();
  WEEKDAYS.forEach((weekday, index) => counts.set(weekday, Math.floor(days / 7) + ((index - first + 7) % 7 < days % 7 ? 1 : 0)));
  return counts;
}

export function mondayOf(date: LocalDate): LocalDate {
  return addDays(date, -WEEKDAYS.indexOf(weekdayOf(date)));
}

/** Every date from `from` through `through`, both included. */
export function datesFromThrough(from: LocalDate, through: LocalDate): LocalDate[] {
  const dates: LocalDate[] = [];
  for (let date = from; date <= through; date = addDays(date, 1)) dates.push(date);
  return dates;
}

export interface DayPiece {
  date: LocalDate;
  ms: number;
}

/** Splits [startMs, endMs) at every local day start of `zone`: an entry crossing midnight counts on both days. */
export function splitByLocalDay(startMs: number, endMs: number, zone: DayZones): DayPiece[] {
  const pieces: DayPiece[] = [];
  let cursor = startMs;
  while (cursor < endMs) {
    const date = localDateOf(cursor, zone);
    const pieceEnd = Math.min(endMs, startOfDay(addDays(date, 1), zone));
    pieces.push({ date, ms: pieceEnd - cursor });
    cursor = pieceEnd;
  }
  return pieces;
}
