// Public holidays of a region (date-holidays), as calendar dates (docs/time-model.md).
import type HolidaysClass from 'date-holidays';
import { LRUCache } from 'lru-cache';
import type { LocalDate } from '../../db/types.js';
import { validationError } from '../../common/errors.js';

const DAY_MS = 86_400_000;

// date-holidays is large (a quarter second to load): loaded on first use, so that admin commands
// that never count holidays start fast.
let holidaysModule: Promise<typeof HolidaysClass> | undefined;
function loadHolidays(): Promise<typeof HolidaysClass> {
  holidaysModule ??= import('date-holidays').then((module) => module.default);
  return holidaysModule;
}

// Public holidays are cached as one compact summary per region and year: a string of character
// pairs (day of the year, index of the name in the region's list of names; about 100 bytes for a
// year of 15 holidays), built once from date-holidays
// and never again. The regions are those date-holidays knows (normalizeHolidayRegion refuses any
// other) and the years 1970 to 2099, so the summaries are bounded by what can be asked for: at most
// HOLIDAY_CACHE_LIMITS.regionYears of them (docs/security.md states the memory, a test measures it).
// Past that bound (a newer calendar with more regions) a year is worked out and not kept. Names in
// German (the timesheet's `lang=de`) are summaries of their own, keyed "DE-BY@de", under the same bound
// and the same pacing; the English ones keep the region itself as their key.
//
// Working a year out costs date-holidays 1 to 20 ms of the event loop, and a balance from 1970 needs
// 56 of them: so one process works out at most one year at a time, each in a macrotask of its own,
// and rests as long as the last one took before the next (cold years get at most half of the event
// loop): every other request is answered between two of them.
export const HOLIDAY_CACHE_LIMITS = { calendars: 8, regionYears: 80_000 } as const;
/**
 * A date-holidays calendar keeps every year it has worked out (about 10 KiB each, the memory the
 * summaries save): so a calendar is kept for YEARS_PER_CALENDAR years at most, then made anew.
 */
const YEARS_PER_CALENDAR = 32;
/** A region's date-holidays calendar: only needed to work a year out, so only a few are kept. */
const calendars = new LRUCache<string, { calendar: HolidaysClass; years: number }>({ max: HOLIDAY_CACHE_LIMITS.calendars });

interface RegionSummary {
  /** Every name of the region's public holidays, once (the summaries point into it). */
  names: string[];
  nameIndex: Map<string, number>;
  /** Year → pairs of UTF-16 code units (day of year, 0-based; name index) in date order: a string is the most compact array V8 has. */
  years: Map<number, string>;
}
const summaries = new Map<string, RegionSummary>();
let summarisedYears = 0;
/** Years being worked out now, so that two requests for one year share the work. */
const pending = new Map<string, Promise<string>>();
/** The turn of the next year to work out: one at a time in this process. */
let turn: Promise<unknown> = Promise.resolve();

/** How many region calendars and region-year summaries are kept now (what the bounds above hold down). */
export function cachedHolidayEntries(): { calendars: number; regionYears: number } {
  return { calendars: calendars.size, regionYears: summarisedYears };
}

function splitRegion(region: string): { country: string; state: string | undefined } {
  const [country = '', state] = region.split('-', 2);
  return { country, state };
}

/** "de-by" → "DE-BY" if date-holidays knows the country (and the region); else VALIDATION_ERROR. */
export async function normalizeHolidayRegion(value: string): Promise<string> {
  const region = value.trim().toUpperCase();
  const { country, state } = splitRegion(region);
  const known = new (await loadHolidays())();
  const knownCountry = /^[A-Z]{2}(-[A-Z0-9]{1,3})?$/.test(region) && country in known.getCountries('en');
  const knownState = state === undefined || (knownCountry && state in (known.getStates(country, 'en') ?? {}));
  if (!knownCountry || !knownState) {
    throw validationError('holiday_region must be a country or country-region code known to the holiday calendar, e.g. DE, DE-BY or US-CA', 'holiday_region');
  }
  return region;
}

/** Every region the holiday calendar knows (countries and their states), named in `language` (en or de), sorted by name. */
export async function holidayRegions(language: 'en' | 'de'): Promise<Array<{ code: string; name: string }>> {
  const known = new (await loadHolidays())();
  const regions: Array<{ code: string; name: string }> = [];
  for (const [country, countryName] of Object.entries(known.getCountries(language))) {
    regions.push({ code: country, name: countryName });
    for (const [state, stateName] of Object.entries(known.getStates(country, language) ?? {}))
      regions.push({ code: `${country}-${state}`, name: `${countryName}: ${stateName}` });
  }
  return regions.sort((a, b) => a.name.localeCompare(b.name, language));
}

function calendarOf(Holidays: typeof HolidaysClass, region: string): HolidaysClass {
  let kept = calendars.get(region);
  if (!kept || kept.years >= YEARS_PER_CALENDAR) {
    const { country, state } = splitRegion(region);
    kept = { calendar: state ? new Holidays(country, state, { languages: ['en'] }) : new Holidays(country, { languages: ['en'] }), years: 0 };
    calendars.set(region, kept);
  }
  kept.years += 1;
  return kept.calendar;
}

/** The languages holiday names are given in (English, the default, and German); a summary is kept per region and language. */
export type HolidayLanguage = 'en' | 'de';

