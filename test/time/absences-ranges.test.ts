// Half days and ranges of absence (docs/time-model.md): a half day halves the day's target (rounded
// down), a range makes one absence per day with a target that is not a public holiday, all or none.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { expectError } from '../support/expectations.js';
import { addEntry, type SignedIn, signIn } from '../support/requests.js';

let t: TestApp;
let ann: SignedIn;
beforeEach(async () => {
  t = await createTestApp();
  t.clock.set('2026-03-30T09:00:00.000Z');
  ann = await signIn(t);
  await ann.call('PATCH', '/api/settings', {
    tracking_start: '2026-01-01',
    holiday_region: 'DE-BY',
    weekly_target_minutes: { fri: 315 },
    targets_valid_from: '2026-01-01',
  });
});
afterEach(async () => {
  await t.close();
});

const dates = (absences: Array<{ date: string }>) => absences.map((absence) => absence.date);

describe('half days', () => {
  it('halve the target of the day, rounded down to a minute, in the week and in the balance', async () => {
    const half = await ann.call('POST', '/api/time-entries/absences', { date: '2026-03-06', type: 'vacation', portion: 'half' });
    expect(half.statusCode).toBe(201);
    expect(half.json()).toEqual({
      absence: {
        id: expect.any(Number),
        date: '2026-03-06',
        type: 'vacation',
        portion: 'half',
        note: '',
        request_id: half.json().absence.id,
        state: 'booked',
        decided_at: null,
        decision_note: null,
      },
    });
    await ann.call('POST', '/api/time-entries/absences', { date: '2026-03-05', type: 'sick' });
    await addEntry(ann, '2026-03-06T08:00:00Z', '2026-03-06T11:00:00Z');
    const week = (await ann.call('GET', '/api/stats/week?date=2026-03-02')).json();
    // Friday's 315 halved is 157 (157.5 rounded down); Thursday's sick day is a full one.
    expect(week.days[4]).toMatchObject({ target_minutes: 157, worked_minutes: 180, absence: 'vacation', absence_portion: 'half', balance_minutes: 23 });
    expect(week.days[3]).toMatchObject({ target_minutes: 0, absence: 'sick', absence_portion: 'full' });
    expect(week.totals.target_minutes).toBe(480 * 3 + 157);
    // The balance, from aggregates, agrees with the days.
    const before = (await ann.call('GET', '/api/stats/overtime')).json().balance_minutes;
    await ann.call('DELETE', `/api/time-entries/absences/${half.json().absence.id}`);
    expect((await ann.call('GET', '/api/stats/overtime')).json().balance_minutes).toBe(before - (315 - 157));
    expectError(await ann.call('POST', '/api/time-entries/absences', { date: '2026-03-09', type: 'vacation', portion: 'quarter' }), 400, 'VALIDATION_ERROR');
  });

  it('on public holidays and across schedules, the balance from aggregates equals the sum of the day rows', async () => {
    // Two schedules (odd targets from 2026-03-02 on), absences whole and half, on holidays too:
    // 2026-01-01 and 2026-01-06 are holidays in DE-BY; 2026-01-06 has a half day, 2026-01-01 a whole one.
    expect(
      (
        await ann.call('POST', '/api/settings/schedules', {
          valid_from: '2026-03-02',
          weekly_target_minutes: { mon: 301, tue: 0, wed: 455, thu: 333, fri: 121 },
        })
      ).statusCode,
    ).toBe(201);
    const absences: Array<[string, string]> = [
      ['2026-01-01', 'full'],
      ['2026-01-06', 'half'],
      ['2026-01-07', 'half'],
      ['2026-02-13', 'full'],
      ['2026-03-02', 'half'],
      ['2026-03-05', 'half'],
      ['2026-03-06', 'full'],
      ['2026-03-07', 'half'],
    ];
    for (const [date, portion] of absences)
      expect((await ann.call('POST', '/api/time-entries/absences', { date, type: 'vacation', portion })).statusCode).toBe(201);
    await addEntry(ann, '2026-03-03T08:00:00Z', '2026-03-03T11:07:00Z');
    let sum = 0;
    for (let monday = '2025-12-29'; monday <= '2026-03-23';) {
      const week = (await ann.call('GET', `/api/stats/week?date=${monday}`)).json() as { days: Array<{ date: string; balance_minutes: number }> };
      for (const day of week.days) if (day.date >= '2026-01-01' && day.date <= '2026-03-29') sum += day.balance_minutes;
      monday = new Date(Date.parse(`${monday}T00:00:00Z`) + 7 * 86_400_000).toISOString().slice(0, 10);
    }
    expect((await ann.call('GET', '/api/stats/overtime')).json()).toMatchObject({ through: '2026-03-29', balance_minutes: sum });
  });
});

