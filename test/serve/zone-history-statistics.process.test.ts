// The time zone history through a real `timetrack serve` process and HTTP (docs/time-model.md, Time
// zone history): a change of zone from a date keeps every day before it as it was, the day of the change
// starts where the day before ended in the old zone (15 hours from Los Angeles to Berlin, 33 hours
// back), and an entry across the change counts once. The server has the real clock: every date here is
// counted from today. Expected day lengths are worked out here with luxon's zone rules.
import path from 'node:path';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../support/app.js';
import { expectError } from '../support/expectations.js';
import { request, type TestResponse } from '../support/requests.js';
import { startServer, type RunningServer } from '../support/server.js';

const PASSWORD = 'correct horse battery staple';
const LA = 'America/Los_Angeles';
const BERLIN = 'Europe/Berlin';
let server: RunningServer;
let counter = 0;

beforeAll(async () => {
  server = await startServer(path.join(makeTempDir('timetrack-zones-'), 'timetrack.db'));
});
afterAll(async () => {
  await server?.stop();
});

interface Person {
  call: (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown) => Promise<TestResponse>;
}

/** A new account on the server, signed in, in `zone` on every day from `trackingStart`. */
async function person(zone: string, trackingStart: string): Promise<Person> {
  counter += 1;
  const email = `traveller${process.pid}-${counter}@example.com`;
  expect((await request(server, 'POST', '/api/auth/register', { payload: { email, password: PASSWORD, full_name: `Traveller ${counter}` } })).statusCode).toBe(
    201,
  );
  const token = (await request(server, 'POST', '/api/auth/login', { payload: { email, password: PASSWORD } })).json().token as string;
  const who: Person = { call: (method, url, payload) => request(server, method, url, { payload, token }) };
  const set = await who.call('PATCH', '/api/settings', { timezone: zone, timezone_valid_from: '1970-01-01', tracking_start: trackingStart });
  expect(set.statusCode, set.body).toBe(200);
  expect(set.json().zones).toEqual([{ valid_from: trackingStart, timezone: zone }]);
  return who;
}

const todayUtc = () => DateTime.utc().toISODate() as string;
const mondayWeeksAgo = (weeks: number) => DateTime.utc().startOf('week').minus({ weeks }).toISODate() as string;
const plus = (date: string, days: number) => DateTime.fromISO(date, { zone: 'UTC' }).plus({ days }).toISODate() as string;
const isWeekday = (date: string) => DateTime.fromISO(date, { zone: 'UTC' }).weekday <= 5;
const midnight = (date: string, zone: string) => DateTime.fromISO(date, { zone }).toMillis();

async function entry(who: Person, start: string, end: string): Promise<void> {
  const response = await who.call('POST', '/api/time-entries', { start_at: start, end_at: end });
  expect(response.statusCode, response.body).toBe(201);
}

async function json(who: Person, url: string) {
  const response = await who.call('GET', url);
  expect(response.statusCode, response.body).toBe(200);
  return response.json();
}

/** Every figure a person sees of the weeks from `weeks` Mondays ago through this week, this and last month, and the overtime. */
async function figures(who: Person, weeks: number) {
  const weekly = [];
  for (let week = weeks; week >= 0; week--) weekly.push(await json(who, `/api/stats/week?date=${mondayWeeksAgo(week)}`));
  const thisMonth = todayUtc().slice(0, 7);
  const lastMonth = DateTime.utc().minus({ months: 1 }).toFormat('yyyy-MM');
  const months = [await json(who, `/api/stats/month?month=${lastMonth}`), await json(who, `/api/stats/month?month=${thisMonth}`)];
  return { weeks: weekly, months, overtime: await json(who, '/api/stats/overtime') };
}

type Day = { date: string };
const daysBefore = (date: string, rows: Day[]) => rows.filter((day) => day.date < date);

