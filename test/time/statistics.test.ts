// /api/stats: week overview (UTC, Asia/Tokyo, DST weeks in Europe/Berlin), overtime, today, and the
// anonymous answers (never 401).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { addEntry, type SignedIn, signIn } from '../support/requests.js';

let t: TestApp;
let ann: SignedIn;
beforeEach(async () => {
  t = await createTestApp();
  t.clock.set('2026-01-20T10:00:00.000Z');
  ann = await signIn(t);
});
afterEach(async () => {
  await t.close();
});

interface Day {
  date: string;
  weekday: string;
  target_minutes: number;
  worked_minutes: number;
  break_minutes: number;
  absence: string | null;
  public_holiday: string | null;
  balance_minutes: number;
}

const pick = (days: Day[], key: keyof Day) => days.map((day) => day[key]);

/**
 * The week of Monday 2026-01-05 in Bavaria: Tuesday is Epiphany (a public holiday in DE-BY),
 * Wednesday is a vacation day, and an entry runs from Friday 22:00 to Saturday 02:00 UTC.
 */
async function recordWeek(user: SignedIn): Promise<void> {
  await addEntry(user, '2026-01-05T08:00:00Z', '2026-01-05T16:30:00Z'); // Mon 510
  await addEntry(user, '2026-01-06T09:00:00Z', '2026-01-06T10:00:00Z'); // Tue (holiday) 60
  await addEntry(user, '2026-01-08T09:00:00Z', '2026-01-08T17:00:00Z'); // Thu 480
  await addEntry(user, '2026-01-09T09:00:00Z', '2026-01-09T12:00:00Z'); // Fri 180
  await addEntry(user, '2026-01-09T22:00:00Z', '2026-01-10T02:00:00Z'); // Fri 120 + Sat 120
  // Outside the week: must not count.
  await addEntry(user, '2026-01-04T10:00:00Z', '2026-01-04T12:00:00Z');
  await addEntry(user, '2026-01-12T08:00:00Z', '2026-01-12T09:00:00Z');
  const vacation = await user.call('POST', '/api/time-entries/absences', { date: '2026-01-07', type: 'vacation' });
  expect(vacation.statusCode).toBe(201);
}

