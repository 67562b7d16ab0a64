// Bookings on the balance (docs/time-model.md): payouts (negative) and corrections count on their date,
// in the week's day rows, the overtime through `through`, and today's adjusted end of work.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { expectError } from '../support/expectations.js';
import { addEntry, type SignedIn, signIn } from '../support/requests.js';

let t: TestApp;
let ann: SignedIn;
beforeEach(async () => {
  t = await createTestApp();
  t.clock.set('2026-03-11T10:00:00.000Z'); // Wednesday
  ann = await signIn(t);
  await ann.call('PATCH', '/api/settings', { tracking_start: '2026-03-02', overtime_offset_minutes: 600 });
});
afterEach(async () => {
  await t.close();
});

describe('bookings', () => {
  it('are created, listed by date and deleted; a payout must be negative, nothing may be 0', async () => {
    const payout = await ann.call('POST', '/api/time-entries/bookings', { date: '2026-03-03', minutes: -300, kind: 'payout', note: 'paid with March' });
    expect(payout.statusCode).toBe(201);
    expect(payout.json()).toEqual({ booking: { id: expect.any(Number), date: '2026-03-03', minutes: -300, kind: 'payout', note: 'paid with March' } });
    await ann.call('POST', '/api/time-entries/bookings', { date: '2026-03-12', minutes: 45, kind: 'correction' });
    expect((await ann.call('GET', '/api/time-entries/bookings')).json().bookings.map((b: { date: string }) => b.date)).toEqual(['2026-03-03', '2026-03-12']);
    expect((await ann.call('GET', '/api/time-entries/bookings?from=2026-03-04&to=2026-04-01')).json().bookings).toHaveLength(1);
    for (const [body, field] of [
      [{ date: '2026-03-03', minutes: 300, kind: 'payout' }, 'minutes'],
      [{ date: '2026-03-03', minutes: 0, kind: 'correction' }, 'minutes'],
      [{ date: '2026-03-03', minutes: 1.5, kind: 'correction' }, 'minutes'],
      [{ date: '2026-02-30', minutes: 30, kind: 'correction' }, 'date'],
      [{ date: '2026-03-03', minutes: 30, kind: 'gift' }, 'kind'],
    ] as const) {
      const refused = expectError(await ann.call('POST', '/api/time-entries/bookings', body), 400, 'VALIDATION_ERROR');
      expect(refused.details?.[0].field).toBe(field);
    }
    const bob = await signIn(t, 'bob@example.com');
    expectError(await bob.call('DELETE', `/api/time-entries/bookings/${payout.json().booking.id}`), 404, 'NOT_FOUND');
    expect((await bob.call('GET', '/api/time-entries/bookings')).json().bookings).toEqual([]);
    expect((await ann.call('DELETE', `/api/time-entries/bookings/${payout.json().booking.id}`)).statusCode).toBe(204);
    expect((await ann.call('GET', '/api/time-entries/bookings')).json().bookings).toHaveLength(1);
  });

  it('count on their date: day rows and totals, the overtime through yesterday, today', async () => {
    await addEntry(ann, '2026-03-02T08:00:00Z', '2026-03-02T17:00:00Z'); // +60
    await ann.call('POST', '/api/time-entries/bookings', { date: '2026-03-03', minutes: -600, kind: 'payout' });
    await ann.call('POST', '/api/time-entries/bookings', { date: '2026-03-03', minutes: 30, kind: 'correction' });
    await ann.call('POST', '/api/time-entries/bookings', { date: '2026-03-11', minutes: -120, kind: 'payout' }); // today
    await ann.call('POST', '/api/time-entries/bookings', { date: '2026-03-12', minutes: 999, kind: 'correction' }); // tomorrow
    await ann.call('POST', '/api/time-entries/bookings', { date: '2026-03-01', minutes: 999, kind: 'correction' }); // before the tracking start
    const week = (await ann.call('GET', '/api/stats/week?date=2026-03-02')).json();
    expect(week.days[1]).toMatchObject({ date: '2026-03-03', target_minutes: 480, worked_minutes: 0, booked_minutes: -570, balance_minutes: -1050 });
    expect(week.totals.booked_minutes).toBe(-570);
    expect(week.totals.balance_minutes).toBe(week.days.reduce((sum: number, day: { balance_minutes: number }) => sum + day.balance_minutes, 0));
    // Through Tuesday 10 March: 600 + 60 − 570 − 6 × 480 (Tuesday to Tuesday without the weekend).
    const overtime = (await ann.call('GET', '/api/stats/overtime')).json();
    expect(overtime).toEqual({ balance_minutes: 600 + 60 - 570 - 6 * 480, offset_minutes: 600, since: '2026-03-02', through: '2026-03-10' });
    const today = (await ann.call('GET', '/api/stats/today')).json();
    expect(today).toMatchObject({ booked_minutes: -120, end_of_work: '2026-03-11T18:00:00.000Z' });
    // The payout of today moves the adjusted end later by 2 hours.
    expect(Date.parse(today.adjusted_end_of_work)).toBe(Date.parse(today.end_of_work) - (overtime.balance_minutes - 120) * 60_000);
    // The week's rows agree with the balance: the days of the tracking start through yesterday.
    const counted = week.days
      .filter((day: { date: string }) => day.date <= '2026-03-08')
      .reduce((sum: number, day: { balance_minutes: number }) => sum + day.balance_minutes, 0);
    const next = (await ann.call('GET', '/api/stats/week?date=2026-03-09')).json();
    const counted2 = next.days
      .filter((day: { date: string }) => day.date <= '2026-03-10')
      .reduce((sum: number, day: { balance_minutes: number }) => sum + day.balance_minutes, 0);
    expect(600 + counted + counted2).toBe(overtime.balance_minutes);
  });
});
