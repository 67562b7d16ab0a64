// Through a real `timetrack serve` process and HTTP (docs/time-model.md): targets set from the tracking
// start after the schedule list was read (which stores the defaults), the vacation allowance explained
// (pro rata, days taken before the tracking start, a booking beyond what remains) and the range of
// absences that clashes with days already taken. The server has the real clock: dates count from today.
import path from 'node:path';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../support/app.js';
import { expectError } from '../support/expectations.js';
import { request, type TestResponse } from '../support/requests.js';
import { startServer, type RunningServer } from '../support/server.js';

const PASSWORD = 'correct horse battery staple';
let server: RunningServer;
let counter = 0;

beforeAll(async () => {
  server = await startServer(path.join(makeTempDir('timetrack-schedules-'), 'timetrack.db'));
});
afterAll(async () => {
  await server?.stop();
});

type Call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) => Promise<TestResponse>;

/** A new account on the server, signed in; its zone UTC, its tracking start today. */
async function person(): Promise<Call> {
  counter += 1;
  const email = `planner${process.pid}-${counter}@example.com`;
  expect((await request(server, 'POST', '/api/auth/register', { payload: { email, password: PASSWORD, full_name: `Planner ${counter}` } })).statusCode).toBe(
    201,
  );
  const token = (await request(server, 'POST', '/api/auth/login', { payload: { email, password: PASSWORD } })).json().token as string;
  return (method, url, payload) => request(server, method, url, { payload, token });
}

const today = () => DateTime.utc().toISODate() as string;
const mondayWeeksAgo = (weeks: number) => DateTime.utc().startOf('week').minus({ weeks }).toISODate() as string;
const plus = (date: string, days: number) => DateTime.fromISO(date, { zone: 'UTC' }).plus({ days }).toISODate() as string;
const SHORT = { mon: 360, tue: 360, wed: 360, thu: 360, fri: 360 };

async function mondayTarget(call: Call, monday: string): Promise<number> {
  const week = (await call('GET', `/api/stats/week?date=${monday}`)).json();
  expect(week.days[0].date).toBe(monday);
  return week.days[0].target_minutes as number;
}

describe('targets from the tracking start after the schedules were read', () => {
  it('the settings page: the list read (defaults stored from today), then tracking start and targets moved earlier in one save', async () => {
    const call = await person();
    const listed = (await call('GET', '/api/settings/schedules')).json().schedules;
    expect(listed.map((schedule: { valid_from: string }) => schedule.valid_from)).toEqual([today()]);
    const start = mondayWeeksAgo(3);
    const saved = await call('PATCH', '/api/settings', { tracking_start: start, weekly_target_minutes: SHORT, targets_valid_from: start });
    expect(saved.statusCode, saved.body).toBe(200);
    // A Monday after the day the defaults were stored (next week's plan) and one before it.
    expect(await mondayTarget(call, mondayWeeksAgo(-1))).toBe(360);
    expect(await mondayTarget(call, mondayWeeksAgo(2))).toBe(360);
    const schedules = (await call('GET', '/api/settings/schedules')).json().schedules;
    expect(schedules).toEqual([expect.objectContaining({ valid_from: start, weekly_target_minutes: { ...SHORT, sat: 0, sun: 0 } })]);
  });

  it('the list read after the tracking start was set, then targets from a day before it (PATCH and POST)', async () => {
    const call = await person();
    const start = mondayWeeksAgo(3);
    expect((await call('PATCH', '/api/settings', { tracking_start: start })).statusCode).toBe(200);
    expect((await call('GET', '/api/settings/schedules')).json().schedules).toHaveLength(1);
    expect((await call('PATCH', '/api/settings', { weekly_target_minutes: SHORT, targets_valid_from: plus(start, -7) })).statusCode).toBe(200);
    expect(await mondayTarget(call, start)).toBe(360);
    expect(await mondayTarget(call, mondayWeeksAgo(1))).toBe(360);

    // A later schedule stays; POST from a day before the start again replaces the earliest.
    expect((await call('POST', '/api/settings/schedules', { valid_from: mondayWeeksAgo(1), weekly_target_minutes: { mon: 300 } })).statusCode).toBe(201);
    expect((await call('POST', '/api/settings/schedules', { valid_from: plus(start, -3), weekly_target_minutes: { mon: 420 } })).statusCode).toBe(201);
    expect(await mondayTarget(call, start)).toBe(420);
    expect(await mondayTarget(call, mondayWeeksAgo(1))).toBe(300);
    const schedules = (await call('GET', '/api/settings/schedules')).json().schedules;
    expect(schedules.map((schedule: { valid_from: string }) => schedule.valid_from)).toEqual([plus(start, -3), mondayWeeksAgo(1)]);
  });
});

describe('a range of absences that clashes', () => {
  it('the 409 names every clashing day, more than ten of them', async () => {
    const call = await person();
    const monday = mondayWeeksAgo(-2);
    expect((await call('POST', '/api/time-entries/absences', { from: monday, to: plus(monday, 20), type: 'sick' })).statusCode).toBe(201);
    const refused = expectError(
      await call('POST', '/api/time-entries/absences', { from: plus(monday, -7), to: plus(monday, 27), type: 'vacation' }),
      409,
      'ABSENCE_EXISTS',
    );
    const weekdays = [0, 1, 2, 3, 4, 7, 8, 9, 10, 11, 14, 15, 16, 17, 18].map((days) => plus(monday, days));
    expect(refused.message).toBe(`There is already an absence on ${weekdays.join(', ')}`);
  });
});
