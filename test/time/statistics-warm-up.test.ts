// What serve does at its start (docs/performance.md): the holiday calendar loaded and the years
// around today of every region in use worked out ahead, so that the first statistics requests after
// a start do not wait for them.
import { afterEach, beforeEach, expect, it, vi } from 'vitest';
import { cachedHolidayEntries } from '../../src/time/calendar/holidays.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { signIn } from '../support/requests.js';

let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
  t.clock.set('2026-06-15T12:00:00.000Z');
});
afterEach(async () => {
  await t.close();
});

it('works out the previous, this and the next year of each region in use, once', async () => {
  // Regions no other test of this file counts in: nothing of them is kept before the warm-up.
  for (const region of ['AT-9', 'CH-ZH']) {
    const person = await signIn(t, `${region.toLowerCase()}@example.com`);
    await t.ctx.services.settings.updateSettings(person.userId, { holiday_region: region });
  }
  const before = cachedHolidayEntries().regionYears;
  await t.ctx.services.statistics.warmUp();
  // 2 regions × 2025, 2026, 2027, in the calendar's paced turns after the warm-up answered.
  await vi.waitFor(() => expect(cachedHolidayEntries().regionYears - before).toBe(6), { timeout: 10_000, interval: 20 });
  // A second start in this process works nothing out again.
  await t.ctx.services.statistics.warmUp();
  await new Promise((resolve) => setTimeout(resolve, 200));
  expect(cachedHolidayEntries().regionYears - before).toBe(6);
});
