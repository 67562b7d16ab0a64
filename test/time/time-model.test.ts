// The time model at its edges (docs/time-model.md): sub-minute entries from the timer, the per-day
// floor that the week, the overtime balance and today share, and local days in zones whose clocks
// change at midnight (skipped, repeated or shifted midnights), checked with figures worked out by hand.
import { Settings as LuxonSettings } from 'luxon';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startOfDay } from '../../src/time/calendar/dates.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { addEntry, asUser, login, type SignedIn, signIn } from '../support/requests.js';

let t: TestApp;
let ann: SignedIn;
beforeEach(async () => {
  t = await createTestApp();
  t.clock.set('2026-03-10T12:00:00.000Z'); // Tuesday
  ann = await signIn(t);
});
afterEach(async () => {
  await t.close();
});

/** Moves the clock (days or months at once) and signs in again: a session lasts a day. */
async function at(iso: string): Promise<void> {
  t.clock.set(iso);
  ann = asUser(t, ann.userId, await login(t.app));
}

const NO_TARGET = { mon: 0, tue: 0, wed: 0, thu: 0, fri: 0, sat: 0, sun: 0 };

async function workedByDate(user: SignedIn, dates: string[]): Promise<Record<string, number>> {
  const result: Record<string, number> = {};
  for (const date of dates) {
    const week = (await user.call('GET', `/api/stats/week?date=${date}`)).json() as { days: Array<{ date: string; worked_minutes: number }> };
    result[date] = week.days.find((day) => day.date === date)!.worked_minutes;
  }
  return result;
}

async function overtime(user: SignedIn): Promise<{ balance_minutes: number; through: string }> {
  const response = await user.call('GET', '/api/stats/overtime');
  expect(response.statusCode).toBe(200);
  return response.json();
}

describe('whole minutes per day, in every balance', () => {
  it('answers overtime (not 500) after a 30.5-second entry, and counts it as 0 minutes', async () => {
    await ann.call('PATCH', '/api/settings', { tracking_start: '2026-03-09' });
    await addEntry(ann, '2026-03-09T10:00:00Z', '2026-03-09T10:00:30.500Z');
    expect(await overtime(ann)).toMatchObject({ balance_minutes: -480, through: '2026-03-09' });
    expect(await workedByDate(ann, ['2026-03-09'])).toEqual({ '2026-03-09': 0 });
  });

  it('answers overtime after a 30.5-second run of the timer, and today moves end of work by whole minutes', async () => {
    await ann.call('PATCH', '/api/settings', { tracking_start: '2026-03-09' });
    await at('2026-03-09T10:00:00.000Z');
    await ann.call('POST', '/api/time-entries/start');
    t.clock.advance(30.5);
    expect((await ann.call('POST', '/api/time-entries/stop')).statusCode).toBe(200);
    await at('2026-03-10T09:00:00.000Z');
    expect((await overtime(ann)).balance_minutes).toBe(-480);
    const today = (await ann.call('GET', '/api/stats/today')).json();
    expect(today.end_of_work).toBe('2026-03-10T17:00:00.000Z');
    expect(today.adjusted_end_of_work).toBe('2026-03-11T01:00:00.000Z');
  });

  it('sums the per-day figures: two 30-second entries on two days are 0 minutes, as the week shows', async () => {
    await ann.call('PATCH', '/api/settings', { tracking_start: '2026-03-08', weekly_target_minutes: NO_TARGET, targets_valid_from: '2026-03-08' });
    await addEntry(ann, '2026-03-08T10:00:00Z', '2026-03-08T10:00:30Z');
    await addEntry(ann, '2026-03-09T10:00:00Z', '2026-03-09T10:00:30Z');
    expect(await workedByDate(ann, ['2026-03-08', '2026-03-09'])).toEqual({ '2026-03-08': 0, '2026-03-09': 0 });
    expect((await overtime(ann)).balance_minutes).toBe(0);
  });

  it('floors each day of a 31-day entry (1439 + 30 × 1440 minutes, not one minute more)', async () => {
    await ann.call('PATCH', '/api/settings', { tracking_start: '2026-01-01', weekly_target_minutes: NO_TARGET, targets_valid_from: '2026-01-01' });
    await addEntry(ann, '2026-01-01T00:00:30Z', '2026-02-01T00:00:30Z');
    expect(await workedByDate(ann, ['2026-01-01', '2026-01-02', '2026-02-01'])).toEqual({ '2026-01-01': 1439, '2026-01-02': 1440, '2026-02-01': 0 });
    expect((await overtime(ann)).balance_minutes).toBe(1439 + 30 * 1440);
  });
});

