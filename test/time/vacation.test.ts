// The vacation allowance (docs/time-model.md): pro rata by month in the year of tracking_start, taken
// through today, planned after it, only on days with a target, carried over capped, halves allowed.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { expectError } from '../support/expectations.js';
import { type SignedIn, signIn } from '../support/requests.js';

let t: TestApp;
let ann: SignedIn;
beforeEach(async () => {
  t = await createTestApp();
  t.clock.set('2026-09-01T10:00:00.000Z');
  ann = await signIn(t);
  await ann.call('PATCH', '/api/settings', {
    tracking_start: '2026-04-01',
    holiday_region: 'DE-BY',
    vacation_days_per_year: 30,
    vacation_carry_over_max_days: 5,
  });
});
afterEach(async () => {
  await t.close();
});

const absence = (body: object) => ann.call('POST', '/api/time-entries/absences', { type: 'vacation', ...body });

describe('the vacation allowance', () => {
  it('counts days with a target: taken through today, planned after; the first year pro rata; the rest carried over, capped', async () => {
    expect((await absence({ from: '2026-08-03', to: '2026-08-14' })).statusCode).toBe(201); // 10 days
    await absence({ date: '2026-12-24', portion: 'half' }); // planned: a half day
    await absence({ date: '2026-12-25' }); // Christmas, a public holiday: not counted
    await absence({ date: '2026-09-05' }); // a Saturday: no target, not counted
    await ann.call('POST', '/api/time-entries/absences', { date: '2026-08-17', type: 'sick' }); // not vacation
    await absence({ date: '2026-03-31' }); // before the tracking start: no target
    const year = await ann.call('GET', '/api/stats/vacation');
    expect(year.statusCode).toBe(200);
    // April to December: 9 months of 30 days a year = 22.5.
    expect(year.json()).toEqual({
      year: 2026,
      allowance_days: 22.5,
      carried_over_days: 0,
      taken_days: 10,
      planned_days: 0.5,
      requested_days: 0,
      remaining_days: 12,
      full_year_days: 30,
      months_counted: 9,
      prorated_from: '2026-04-01',
      taken_before_tracking_days: 0,
    });

    // Next year: 30, plus 12 left over capped at 5; 6 January is Epiphany.
    await absence({ from: '2027-01-04', to: '2027-01-08' });
    expect((await ann.call('GET', '/api/stats/vacation?year=2027')).json()).toEqual({
      year: 2027,
      allowance_days: 30,
      carried_over_days: 5,
      taken_days: 0,
      planned_days: 4,
      requested_days: 0,
      remaining_days: 31,
      full_year_days: 30,
      months_counted: 12,
      prorated_from: null,
      taken_before_tracking_days: 0,
    });
    // 7.5 days taken in January to March, before the tracking start: 2026 keeps 4.5, and carries them.
    await ann.call('PATCH', '/api/settings', { vacation_taken_before_tracking_days: 7.5 });
    expect((await ann.call('GET', '/api/stats/vacation')).json()).toMatchObject({ taken_before_tracking_days: 7.5, remaining_days: 4.5 });
    expect((await ann.call('GET', '/api/stats/vacation?year=2027')).json()).toMatchObject({ carried_over_days: 4.5, taken_before_tracking_days: 0 });
    await ann.call('PATCH', '/api/settings', { vacation_taken_before_tracking_days: null });
    // Without a cap all 12 carry over; a schedule without Fridays makes a planned Friday count nothing.
    await ann.call('PATCH', '/api/settings', { vacation_carry_over_max_days: null });
    await ann.call('POST', '/api/settings/schedules', { valid_from: '2027-01-01', weekly_target_minutes: { fri: 0 } });
    expect((await ann.call('GET', '/api/stats/vacation?year=2027')).json()).toMatchObject({ carried_over_days: 12, planned_days: 3, remaining_days: 39 });
    // A year before the account: nothing allowed, nothing carried.
    expect((await ann.call('GET', '/api/stats/vacation?year=2025')).json()).toEqual({
      year: 2025,
      allowance_days: 0,
      carried_over_days: 0,
      taken_days: 0,
      planned_days: 0,
      requested_days: 0,
      remaining_days: 0,
      full_year_days: 30,
      months_counted: 0,
      prorated_from: null,
      taken_before_tracking_days: 0,
    });
  });

  it('a year that took more than its allowance carries nothing (never below 0)', async () => {
    await ann.call('PATCH', '/api/settings', { vacation_days_per_year: 2.5, vacation_carry_over_max_days: null });
    await absence({ from: '2026-08-03', to: '2026-08-07' });
    // April–December of 2.5 a year: 1.875, to the nearest half day 2.
    expect((await ann.call('GET', '/api/stats/vacation')).json()).toMatchObject({ allowance_days: 2, taken_days: 5, remaining_days: -3 });
    expect((await ann.call('GET', '/api/stats/vacation?year=2027')).json()).toMatchObject({ allowance_days: 2.5, carried_over_days: 0, remaining_days: 2.5 });
  });

  it('not tracked: the allowance and what remains are null, the days are still counted; bad settings and years are refused', async () => {
    await ann.call('PATCH', '/api/settings', { vacation_days_per_year: null });
    await absence({ date: '2026-08-03' });
    expect((await ann.call('GET', '/api/stats/vacation')).json()).toEqual({
      year: 2026,
      allowance_days: null,
      carried_over_days: null,
      taken_days: 1,
      planned_days: 0,
      requested_days: 0,
      remaining_days: null,
      full_year_days: null,
      months_counted: 9,
      prorated_from: '2026-04-01',
      taken_before_tracking_days: 0,
    });
    expect((await ann.call('GET', '/api/settings')).json()).toMatchObject({ vacation_days_per_year: null, vacation_carry_over_max_days: 5 });
    for (const body of [
      { vacation_days_per_year: 2.3 },
      { vacation_days_per_year: -1 },
      { vacation_days_per_year: 367 },
      { vacation_carry_over_max_days: 0.25 },
    ]) {
      const refused = expectError(await ann.call('PATCH', '/api/settings', body), 400, 'VALIDATION_ERROR');
      expect(refused.details?.[0].field).toBe(Object.keys(body)[0]);
    }
    expectError(await ann.call('GET', '/api/stats/vacation?year=1969'), 400, 'VALIDATION_ERROR');
    // 0 days is an allowance of nothing, not "not tracked".
    expect((await ann.call('PATCH', '/api/settings', { vacation_days_per_year: 0 })).json().vacation_days_per_year).toBe(0);
    expect((await ann.call('GET', '/api/stats/vacation')).json()).toMatchObject({ allowance_days: 0, remaining_days: -1 });
    expect((await t.app.inject({ method: 'GET', url: '/api/stats/vacation' })).json()).toEqual({ authenticated: false });
  });

  it('days taken before the tracking start lower the first year only; a booking asked about says whether it exceeds what remains', async () => {
    const refused = expectError(await ann.call('PATCH', '/api/settings', { vacation_taken_before_tracking_days: 0.3 }), 400, 'VALIDATION_ERROR');
    expect(refused.details?.[0].field).toBe('vacation_taken_before_tracking_days');
    expect((await ann.call('PATCH', '/api/settings', { vacation_taken_before_tracking_days: 7.5 })).json().vacation_taken_before_tracking_days).toBe(7.5);
    await absence({ from: '2026-08-03', to: '2026-08-14' }); // 10 days
    expect((await ann.call('GET', '/api/stats/vacation')).json()).toMatchObject({ allowance_days: 22.5, taken_before_tracking_days: 7.5, remaining_days: 5 });
    // 5 left, capped at 5, carry into 2027; the setting counts in 2026 only.
    expect((await ann.call('GET', '/api/stats/vacation?year=2027')).json()).toMatchObject({
      carried_over_days: 5,
      taken_before_tracking_days: 0,
      remaining_days: 35,
    });

    // Asked before booking: 21 to 25 September is 5 days (all that remains), to the 28th 6.
    const fits = (await ann.call('GET', '/api/stats/vacation?from=2026-09-21&to=2026-09-25')).json();
    expect(fits).toMatchObject({ year: 2026, booking_days: 5, exceeds_allowance: false, remaining_days: 5 });
    const over = (await ann.call('GET', '/api/stats/vacation?from=2026-09-21&to=2026-09-28')).json();
    expect(over).toMatchObject({ booking_days: 6, exceeds_allowance: true });
    // Days already taken and half days count as the booking would.
    expect((await ann.call('GET', '/api/stats/vacation?from=2026-08-10&to=2026-08-18&portion=half')).json()).toMatchObject({ booking_days: 1 });

    // The booking itself: within what remains, no flag; beyond it, booked all the same and flagged.
    const within = await absence({ from: '2026-09-21', to: '2026-09-24' });
    expect(within.statusCode).toBe(201);
    expect(within.json().exceeds_allowance).toBeUndefined();
    const last = await absence({ date: '2026-09-25' });
    expect(last.json()).toEqual({ absence: expect.objectContaining({ date: '2026-09-25' }) });
    const beyond = await absence({ date: '2026-09-28', portion: 'half' });
    expect(beyond.statusCode).toBe(201);
    expect(beyond.json()).toMatchObject({ absence: { date: '2026-09-28' }, exceeds_allowance: true });
    expect((await ann.call('POST', '/api/time-entries/absences', { date: '2026-09-29', type: 'sick' })).json().exceeds_allowance).toBeUndefined();
    expect((await ann.call('GET', '/api/stats/vacation')).json()).toMatchObject({ remaining_days: -0.5 });
  });
});