describe('week overview', () => {
  it('counts worked days, a vacation day, a public holiday and an entry across midnight in UTC', async () => {
    await ann.call('PATCH', '/api/settings', { holiday_region: 'DE-BY', tracking_start: '2026-01-01' });
    await recordWeek(ann);
    const response = await ann.call('GET', '/api/stats/week?date=2026-01-08');
    expect(response.statusCode).toBe(200);
    const week = response.json();
    expect(week.week_start).toBe('2026-01-05');
    expect(week.week_end).toBe('2026-01-11');
    expect(week.days[1]).toEqual({
      date: '2026-01-06',
      weekday: 'tue',
      target_minutes: 0,
      worked_minutes: 60,
      break_minutes: 0,
      break_deducted_minutes: 0,
      absence: null,
      absence_portion: null,
      public_holiday: 'Epiphany',
      booked_minutes: 0,
      complete: true,
      balance_minutes: 60,
    });
    expect(week.days[2]).toMatchObject({ date: '2026-01-07', absence: 'vacation', target_minutes: 0, public_holiday: null });
    expect(pick(week.days, 'weekday')).toEqual(['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun']);
    expect(pick(week.days, 'target_minutes')).toEqual([480, 0, 0, 480, 480, 0, 0]);
    expect(pick(week.days, 'worked_minutes')).toEqual([510, 60, 0, 480, 300, 120, 0]);
    expect(pick(week.days, 'balance_minutes')).toEqual([30, 60, 0, 0, -180, 120, 0]);
    // Friday's gap from 12:00 to 22:00 is longer than the longest break (3 hours): a split shift, no
    // break (docs/time-model.md, Break rules; no break rule: nothing is deducted either way).
    expect(pick(week.days, 'break_minutes')).toEqual([0, 0, 0, 0, 0, 0, 0]);
    expect(week.totals).toEqual({
      target_minutes: 1440,
      worked_minutes: 1470,
      break_minutes: 0,
      break_deducted_minutes: 0,
      booked_minutes: 0,
      balance_minutes: 30,
      target_period_minutes: 1440,
    });
  });

  it('splits the same week by the days of Asia/Tokyo (UTC+9)', async () => {
    await ann.call('PATCH', '/api/settings', {
      holiday_region: 'DE-BY',
      tracking_start: '2026-01-01',
      timezone: 'Asia/Tokyo',
      timezone_valid_from: '1970-01-01',
    });
    await recordWeek(ann);
    const week = (await ann.call('GET', '/api/stats/week?date=2026-01-05')).json();
    // Mon 17:00–01:30 JST → Mon 420, Tue 90; Tue 18:00–19:00 → 60; Thu 18:00–02:00 → Thu 360, Fri 120;
    // Fri 18:00–21:00 → 180; Sat 07:00–11:00 → 240. The entry of Sunday 4 Jan (19:00–21:00 JST) is outside.
    expect(pick(week.days, 'worked_minutes')).toEqual([420, 150, 0, 360, 300, 240, 0]);
    expect(pick(week.days, 'target_minutes')).toEqual([480, 0, 0, 480, 480, 0, 0]);
    expect(week.totals).toMatchObject({ target_minutes: 1440, worked_minutes: 1470, booked_minutes: 0, balance_minutes: 30 });
  });

  it('recomputes the days when the time zone changes', async () => {
    await recordWeek(ann);
    const utc = (await ann.call('GET', '/api/stats/week?date=2026-01-05')).json();
    expect(pick(utc.days, 'worked_minutes')).toEqual([510, 60, 0, 480, 300, 120, 0]);
    await ann.call('PATCH', '/api/settings', { timezone: 'Asia/Tokyo', timezone_valid_from: '1970-01-01' });
    const tokyo = (await ann.call('GET', '/api/stats/week?date=2026-01-05')).json();
    expect(pick(tokyo.days, 'worked_minutes')).toEqual([420, 150, 0, 360, 300, 240, 0]);
  });

  it('counts the right minutes in weeks with a DST change in Europe/Berlin', async () => {
    await ann.call('PATCH', '/api/settings', { timezone: 'Europe/Berlin', timezone_valid_from: '1970-01-01', tracking_start: '2026-01-01' });
    // Spring: Saturday 22:00 CET to Sunday 06:00 CEST is 7 real hours (2 on Saturday, 5 on Sunday).
    await addEntry(ann, '2026-03-28T22:00:00+01:00', '2026-03-29T06:00:00+02:00');
    const spring = (await ann.call('GET', '/api/stats/week?date=2026-03-29')).json();
    expect(spring.week_start).toBe('2026-03-23');
    expect(pick(spring.days, 'worked_minutes')).toEqual([0, 0, 0, 0, 0, 120, 300]);
    // Autumn: all of Sunday 25 October, midnight to midnight, is 25 hours.
    await addEntry(ann, '2026-10-25T00:00:00+02:00', '2026-10-26T00:00:00+01:00');
    const autumn = (await ann.call('GET', '/api/stats/week?date=2026-10-20')).json();
    expect(pick(autumn.days, 'worked_minutes')).toEqual([0, 0, 0, 0, 0, 0, 1500]);
    // That week is still to come (the clock is in January): its totals count complete days only, none yet.
    expect(autumn.totals).toMatchObject({ worked_minutes: 0, balance_minutes: 0 });
  });

  it("defaults to this week in the user's zone and counts the running entry up to now", async () => {
    await ann.call('PATCH', '/api/settings', { timezone: 'Asia/Tokyo', timezone_valid_from: '1970-01-01' });
    t.clock.set('2026-01-18T20:00:00Z'); // Monday 19 January, 05:00 in Tokyo
    await ann.call('POST', '/api/time-entries/start');
    t.clock.advance(45 * 60);
    const week = (await ann.call('GET', '/api/stats/week')).json();
    expect(week.week_start).toBe('2026-01-19');
    expect(week.days[0].worked_minutes).toBe(45);
  });

  it('gives days before tracking_start a target of 0', async () => {
    await ann.call('PATCH', '/api/settings', { tracking_start: '2026-01-07' });
    const week = (await ann.call('GET', '/api/stats/week?date=2026-01-05')).json();
    expect(pick(week.days, 'target_minutes')).toEqual([0, 0, 480, 480, 480, 0, 0]);
  });

  it('refuses a bad date with 400 VALIDATION_ERROR', async () => {
    const response = await ann.call('GET', '/api/stats/week?date=2026-02-31');
    expect(response.statusCode).toBe(400);
    expect(response.json().code).toBe('VALIDATION_ERROR');
  });
});

