// The worked example of docs/time-model.md, Time zone history, in process: Los Angeles to Berlin on
// Wednesday 11 November 2026 makes a Wednesday of 15 hours and changes no figure before it.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { addEntry, type SignedIn, signIn } from '../support/requests.js';

let t: TestApp;
let ann: SignedIn;
beforeEach(async () => {
  t = await createTestApp();
  t.clock.set('2026-11-11T20:00:00Z');
  ann = await signIn(t);
  await ann.call('PATCH', '/api/settings', { timezone: 'America/Los_Angeles', timezone_valid_from: '1970-01-01', tracking_start: '2026-11-02' });
  for (const day of [2, 3, 4, 5, 6, 9, 10, 11, 12, 13]) {
    const date = (d: number) => `2026-11-${String(d).padStart(2, '0')}`;
    await addEntry(ann, `${date(day)}T16:00:00Z`, `${date(day + 1)}T00:00:00Z`);
  }
});
afterEach(async () => {
  await t.close();
});

const worked = async (date: string) =>
  ((await ann.call('GET', `/api/stats/week?date=${date}`)).json().days as Array<{ worked_minutes: number }>).map((day) => day.worked_minutes);

it('Los Angeles to Berlin from Wednesday: a 15-hour Wednesday, the days before as they were, every entry once', async () => {
  const lastWeek = (await ann.call('GET', '/api/stats/week?date=2026-11-02')).json();
  const overtime = (await ann.call('GET', '/api/stats/overtime')).json();
  expect(await worked('2026-11-09')).toEqual([480, 480, 480, 480, 480, 0, 0]);

  const changed = await ann.call('PATCH', '/api/settings', { timezone: 'Europe/Berlin' });
  expect(changed.json()).toMatchObject({
    timezone: 'Europe/Berlin',
    zones: [
      { valid_from: '2026-11-02', timezone: 'America/Los_Angeles' },
      { valid_from: '2026-11-11', timezone: 'Europe/Berlin' },
    ],
  });
  // Wednesday 08:00–23:00 UTC holds 16:00–23:00 of its entry; its last hour counts on Thursday.
  expect(await worked('2026-11-09')).toEqual([480, 480, 420, 480, 480, 60, 0]);
  expect((await ann.call('GET', '/api/stats/week?date=2026-11-02')).json()).toEqual(lastWeek);
  expect((await ann.call('GET', '/api/stats/overtime')).json()).toEqual(overtime);
  // An entry across the whole of Wednesday counts its 15 hours there.
  await ann.call('DELETE', `/api/time-entries/${(await ann.call('GET', '/api/time-entries?from=2026-11-11&to=2026-11-12')).json().entries[0].id}`);
  await addEntry(ann, '2026-11-11T08:00:00Z', '2026-11-11T23:00:00Z');
  expect((await worked('2026-11-09'))[2]).toBe(15 * 60);
});