// Each entry crosses a day whose clock changes at midnight; minutes per local day worked out by hand.
const MIDNIGHT_CHANGES: Array<{ zone: string; what: string; start: string; end: string; minutes: Record<string, number> }> = [
  {
    zone: 'America/Santiago',
    what: 'midnight skipped (23-hour Sunday)',
    start: '2026-09-06T04:00:00Z',
    end: '2026-09-07T06:00:00Z',
    minutes: { '2026-09-06': 1380, '2026-09-07': 180 },
  },
  {
    zone: 'America/Havana',
    what: 'midnight skipped',
    start: '2026-03-07T12:00:00Z',
    end: '2026-03-09T12:00:00Z',
    minutes: { '2026-03-07': 1020, '2026-03-08': 1380, '2026-03-09': 480 },
  },
  {
    zone: 'America/Havana',
    what: 'midnight repeated (25-hour day from the first pass)',
    start: '2026-11-01T03:30:00Z',
    end: '2026-11-02T05:30:00Z',
    minutes: { '2026-10-31': 30, '2026-11-01': 1500, '2026-11-02': 30 },
  },
  {
    zone: 'Atlantic/Azores',
    what: 'midnight skipped',
    start: '2026-03-28T23:00:00Z',
    end: '2026-03-30T02:00:00Z',
    minutes: { '2026-03-28': 120, '2026-03-29': 1380, '2026-03-30': 120 },
  },
  {
    zone: 'Atlantic/Azores',
    what: 'midnight repeated',
    start: '2026-10-24T23:30:00Z',
    end: '2026-10-26T01:30:00Z',
    minutes: { '2026-10-24': 30, '2026-10-25': 1500, '2026-10-26': 30 },
  },
  {
    zone: 'Asia/Beirut',
    what: 'midnight skipped',
    start: '2026-03-28T21:00:00Z',
    end: '2026-03-29T22:00:00Z',
    minutes: { '2026-03-28': 60, '2026-03-29': 1380, '2026-03-30': 60 },
  },
  {
    zone: 'Asia/Beirut',
    what: 'midnight goes back to 23:00 (25-hour Saturday)',
    start: '2026-10-23T20:00:00Z',
    end: '2026-10-24T23:00:00Z',
    minutes: { '2026-10-23': 60, '2026-10-24': 1500, '2026-10-25': 60 },
  },
  {
    zone: 'Africa/Cairo',
    what: 'midnight skipped',
    start: '2026-04-23T21:00:00Z',
    end: '2026-04-24T22:00:00Z',
    minutes: { '2026-04-23': 60, '2026-04-24': 1380, '2026-04-25': 60 },
  },
  {
    zone: 'Africa/Cairo',
    what: 'midnight goes back to 23:00 (25-hour Thursday)',
    start: '2026-10-28T20:00:00Z',
    end: '2026-10-29T23:00:00Z',
    minutes: { '2026-10-28': 60, '2026-10-29': 1500, '2026-10-30': 60 },
  },
];

describe('local days where the clock changes at midnight', () => {
  for (const example of MIDNIGHT_CHANGES) {
    it(`${example.zone}, ${example.what}: ${example.start} → ${example.end}`, async () => {
      await at('2026-12-15T12:00:00Z');
      await ann.call('PATCH', '/api/settings', {
        timezone: example.zone,
        timezone_valid_from: '1970-01-01',
        tracking_start: '2026-01-01',
        weekly_target_minutes: NO_TARGET,
        targets_valid_from: '2026-01-01',
      });
      await addEntry(ann, example.start, example.end);
      expect(await workedByDate(ann, Object.keys(example.minutes))).toEqual(example.minutes);
      const total = Object.values(example.minutes).reduce((sum, minutes) => sum + minutes, 0);
      expect((await overtime(ann)).balance_minutes).toBe(total);
    });
  }

  it('counts an entry in the first pass of a repeated midnight on that day, and ?from=<that date> lists it', async () => {
    await at('2026-11-10T12:00:00Z');
    await ann.call('PATCH', '/api/settings', {
      timezone: 'America/Havana',
      timezone_valid_from: '1970-01-01',
      tracking_start: '2026-10-01',
      weekly_target_minutes: NO_TARGET,
      targets_valid_from: '2026-10-01',
    });
    const id = await addEntry(ann, '2026-11-01T04:10:00Z', '2026-11-01T04:50:00Z'); // 00:10–00:50, first pass
    expect(await workedByDate(ann, ['2026-10-31', '2026-11-01'])).toEqual({ '2026-10-31': 0, '2026-11-01': 40 });
    expect((await overtime(ann)).balance_minutes).toBe(40);
    const listed = (await ann.call('GET', '/api/time-entries?from=2026-11-01&to=2026-11-02')).json();
    expect(listed.entries.map((entry: { id: number }) => entry.id)).toEqual([id]);
    const before = (await ann.call('GET', '/api/time-entries?from=2026-10-31&to=2026-11-01')).json();
    expect(before.entries).toEqual([]);
  });

  it('finds the same day start whatever date the server has (luxon guesses repeated local times by it)', () => {
    const realNow = LuxonSettings.now;
    try {
      const starts = ['2026-01-15T00:00:00Z', '2026-07-15T00:00:00Z', '2026-11-01T04:30:00Z'].map((now) => {
        LuxonSettings.now = () => Date.parse(now);
        return ['America/Havana 2026-11-01', 'Atlantic/Azores 2026-10-25', 'America/Santiago 2026-09-06', 'Australia/Lord_Howe 2026-04-05'].map((key) => {
          const [zone, date] = key.split(' ') as [string, string];
          return new Date(startOfDay(date, zone)).toISOString();
        });
      });
      expect(starts[1]).toEqual(starts[0]);
      expect(starts[2]).toEqual(starts[0]);
      expect(starts[0]).toEqual(['2026-11-01T04:00:00.000Z', '2026-10-25T00:00:00.000Z', '2026-09-06T04:00:00.000Z', '2026-04-04T13:00:00.000Z']);
    } finally {
      LuxonSettings.now = realNow;
    }
  });
});