/** The key of a region's summaries in one language: the region itself in English (as before), "DE-BY@de" in another. */
function summaryKey(region: string, language: HolidayLanguage): string {
  return language === 'en' ? region : `${region}@${language}`;
}

function summaryOf(key: string): RegionSummary {
  let summary = summaries.get(key);
  if (!summary) {
    summary = { names: [], nameIndex: new Map(), years: new Map() };
    summaries.set(key, summary);
  }
  return summary;
}

/** Works a year out from date-holidays: only "public" days are days off by law (bank, school and observance days are working days). */
function summariseYear(Holidays: typeof HolidaysClass, region: string, year: number, language: HolidayLanguage): string {
  const summary = summaryOf(summaryKey(region, language));
  const firstDay = Date.UTC(year, 0, 1);
  const pairs: number[] = [];
  const seen = new Set<number>();
  for (const holiday of calendarOf(Holidays, region).getHolidays(year, language)) {
    if (holiday.type !== 'public') continue;
    const day = Math.round((Date.parse(`${holiday.date.slice(0, 10)}T00:00:00Z`) - firstDay) / DAY_MS);
    if (seen.has(day) || day < 0 || day > 365) continue;
    seen.add(day);
    let index = summary.nameIndex.get(holiday.name);
    if (index === undefined) {
      index = summary.names.length;
      summary.names.push(holiday.name);
      summary.nameIndex.set(holiday.name, index);
    }
    pairs.push(day, index);
  }
  const ordered: Array<[number, number]> = [];
  for (let i = 0; i < pairs.length; i += 2) ordered.push([pairs[i]!, pairs[i + 1]!]);
  ordered.sort((a, b) => a[0] - b[0]);
  const packed = String.fromCharCode(...ordered.flat());
  if (summarisedYears < HOLIDAY_CACHE_LIMITS.regionYears) {
    summary.years.set(year, packed);
    summarisedYears += 1;
  }
  return packed;
}

/** A year's summary: kept, or worked out in this process's next turn (a macrotask of its own). */
function yearSummary(Holidays: typeof HolidaysClass, region: string, year: number, language: HolidayLanguage): string | Promise<string> {
  const named = summaryKey(region, language);
  const kept = summaries.get(named)?.years.get(year);
  if (kept !== undefined) return kept;
  const key = `${named}:${year}`;
  let working = pending.get(key);
  if (!working) {
    let tookMs = 0;
    working = turn
      .then(() => new Promise((resolve) => setImmediate(resolve)))
      .then(() => {
        const started = performance.now();
        try {
          return summaries.get(named)?.years.get(year) ?? summariseYear(Holidays, region, year, language);
        } finally {
          tookMs = performance.now() - started;
        }
      })
      .finally(() => pending.delete(key));
    pending.set(key, working);
    turn = working.catch(() => undefined).then(() => new Promise((resolve) => setTimeout(resolve, Math.min(50, tookMs))));
  }
  return working;
}

/**
 * What serve does at its start (docs/performance.md): when a region is in use, loads date-holidays and queues `years` of each
 * region for the paced turns above, so that the first statistics requests after a start pay for
 * neither. Answers once the module is loaded; the years are worked out after it, one turn at a time,
 * and a request that needs one of them meanwhile shares its work.
 */
export async function warmHolidays(regions: readonly string[], years: readonly number[]): Promise<void> {
  // No region in use: nothing asks for a holiday until an account chooses one (then that request loads it).
  if (regions.length === 0) return;
  const Holidays = await loadHolidays();
  for (const region of regions) for (const year of years) void Promise.resolve(yearSummary(Holidays, region, year, 'en')).catch(() => undefined);
}

/** "MM-DD" of each day of a year (0-based), of a common year and of a leap year: a summary's days as dates without a Date each. */
const MONTH_DAYS_OF = [false, true].map((leap) => {
  const days: string[] = [];
  const first = Date.UTC(leap ? 2024 : 2025, 0, 1);
  for (let day = 0; day < (leap ? 366 : 365); day++) days.push(new Date(first + day * DAY_MS).toISOString().slice(5, 10));
  return days;
});

const isLeapYear = (year: number) => (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;

/** Public holidays (date → name, in `language`) of a normalized region from `from` through `through`. */
export async function publicHolidays(
  region: string | null,
  from: LocalDate,
  through: LocalDate,
  language: HolidayLanguage = 'en',
): Promise<Map<LocalDate, string>> {
  const result = new Map<LocalDate, string>();
  if (!region) return result;
  const Holidays = await loadHolidays();
  for (let year = Number(from.slice(0, 4)); year <= Number(through.slice(0, 4)); year++) {
    // A kept year is used as it is, without a turn of the microtask queue.
    const summary = yearSummary(Holidays, region, year, language);
    const days = typeof summary === 'string' ? summary : await summary;
    const { names } = summaryOf(summaryKey(region, language));
    const monthDays = MONTH_DAYS_OF[isLeapYear(year) ? 1 : 0]!;
    for (let i = 0; i < days.length; i += 2) {
      const day = days.charCodeAt(i);
      // Day 365 of a common year is the next 1 January (a summary keeps what date-holidays gives the year).
      const date = day < monthDays.length ? `${year}-${monthDays[day]!}` : new Date(Date.UTC(year, 0, 1) + day * DAY_MS).toISOString().slice(0, 10);
      if (date >= from && date <= through) result.set(date, names[days.charCodeAt(i + 1)]!);
    }
  }
  return result;
}
