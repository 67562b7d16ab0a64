// Day splitting in a time zone and public holidays: the pieces every statistic is built from.
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
import { cachedHolidayEntries, normalizeHolidayRegion, publicHolidays } from '../../src/time/calendar/holidays.js';

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
    for (const [from, through] of [
      ['2026-01-05', '2026-01-11'],
      ['2026-01-07', '2026-01-07'],
      ['2021-11-22', '2026-11-21'],
      ['2026-02-26', '2026-03-04'],
      ['2026-01-08', '2026-01-07'],
    ] as const) {
      const walked = new Map<string, number>();
      for (const date of datesFromThrough(from, through)) walked.set(weekdayOf(date), (walked.get(weekdayOf(date)) ?? 0) + 1);
      const counted = weekdayCounts(from, through);
      for (const [weekday, count] of counted) expect(count, `${from}..${through} ${weekday}`).toBe(walked.get(weekday) ?? 0);
    }
  });
});

describe('holiday caches', () => {
  // The memory bound of the summaries (docs/security.md) is measured in
  // test/stress/calendar-cache-memory.test.ts: it works 3,900 cold years out (minutes on a loaded machine).
  // How long a cold year holds the event loop, and what share of it the rests leave to the rest of
  // the process, are measured in test/stress/calendar-event-loop.test.ts (times and shares: a loaded
  // machine must not decide `npm test`). Here, the order of events that gives them.
  /**
   * Runs `work` while a callback reschedules itself with `schedule` (setImmediate or a timer): the
   * years worked out so far (cold ones count) each time it ran, and how often it ran.
   */
  async function yearsSeenBetween<T>(schedule: (callback: () => void) => unknown, work: () => Promise<T>) {
    const first = cachedHolidayEntries().regionYears;
    const seen = new Set<number>();
    let ticks = 0;
    let running = true;
    const tick = () => {
      if (!running) return;
      ticks += 1;
      seen.add(cachedHolidayEntries().regionYears);
      schedule(tick);
    };
    schedule(tick);
    try {
      const result = await work();
      return { result, first, last: cachedHolidayEntries().regionYears, seen, ticks };
    } finally {
      running = false;
    }
  }
  /** Every count of years between the first year worked out and the last was seen by the callback: it ran between every two years. */
  function expectSeenBetweenEveryTwoYears({ first, last, seen }: { first: number; last: number; seen: Set<number> }): void {
    // Had two years been worked out in one macrotask (or without a rest), the count between them would never be seen.
    for (let count = first + 1; count < last; count += 1) expect(seen, `after ${count - first} years`).toContain(count);
  }

  it('works a cold year out in a macrotask of its own: other callbacks run between every two years of a balance from 1970', async () => {
    const cold = await yearsSeenBetween(setImmediate, () => publicHolidays('DE-SN', '1970-01-01', '2026-12-31'));
    expect(cold.result.get('2026-11-18')).toBe('Day of Prayer and Repentance');
    expect(cold.last - cold.first).toBeGreaterThan(1);
    expectSeenBetweenEveryTwoYears(cold);
    // Asked again: summaries, no date-holidays work at all, so nothing waits for a turn of the event loop.
    const again = await yearsSeenBetween(setImmediate, () => publicHolidays('DE-SN', '1970-01-01', '2026-12-31'));
    expect(again.result.size).toBe(cold.result.size);
    expect(again.last).toBe(again.first);
    expect(again.ticks).toBe(0);
  });

  it('rests between cold years: a timer callback runs between every two of them', async () => {
    // Singapore's calendar: no other test of this suite asks for it, so its years are cold here.
    const cold = await yearsSeenBetween(
      (callback) => setTimeout(callback, 0),
      () => publicHolidays('SG', '1990-01-01', '2026-12-31'),
    );
    expect(cold.result.get('2026-08-10')).toBe('National Day (substitute day)');
    expect(cold.last - cold.first).toBeGreaterThan(1);
    expectSeenBetweenEveryTwoYears(cold);
  });

  it('gives the same holidays as date-holidays itself', async () => {
    const { default: Holidays } = await import('date-holidays');
    for (const region of ['DE-BY', 'US-CA', 'GB']) {
      const [country, state] = region.split('-') as [string, string | undefined];
      const direct = state ? new Holidays(country, state) : new Holidays(country);
      for (const year of [1970, 1999, 2000, 2024, 2026, 2099]) {
        const expected = new Map<string, string>();
        for (const holiday of direct.getHolidays(year, 'en'))
          if (holiday.type === 'public' && !expected.has(holiday.date.slice(0, 10))) expected.set(holiday.date.slice(0, 10), holiday.name);
        expect(await publicHolidays(region, `${year}-01-01`, `${year}-12-31`), `${region} ${year}`).toEqual(expected);
      }
    }
  });
});
