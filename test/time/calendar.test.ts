// Day splitting in a time zone and public holidays: the pieces every statistic is built from.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import {
  datesFromThrough,
  mondayOf,
  normalizeTimezone,
  parseInstant,
  parseInstantOrDate,
  splitByLocalDay,
  weekdayCounts,
  weekdayOf,
} from '../../src/time/calendar/dates.js';
import { cachedHolidayEntries, HOLIDAY_CACHE_LIMITS, holidayRegions, normalizeHolidayRegion, publicHolidays } from '../../src/time/calendar/holidays.js';

const ms = (iso: string) => Date.parse(iso);
const MIN = 60_000;

describe('splitByLocalDay', () => {
  it('splits an entry across midnight between the two days of the zone', () => {
    expect(splitByLocalDay(ms('2026-01-09T22:00:00Z'), ms('2026-01-10T02:00:00Z'), 'UTC')).toEqual([
      { date: '2026-01-09', ms: 120 * MIN },
      { date: '2026-01-10', ms: 120 * MIN },
    ]);
    // 09:00–17:00 UTC is 18:00–02:00 in Tokyo.
    expect(splitByLocalDay(ms('2026-01-08T09:00:00Z'), ms('2026-01-08T17:00:00Z'), 'Asia/Tokyo')).toEqual([
      { date: '2026-01-08', ms: 360 * MIN },
      { date: '2026-01-09', ms: 120 * MIN },
    ]);
  });

  it('counts 23 and 25 hour days on DST changes in Europe/Berlin', () => {
    const spring = splitByLocalDay(ms('2026-03-28T23:00:00Z'), ms('2026-03-29T22:00:00Z'), 'Europe/Berlin');
    expect(spring).toEqual([{ date: '2026-03-29', ms: 23 * 60 * MIN }]);
    const autumn = splitByLocalDay(ms('2026-10-24T22:00:00Z'), ms('2026-10-25T23:00:00Z'), 'Europe/Berlin');
    expect(autumn).toEqual([{ date: '2026-10-25', ms: 25 * 60 * MIN }]);
  });
});

describe('dates, instants, zones and regions', () => {
  it('knows weekdays and Mondays', () => {
    expect(weekdayOf('2026-01-05')).toBe('mon');
    expect(weekdayOf('2026-01-11')).toBe('sun');
    expect(mondayOf('2026-01-11')).toBe('2026-01-05');
    expect(mondayOf('2026-03-01')).toBe('2026-02-23');
  });

  it('reads instants only with a zone designator, and dates as local midnight', () => {
    expect(parseInstant('2026-01-05T09:00:00+01:00', 'start_at')).toBe(ms('2026-01-05T08:00:00Z'));
    expect(() => parseInstant('2026-01-05T09:00:00', 'start_at')).toThrow(/zone designator/);
    expect(() => parseInstant('yesterday', 'start_at')).toThrow(/start_at/);
    expect(parseInstantOrDate('2026-01-05', 'Asia/Tokyo', 'from')).toBe(ms('2026-01-04T15:00:00Z'));
    expect(() => parseInstantOrDate('2026-02-30', 'UTC', 'from')).toThrow(/from/);
  });

  it('normalizes time zones and regions, and refuses unknown ones', async () => {
    expect(normalizeTimezone('europe/berlin')).toBe('Europe/Berlin');
    expect(() => normalizeTimezone('Mars/Olympus')).toThrow(/timezone/);
    await expect(normalizeHolidayRegion('de-by')).resolves.toBe('DE-BY');
    await expect(normalizeHolidayRegion('US')).resolves.toBe('US');
    await expect(normalizeHolidayRegion('DE-XX')).rejects.toThrow(/holiday_region/);
    await expect(normalizeHolidayRegion('ZZ')).rejects.toThrow(/holiday_region/);
  });

  it('counts only public holidays of the region', async () => {
    const bavaria = await publicHolidays('DE-BY', '2026-01-01', '2026-01-31');
    expect([...bavaria.keys()]).toEqual(['2026-01-01', '2026-01-06']);
    // Epiphany is public in Bavaria, not in Berlin.
    expect([...(await publicHolidays('DE-BE', '2026-01-01', '2026-01-31')).keys()]).toEqual(['2026-01-01']);
    // Valentine's Day is an observance in the US, not a day off.
    expect((await publicHolidays('US-CA', '2026-02-14', '2026-02-14')).size).toBe(0);
  });

  it('counts weekdays of a range by arithmetic, as walking the days does', () => {
    for (const [from, through] of [['2026-01-05', '2026-01-11'], ['2026-01-07', '2026-01-07'], ['2021-11-22', '2026-11-21'], ['2026-02-26', '2026-03-04'], ['2026-01-08', '2026-01-07']] as const) {
      const walked = new Map<string, number>();
      for (const date of datesFromThrough(from, through)) walked.set(weekdayOf(date), (walked.get(weekdayOf(date)) ?? 0) + 1);
      const counted = weekdayCounts(from, through);
      for (const [weekday, count] of counted) expect(count, `${from}..${through} ${weekday}`).toBe(walked.get(weekday) ?? 0);
    }
  });
});

