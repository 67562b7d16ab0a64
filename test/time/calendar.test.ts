// Day splitting in a time zone and public holidays: the pieces every statistic is built from.
import { describe, expect, it } from 'vitest';
import {
  cachedHolidayEntries,
  datesFromThrough,
  HOLIDAY_CACHE_LIMITS,
  mondayOf,
  normalizeHolidayRegion,
  normalizeTimezone,
  parseInstant,
  parseInstantOrDate,
  publicHolidays,
  splitByLocalDay,
  weekdayCounts,
  weekdayOf,
} from '../../src/time/calendar.js';

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
  it('stay bounded however many regions and years are asked for (anyone may ask, through /api/stats/week)', async () => {
    const countries = ['DE', 'FR', 'US', 'GB', 'IT', 'ES', 'AT', 'CH', 'NL', 'BE', 'PL', 'SE', 'NO', 'DK', 'FI', 'PT', 'IE', 'CZ', 'HU', 'GR'];
    const states = ['BW', 'BY', 'BE', 'BB', 'HB', 'HH', 'HE', 'MV', 'NI', 'NW', 'RP', 'SL', 'SN', 'ST', 'SH', 'TH'];
    const regions = [...countries, ...states.map((state) => `DE-${state}`), ...['CA', 'NY', 'TX', 'FL', 'WA', 'IL', 'MA', 'OR', 'CO', 'AZ'].map((state) => `US-${state}`), ...['VD', 'ZH', 'GE', 'BE', 'TI', 'LU', 'BS', 'SG', 'AG', 'VS', 'FR', 'NE', 'GR', 'JU', 'SO', 'TG', 'ZG', 'SH', 'AR', 'AI'].map((canton) => `CH-${canton}`)];
    expect(regions.length).toBeGreaterThan(HOLIDAY_CACHE_LIMITS.calendars);
    for (const region of regions) {
      for (let year = 2000; year < 2010; year += 1) await publicHolidays(region, `${year}-12-20`, `${year}-12-31`);
    }
    expect(regions.length * 10).toBeGreaterThan(HOLIDAY_CACHE_LIMITS.regionYears);
    expect(cachedHolidayEntries()).toEqual({ calendars: HOLIDAY_CACHE_LIMITS.calendars, regionYears: HOLIDAY_CACHE_LIMITS.regionYears });
  });
});