describe('overtime and today', () => {
  beforeEach(async () => {
    await ann.call('PATCH', '/api/settings', { holiday_region: 'DE-BY', tracking_start: '2026-01-05', overtime_offset_minutes: 120 });
    await recordWeek(ann);
  });

  it('is offset + worked − target over complete days from tracking_start through yesterday', async () => {
    t.clock.set('2026-01-12T10:00:00Z'); // Monday: the week of 5–11 January is complete; today does not count
    const response = await ann.call('GET', '/api/stats/overtime');
    expect(response.statusCode).toBe(200);
    // The entry of 4 January is before tracking_start; the one of today (12 January) is not complete.
    expect(response.json()).toEqual({ balance_minutes: 150, offset_minutes: 120, since: '2026-01-05', through: '2026-01-11' });

    t.clock.set('2026-01-13T10:00:00Z'); // Monday 12 January now counts: 60 worked − 480 target
    expect((await ann.call('GET', '/api/stats/overtime')).json()).toMatchObject({ balance_minutes: 150 + 60 - 480, through: '2026-01-12' });
  });

  it('answers the offset alone when tracking starts today', async () => {
    await ann.call('PATCH', '/api/settings', { tracking_start: '2026-01-20' });
    expect((await ann.call('GET', '/api/stats/overtime')).json()).toEqual({
      balance_minutes: 120,
      offset_minutes: 120,
      since: '2026-01-20',
      through: '2026-01-19',
    });
  });

  it("gives today's end of work and the end adjusted by the balance, with a running timer", async () => {
    await ann.call('DELETE', `/api/time-entries/${(await ann.call('GET', '/api/time-entries?from=2026-01-12')).json().entries[0].id}`);
    t.clock.set('2026-01-12T08:00:00Z');
    expect((await ann.call('POST', '/api/time-entries/start')).statusCode).toBe(201);
    t.clock.set('2026-01-12T10:00:00Z');
    const response = await ann.call('GET', '/api/stats/today');
    expect(response.statusCode).toBe(200);
    // Target 480, worked 120: 360 to go from 10:00 → 16:00. Balance +150 → leave 2h30 earlier.
    expect(response.json()).toEqual({
      date: '2026-01-12',
      target_minutes: 480,
      worked_minutes: 120,
      break_minutes: 0,
      break_deducted_minutes: 0,
      booked_minutes: 0,
      remaining_minutes: 360,
      running: true,
      end_of_work: '2026-01-12T16:00:00.000Z',
      adjusted_end_of_work: '2026-01-12T13:30:00.000Z',
    });

    // A negative balance (−270 + 30 = −240) moves the adjusted end 4 hours later.
    await ann.call('PATCH', '/api/settings', { overtime_offset_minutes: -270 });
    const later = (await ann.call('GET', '/api/stats/today')).json();
    expect(later.end_of_work).toBe('2026-01-12T16:00:00.000Z');
    expect(later.adjusted_end_of_work).toBe('2026-01-12T20:00:00.000Z');
  });

  it('without a running timer, the end of work is now plus what remains', async () => {
    await addEntry(ann, '2026-01-20T06:00:00Z', '2026-01-20T09:00:00Z'); // Tuesday 20 January, 180 worked
    const today = (await ann.call('GET', '/api/stats/today')).json();
    expect(today).toMatchObject({ date: '2026-01-20', target_minutes: 480, worked_minutes: 180, remaining_minutes: 300, running: false });
    expect(today.end_of_work).toBe('2026-01-20T15:00:00.000Z');
  });
});

describe('anonymous statistics', () => {
  const noToken = {};
  const garbage = { authorization: 'Bearer not.a.token' };

  it('answers the week with public holidays of ?region= and null personal figures, never 401', async () => {
    for (const headers of [noToken, garbage, { authorization: 'Basic abc' }]) {
      const response = await t.app.inject({ method: 'GET', url: '/api/stats/week?date=2026-01-07&region=DE-BY', headers });
      expect(response.statusCode).toBe(200);
      const week = response.json();
      expect(week.week_start).toBe('2026-01-05');
      expect(week.days[1]).toEqual({
        date: '2026-01-06',
        weekday: 'tue',
        target_minutes: null,
        worked_minutes: null,
        break_minutes: null,
        break_deducted_minutes: null,
        absence: null,
        absence_portion: null,
        public_holiday: 'Epiphany',
        booked_minutes: null,
        complete: false,
        balance_minutes: null,
      });
      expect(pick(week.days, 'public_holiday').filter(Boolean)).toEqual(['Epiphany']);
      expect(week.totals).toEqual({
        target_minutes: null,
        worked_minutes: null,
        break_minutes: null,
        break_deducted_minutes: null,
        booked_minutes: null,
        balance_minutes: null,
        target_period_minutes: null,
      });
    }
    const withoutRegion = (await t.app.inject({ method: 'GET', url: '/api/stats/week?date=2026-01-07' })).json();
    expect(pick(withoutRegion.days, 'public_holiday').every((holiday: unknown) => holiday === null)).toBe(true);
    const badRegion = await t.app.inject({ method: 'GET', url: '/api/stats/week?region=XX' });
    expect(badRegion.statusCode).toBe(400);
    expect(badRegion.json().code).toBe('VALIDATION_ERROR');
  });

  it('answers /overtime and /today with {"authenticated": false} without a valid token, also an expired or revoked one', async () => {
    const stale = await signIn(t, 'bob@example.com');
    await stale.call('POST', '/api/auth/logout');
    const expiring = await signIn(t, 'cem@example.com');
    t.clock.advance(25 * 3600);
    for (const headers of [noToken, garbage, { authorization: `Bearer ${stale.token}` }, { authorization: `Bearer ${expiring.token}` }]) {
      for (const url of ['/api/stats/overtime', '/api/stats/today']) {
        const response = await t.app.inject({ method: 'GET', url, headers });
        expect(response.statusCode, url).toBe(200);
        expect(response.json()).toEqual({ authenticated: false });
      }
      const week = await t.app.inject({ method: 'GET', url: '/api/stats/week', headers });
      expect(week.statusCode).toBe(200);
      expect(week.json().totals.worked_minutes).toBeNull();
    }
  });
});