describe('holiday caches', () => {
  // The bound docs/security.md states: at most HOLIDAY_CACHE_LIMITS.regionYears summaries (every
  // region the calendar knows × 130 years fits), each measured here; and at most
  // HOLIDAY_CACHE_LIMITS.calendars date-holidays calendars, each made anew after 32 years.
  const BYTES_PER_SUMMARY_BOUND = 320;
  const gc = (() => {
    v8.setFlagsFromString('--expose-gc');
    return vm.runInNewContext('gc') as () => void;
  })();
  const heap = () => {
    gc();
    gc();
    return process.memoryUsage().heapUsed;
  };
  const regions = ['DE-BY', 'DE-BE', 'US-CA', 'FR', 'GB', 'IT', 'ES', 'AT', 'CH-ZH', 'PL', 'BE', 'NL', 'SE', 'NO', 'DK', 'FI', 'PT', 'IE', 'CZ', 'HU', 'GR', 'JP', 'BR', 'CA', 'AU', 'MX', 'AR', 'ZA', 'IN', 'NZ'];

  it('keeps a compact summary per region-year: measured bytes each, the stated bound over all of them', async () => {
    for (const region of regions) await publicHolidays(region, '1970-01-01', '2034-12-31');
    const before = heap();
    const counted = cachedHolidayEntries().regionYears;
    // The second half of the years: the calendars kept are as many (and as large) as after the first.
    for (const region of regions) await publicHolidays(region, '2035-01-01', '2099-12-31');
    const perSummary = (heap() - before) / (cachedHolidayEntries().regionYears - counted);
    console.log(`holiday summaries: ${Math.round(perSummary)} bytes each; ${HOLIDAY_CACHE_LIMITS.regionYears} at most: ${((perSummary * HOLIDAY_CACHE_LIMITS.regionYears) / 1e6).toFixed(1)} MB`);
    expect(cachedHolidayEntries().regionYears - counted).toBe(regions.length * 65);
    expect(perSummary).toBeLessThan(BYTES_PER_SUMMARY_BOUND);
    expect(cachedHolidayEntries().calendars).toBeLessThanOrEqual(HOLIDAY_CACHE_LIMITS.calendars);
    // Every year a region can be asked for, of every region the calendar knows, fits under the bound: nothing is ever worked out twice.
    const known = (await holidayRegions('en')).length;
    expect(known * 130).toBeLessThanOrEqual(HOLIDAY_CACHE_LIMITS.regionYears);
  }, 120_000);

  it('works a cold year out in a macrotask of its own: a balance from 1970 never holds the event loop for long', async () => {
    const delay = monitorEventLoopDelay({ resolution: 1 });
    delay.enable();
    const started = performance.now();
    const holidays = await publicHolidays('DE-SN', '1970-01-01', '2026-12-31');
    const elapsedMs = performance.now() - started;
    // The histogram's timer records a stall when it next fires: give it that turn.
    await new Promise((resolve) => setTimeout(resolve, 20));
    delay.disable();
    const longestMs = delay.max / 1e6;
    console.log(`57 cold years of DE-SN in ${Math.round(elapsedMs)} ms; longest stall of the event loop ${longestMs.toFixed(1)} ms`);
    expect(holidays.get('2026-11-18')).toBe('Day of Prayer and Repentance');
    // One year of date-holidays at a time (1 to 20 ms on a quiet machine), never 57 at once: the
    // longest stall is a small part of the whole (relative, so that a busy machine does not decide).
    expect(longestMs).toBeLessThan(Math.max(60, elapsedMs / 5));
    // Asked again: summaries, no date-holidays work at all.
    const again = performance.now();
    expect((await publicHolidays('DE-SN', '1970-01-01', '2026-12-31')).size).toBe(holidays.size);
    expect(performance.now() - again).toBeLessThan(20);
  });

  it('rests between cold years as long as the last one took: the rest of the process keeps about half of the event loop', async () => {
    // Singapore's calendar (Chinese, Islamic and Hindu dates) costs date-holidays about 20 ms a
    // year even when warm, so the rests show however warm this worker already is; and no other
    // test asks for it, so every one of these 37 years is cold here.
    const before = performance.eventLoopUtilization();
    const started = performance.now();
    const holidays = await publicHolidays('SG', '1990-01-01', '2026-12-31');
    const elapsedMs = performance.now() - started;
    const { utilization } = performance.eventLoopUtilization(before);
    console.log(`37 cold years of SG in ${Math.round(elapsedMs)} ms; the event loop was busy ${(utilization * 100).toFixed(0)} % of it`);
    expect(holidays.get('2026-08-10')).toBe('National Day (substitute day)');
    // Worked out back to back (one macrotask after the other, the rests taken out) the loop is busy
    // nearly all the time; resting as long as each year took, about half. A share, not a time: a
    // loaded machine stretches the work and its rests alike (until a year takes over the 50 ms
    // that a rest is capped at).
    expect(utilization).toBeLessThan(0.7);
  });

  it('gives the same holidays as date-holidays itself', async () => {
    const { default: Holidays } = await import('date-holidays');
    for (const region of ['DE-BY', 'US-CA', 'GB']) {
      const [country, state] = region.split('-') as [string, string | undefined];
      const direct = state ? new Holidays(country, state) : new Holidays(country);
      for (const year of [1970, 1999, 2026, 2099]) {
        const expected = new Map<string, string>();
        for (const holiday of direct.getHolidays(year, 'en')) if (holiday.type === 'public' && !expected.has(holiday.date.slice(0, 10))) expected.set(holiday.date.slice(0, 10), holiday.name);
        expect(await publicHolidays(region, `${year}-01-01`, `${year}-12-31`), `${region} ${year}`).toEqual(expected);
      }
    }
  });
});