describe('ranges', () => {
  it('make one absence per day with a target that is not a public holiday', async () => {
    // Thursday 2 April to Tuesday 14 April 2026 in Bavaria: Good Friday (3 April) and Easter Monday (6 April) are public holidays.
    const response = await ann.call('POST', '/api/time-entries/absences', { from: '2026-04-02', to: '2026-04-14', type: 'vacation', note: 'Easter' });
    expect(response.statusCode).toBe(201);
    const { absences } = response.json();
    expect(dates(absences)).toEqual(['2026-04-02', '2026-04-07', '2026-04-08', '2026-04-09', '2026-04-10', '2026-04-13', '2026-04-14']);
    expect(absences[0]).toEqual({
      id: expect.any(Number),
      date: '2026-04-02',
      type: 'vacation',
      portion: 'full',
      note: 'Easter',
      request_id: absences[0].id,
      state: 'booked',
      decided_at: null,
      decision_note: null,
    });
    const listed = (await ann.call('GET', '/api/time-entries/absences?from=2026-04-01&to=2026-05-01')).json();
    expect(dates(listed.absences)).toEqual(dates(absences));
  });

  it('with a day that already has an absence: 409 ABSENCE_EXISTS naming the days, and nothing is created', async () => {
    await ann.call('POST', '/api/time-entries/absences', { date: '2026-04-22', type: 'sick' });
    await ann.call('POST', '/api/time-entries/absences', { date: '2026-04-24', type: 'holiday', portion: 'half' });
    const refused = expectError(
      await ann.call('POST', '/api/time-entries/absences', { from: '2026-04-20', to: '2026-04-30', type: 'vacation' }),
      409,
      'ABSENCE_EXISTS',
    );
    expect(refused.message).toContain('2026-04-22, 2026-04-24');
    const listed = (await ann.call('GET', '/api/time-entries/absences?from=2026-04-01&to=2026-05-01')).json();
    expect(dates(listed.absences)).toEqual(['2026-04-22', '2026-04-24']);
  });

  it('counts days with the schedule in force, half days too; refuses a bad, long, empty or mixed range', async () => {
    await ann.call('POST', '/api/settings/schedules', { valid_from: '2026-05-04', weekly_target_minutes: { mon: 0 } });
    const half = (await ann.call('POST', '/api/time-entries/absences', { from: '2026-04-27', to: '2026-05-05', type: 'vacation', portion: 'half' })).json();
    // 1 May is a public holiday, the weekend has no target, and Monday 4 May none under the new schedule.
    expect(dates(half.absences)).toEqual(['2026-04-27', '2026-04-28', '2026-04-29', '2026-04-30', '2026-05-05']);
    expect(half.absences.every((absence: { portion: string }) => absence.portion === 'half')).toBe(true);

    expect(
      expectError(await ann.call('POST', '/api/time-entries/absences', { from: '2026-06-10', to: '2026-06-01', type: 'vacation' }), 400, 'VALIDATION_ERROR')
        .details,
    ).toEqual([{ field: 'to', message: expect.any(String) }]);
    expectError(await ann.call('POST', '/api/time-entries/absences', { from: '2026-06-01', to: '2027-06-02', type: 'vacation' }), 400, 'VALIDATION_ERROR');
    expectError(await ann.call('POST', '/api/time-entries/absences', { from: '2026-06-06', to: '2026-06-07', type: 'vacation' }), 400, 'VALIDATION_ERROR');
    expectError(await ann.call('POST', '/api/time-entries/absences', { from: '2026-06-01', type: 'vacation' }), 400, 'VALIDATION_ERROR');
    expectError(
      await ann.call('POST', '/api/time-entries/absences', { date: '2026-06-01', from: '2026-06-01', to: '2026-06-02', type: 'vacation' }),
      400,
      'VALIDATION_ERROR',
    );
    expectError(await ann.call('POST', '/api/time-entries/absences', { type: 'vacation' }), 400, 'VALIDATION_ERROR');
    // 366 days is the longest range.
    expect((await ann.call('POST', '/api/time-entries/absences', { from: '2027-01-01', to: '2027-12-31', type: 'sick' })).statusCode).toBe(201);
  });
});