describe('the clock just before and after local midnight', () => {
  it('moves a running timer from today into the balance at the skipped midnight of America/Santiago', async () => {
    await at('2026-09-01T12:00:00Z');
    await ann.call('PATCH', '/api/settings', {
      timezone: 'America/Santiago',
      timezone_valid_from: '1970-01-01',
      tracking_start: '2026-09-01',
      weekly_target_minutes: NO_TARGET,
      targets_valid_from: '2026-09-01',
    });
    await at('2026-09-06T02:30:00Z'); // Saturday 22:30 (-04:00)
    await ann.call('POST', '/api/time-entries/start');

    await at('2026-09-06T03:59:59.999Z'); // Saturday 23:59:59.999
    let today = (await ann.call('GET', '/api/stats/today')).json();
    expect(today).toMatchObject({ date: '2026-09-05', worked_minutes: 89, running: true });
    expect((await overtime(ann)).balance_minutes).toBe(0);

    await at('2026-09-06T04:00:00.000Z'); // Sunday 01:00 (-03:00): midnight never happened
    today = (await ann.call('GET', '/api/stats/today')).json();
    expect(today).toMatchObject({ date: '2026-09-06', worked_minutes: 0, running: true });
    expect(await overtime(ann)).toMatchObject({ balance_minutes: 90, through: '2026-09-05' });

    await at('2026-09-06T04:01:00.000Z');
    await ann.call('POST', '/api/time-entries/stop');
    const week = (await ann.call('GET', '/api/stats/week')).json();
    expect(week.days.slice(5).map((day: { worked_minutes: number }) => day.worked_minutes)).toEqual([90, 1]);
    // The totals count complete days: Saturday's 90, not Sunday's minute (today); the balance is the overtime's.
    expect(week.totals).toMatchObject({ worked_minutes: 90, balance_minutes: 90 });
  });

  it('starts the day at the first pass of a repeated midnight in America/Havana', async () => {
    await at('2026-10-20T12:00:00Z');
    await ann.call('PATCH', '/api/settings', {
      timezone: 'America/Havana',
      timezone_valid_from: '1970-01-01',
      tracking_start: '2026-10-01',
      weekly_target_minutes: NO_TARGET,
      targets_valid_from: '2026-10-01',
    });
    await at('2026-11-01T03:59:59.999Z'); // Saturday 23:59:59.999 (-04:00)
    expect((await ann.call('GET', '/api/stats/today')).json().date).toBe('2026-10-31');
    await at('2026-11-01T04:00:00.000Z'); // Sunday 00:00, first pass
    await ann.call('POST', '/api/time-entries/start');
    await at('2026-11-01T05:30:00.000Z'); // Sunday 00:30, second pass
    const today = (await ann.call('GET', '/api/stats/today')).json();
    expect(today).toMatchObject({ date: '2026-11-01', worked_minutes: 90 });
    expect((await overtime(ann)).through).toBe('2026-10-31');
  });

  it('keeps the 30-minute DST change of Australia/Lord_Howe and the +05:45 of Asia/Kathmandu', async () => {
    await at('2026-04-10T12:00:00Z');
    await ann.call('PATCH', '/api/settings', {
      timezone: 'Australia/Lord_Howe',
      timezone_valid_from: '1970-01-01',
      tracking_start: '2026-04-01',
      weekly_target_minutes: NO_TARGET,
      targets_valid_from: '2026-04-01',
    });
    // Sunday 5 April: 02:00 (+11:00) becomes 01:30 (+10:30), a 24.5-hour day.
    await addEntry(ann, '2026-04-04T13:00:00Z', '2026-04-05T13:30:00Z');
    expect(await workedByDate(ann, ['2026-04-05', '2026-04-06'])).toEqual({ '2026-04-05': 1470, '2026-04-06': 0 });
    await ann.call('PATCH', '/api/settings', { timezone: 'Asia/Kathmandu', timezone_valid_from: '1970-01-01' });
    // Local midnight of 5 April is 18:15 UTC on the 4th.
    expect(await workedByDate(ann, ['2026-04-04', '2026-04-05', '2026-04-06'])).toEqual({ '2026-04-04': 315, '2026-04-05': 1155, '2026-04-06': 0 });
  });
});