describe('a change of time zone from a date', () => {
  it('from today (the default) keeps every past figure: weeks, months and the overtime', async () => {
    const start = mondayWeeksAgo(5);
    const ann = await person(LA, start);
    // Every weekday 15:00–23:30 UTC: in Los Angeles a day's work, in Berlin across midnight.
    for (let date = start; date < plus(todayUtc(), -1); date = plus(date, 1)) if (isWeekday(date)) await entry(ann, `${date}T15:00:00Z`, `${date}T23:30:00Z`);
    const before = await figures(ann, 5);

    const changed = await ann.call('PATCH', '/api/settings', { timezone: BERLIN });
    expect(changed.statusCode, changed.body).toBe(200);
    const firstDay = DateTime.now().setZone(BERLIN).toISODate() as string;
    expect(changed.json().zones).toEqual([
      { valid_from: start, timezone: LA },
      { valid_from: firstDay, timezone: BERLIN },
    ]);
    const after = await figures(ann, 5);
    // The change starts at the next midnight in Los Angeles at the earliest: yesterday stays yesterday.
    expect(after.overtime).toEqual(before.overtime);
    for (const [index, week] of before.weeks.entries()) expect(daysBefore(firstDay, after.weeks[index].days)).toEqual(daysBefore(firstDay, week.days));
    for (const [index, month] of before.months.entries()) {
      expect(after.months[index].balance_before_minutes).toBe(month.balance_before_minutes);
      expect(daysBefore(firstDay, after.months[index].days)).toEqual(daysBefore(firstDay, month.days));
    }
  });

  for (const [from, to, hours] of [
    [LA, BERLIN, 15],
    [BERLIN, LA, 33],
  ] as const) {
    it(`from ${from} to ${to} on a Wednesday: that day lasts about ${hours} hours, the days before keep their figures, an entry across it counts once`, async () => {
      const start = mondayWeeksAgo(4);
      const wednesday = plus(mondayWeeksAgo(2), 2);
      const ann = await person(from, start);
      // From Tuesday 20:00 UTC to Thursday 10:00 UTC, and a day's work on the Monday and on the week before.
      const entryStart = Date.parse(`${plus(wednesday, -1)}T20:00:00Z`);
      const entryEnd = Date.parse(`${plus(wednesday, 1)}T10:00:00Z`);
      await entry(ann, new Date(entryStart).toISOString(), new Date(entryEnd).toISOString());
      await entry(ann, `${plus(wednesday, -2)}T09:00:00Z`, `${plus(wednesday, -2)}T15:00:00Z`);
      await entry(ann, `${plus(wednesday, -9)}T09:00:00Z`, `${plus(wednesday, -9)}T15:00:00Z`);
      const weekBefore = await json(ann, `/api/stats/week?date=${plus(wednesday, -7)}`);
      const weekOfChange = await json(ann, `/api/stats/week?date=${wednesday}`);

      const changed = await ann.call('PATCH', '/api/settings', { timezone: to, timezone_valid_from: wednesday });
      expect(changed.statusCode, changed.body).toBe(200);
      expect(changed.json().zones).toEqual([
        { valid_from: start, timezone: from },
        { valid_from: wednesday, timezone: to },
      ]);

      // Tuesday ends at Wednesday's midnight in the old zone; Wednesday at Thursday's midnight in the new one.
      const wednesdayStart = midnight(wednesday, from);
      const wednesdayEnd = midnight(plus(wednesday, 1), to);
      if (Math.abs(DateTime.fromISO(wednesday, { zone: from }).offset - DateTime.fromISO(wednesday, { zone: to }).offset) === 9 * 60) {
        expect(wednesdayEnd - wednesdayStart).toBe(hours * 3_600_000);
      }
      const week = await json(ann, `/api/stats/week?date=${wednesday}`);
      const worked = Object.fromEntries(week.days.map((day: { date: string; worked_minutes: number }) => [day.date, day.worked_minutes]));
      expect(worked[plus(wednesday, -1)]).toBe((wednesdayStart - entryStart) / 60_000);
      expect(worked[wednesday]).toBe((wednesdayEnd - wednesdayStart) / 60_000);
      expect(worked[plus(wednesday, 1)]).toBe((entryEnd - wednesdayEnd) / 60_000);
      // Counted once: the three shares are the entry, and Monday and Tuesday are as they were.
      expect(worked[plus(wednesday, -1)] + worked[wednesday] + worked[plus(wednesday, 1)]).toBe((entryEnd - entryStart) / 60_000);
      expect(daysBefore(wednesday, week.days)).toEqual(daysBefore(wednesday, weekOfChange.days));
      expect(await json(ann, `/api/stats/week?date=${plus(wednesday, -7)}`)).toEqual(weekBefore);
      // The month sheet shows the zone of each day.
      const sheet = await json(ann, `/api/stats/month?month=${wednesday.slice(0, 7)}`);
      expect(sheet.zones.at(-1)).toEqual({ valid_from: wednesday, timezone: to });
    });
  }

  it('from a day on or before the tracking start recounts every day ("all my days"); a later day or a bad one is refused naming the field', async () => {
    const start = mondayWeeksAgo(3);
    const ann = await person('UTC', start);
    const monday = mondayWeeksAgo(2);
    await entry(ann, `${monday}T20:00:00Z`, `${monday}T23:00:00Z`);
    expect((await json(ann, `/api/stats/week?date=${monday}`)).days[0].worked_minutes).toBe(180);
    const all = await ann.call('PATCH', '/api/settings', { timezone: 'Asia/Tokyo', timezone_valid_from: '2000-01-01' });
    expect(all.json().zones).toEqual([{ valid_from: start, timezone: 'Asia/Tokyo' }]);
    // 20:00–23:00 UTC is Tuesday 05:00–08:00 in Tokyo.
    const week = await json(ann, `/api/stats/week?date=${monday}`);
    expect([week.days[0].worked_minutes, week.days[1].worked_minutes]).toEqual([0, 180]);

    const tomorrow = plus(DateTime.now().setZone('Europe/Berlin').toISODate() as string, 1);
    const later = expectError(await ann.call('PATCH', '/api/settings', { timezone: BERLIN, timezone_valid_from: tomorrow }), 400, 'VALIDATION_ERROR');
    expect(later.details?.[0].field).toBe('timezone_valid_from');
    const bad = expectError(await ann.call('PATCH', '/api/settings', { timezone: BERLIN, timezone_valid_from: '2026-02-30' }), 400, 'VALIDATION_ERROR');
    expect(bad.details?.[0].field).toBe('timezone_valid_from');
    const alone = expectError(await ann.call('PATCH', '/api/settings', { timezone_valid_from: monday }), 400, 'VALIDATION_ERROR');
    expect(alone.details?.[0].field).toBe('timezone_valid_from');
    expect((await json(ann, '/api/settings')).zones).toEqual([{ valid_from: start, timezone: 'Asia/Tokyo' }]);
  });
});
