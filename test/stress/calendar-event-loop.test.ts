// How long working out cold years of holidays holds the event loop (src/time/calendar/holidays.ts): each year
// in a macrotask of its own, with a rest as long as it took before the next. These compare times and
// shares of the event loop, so they run in the stress suite, where a loaded machine does not decide
// `npm test`; test/time/calendar.test.ts checks the order of events behind them (a callback runs
// between every two years). Moved whole from that file.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { publicHolidays } from '../../src/time/calendar/holidays.js';

describe('holidays of cold years', () => {
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
});
