// The memory bound of the holiday summaries (src/time/calendar/holidays.ts, docs/security.md "growth"): 30
// regions × 130 years worked out cold, the bytes of each summary measured. In the stress suite: it works
// 3,900 cold years out, with their rests (minutes on a loaded machine), and measures the heap of a
// process of its own. Moved whole from test/time/calendar.test.ts (its own 120 s timeout left to the
// stress suite's 300 s: it took 116 s on a loaded machine).
import v8 from 'node:v8';
import vm from 'node:vm';
import { describe, expect, it } from 'vitest';
import { cachedHolidayEntries, HOLIDAY_CACHE_LIMITS, holidayRegions, publicHolidays } from '../../src/time/calendar/holidays.js';

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
  const regions = [
    'DE-BY',
    'DE-BE',
    'US-CA',
    'FR',
    'GB',
    'IT',
    'ES',
    'AT',
    'CH-ZH',
    'PL',
    'BE',
    'NL',
    'SE',
    'NO',
    'DK',
    'FI',
    'PT',
    'IE',
    'CZ',
    'HU',
    'GR',
    'JP',
    'BR',
    'CA',
    'AU',
    'MX',
    'AR',
    'ZA',
    'IN',
    'NZ',
  ];

  it('keeps a compact summary per region-year: measured bytes each, the stated bound over all of them', async () => {
    for (const region of regions) await publicHolidays(region, '1970-01-01', '2034-12-31');
    const before = heap();
    const counted = cachedHolidayEntries().regionYears;
    // The second half of the years: the calendars kept are as many (and as large) as after the first.
    for (const region of regions) await publicHolidays(region, '2035-01-01', '2099-12-31');
    const perSummary = (heap() - before) / (cachedHolidayEntries().regionYears - counted);
    console.log(
      `holiday summaries: ${Math.round(perSummary)} bytes each; ${HOLIDAY_CACHE_LIMITS.regionYears} at most: ${((perSummary * HOLIDAY_CACHE_LIMITS.regionYears) / 1e6).toFixed(1)} MB`,
    );
    expect(cachedHolidayEntries().regionYears - counted).toBe(regions.length * 65);
    expect(perSummary).toBeLessThan(BYTES_PER_SUMMARY_BOUND);
    expect(cachedHolidayEntries().calendars).toBeLessThanOrEqual(HOLIDAY_CACHE_LIMITS.calendars);
    // Every year a region can be asked for, of every region the calendar knows, fits under the bound: nothing is ever worked out twice.
    const known = (await holidayRegions('en')).length;
    expect(known * 130).toBeLessThanOrEqual(HOLIDAY_CACHE_LIMITS.regionYears);
  });
});
