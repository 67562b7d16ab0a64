// The working-time account through a real `timetrack serve` process and HTTP (docs/time-model.md):
// target schedules, half days and ranges of absence, bookings, break rules, the vacation allowance,
// the monthly timesheet and the forgotten timer. The server has the real clock: every date here is
// counted from today, and the figures compared are those of days already over.
import path from 'node:path';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../support/app.js';
import { expectError } from '../support/expectations.js';
import { request, type TestResponse } from '../support/requests.js';
import { startServer, type RunningServer } from '../support/server.js';
import { runCli } from '../support/cli.js';
import { expectPdfShowsSheet } from '../support/timesheet.js';

const PASSWORD = 'correct horse battery staple';
let server: RunningServer;
let dbPath: string;
let counter = 0;

// One server for the file: housekeeping every second (the forgotten timer's case waits for it; no
// other case has a running timer or an expired record for it to act on).
beforeAll(async () => {
  dbPath = path.join(makeTempDir('timetrack-account-'), 'timetrack.db');
  server = await startServer(dbPath, { HOUSEKEEPING_INTERVAL: '1s' });
});
afterAll(async () => {
  await server?.stop();
});

interface Person {
  email: string;
  call: (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) => Promise<TestResponse>;
}

/** A new account on the server, signed in; its zone UTC. */
async function person(): Promise<Person> {
  counter += 1;
  const email = `worker${process.pid}-${counter}@example.com`;
  expect((await request(server, 'POST', '/api/auth/register', { payload: { email, password: PASSWORD, full_name: `Worker ${counter}` } })).statusCode).toBe(
    201,
  );
  const token = (await request(server, 'POST', '/api/auth/login', { payload: { email, password: PASSWORD } })).json().token as string;
  return { email, call: (method, url, payload) => request(server, method, url, { payload, token }) };
}

const today = () => DateTime.utc().toISODate() as string;
const mondayWeeksAgo = (weeks: number) => DateTime.utc().startOf('week').minus({ weeks }).toISODate() as string;
const plus = (date: string, days: number) => DateTime.fromISO(date, { zone: 'UTC' }).plus({ days }).toISODate() as string;
const isWeekday = (date: string) => DateTime.fromISO(date, { zone: 'UTC' }).weekday <= 5;

async function entry(who: Person, date: string, from: string, to: string): Promise<void> {
  const response = await who.call('POST', '/api/time-entries', { start_at: `${date}T${from}:00Z`, end_at: `${date}T${to}:00Z` });
  expect(response.statusCode, response.body).toBe(201);
}

describe('target schedules', () => {
  it('a change of targets from a date changes no figure before that date', async () => {
    const ann = await person();
    const start = mondayWeeksAgo(6);
    expect((await ann.call('PATCH', '/api/settings', { tracking_start: start })).statusCode).toBe(200);
    for (let date = start; date < today(); date = plus(date, 1)) if (isWeekday(date)) await entry(ann, date, '08:00', '15:30');
    const mondays = [6, 5, 4, 3].map(mondayWeeksAgo);
    const weeks = async () => Promise.all(mondays.map(async (monday) => (await ann.call('GET', `/api/stats/week?date=${monday}`)).json()));
    const before = await weeks();
    const overtime = (await ann.call('GET', '/api/stats/overtime')).json();

    // 30 hours a week from the Monday two weeks ago.
    const from = mondayWeeksAgo(2);
    const created = await ann.call('POST', '/api/settings/schedules', {
      valid_from: from,
      weekly_target_minutes: { mon: 360, tue: 360, wed: 360, thu: 360, fri: 360 },
    });
    expect(created.statusCode).toBe(201);
    expectError(await ann.call('POST', '/api/settings/schedules', { valid_from: from, weekly_target_minutes: {} }), 409, 'SCHEDULE_EXISTS');
    expect(await weeks()).toEqual(before);
    const after = (await ann.call('GET', '/api/stats/overtime')).json();
    let weekdays = 0;
    for (let date = from; date <= after.through; date = plus(date, 1)) if (isWeekday(date)) weekdays += 1;
    expect(after.balance_minutes - overtime.balance_minutes).toBe(weekdays * 120);
    expect((await ann.call('GET', '/api/settings/schedules')).json().schedules.map((s: { valid_from: string }) => s.valid_from)).toEqual([start, from]);
  });
});

describe('half days and ranges of absence', () => {
  it('a range makes one absence per day with a target; a day taken refuses the whole range, naming it; a half day halves the target', async () => {
    const ben = await person();
    const monday = mondayWeeksAgo(-2);
    const range = await ben.call('POST', '/api/time-entries/absences', { from: monday, to: plus(monday, 13), type: 'vacation' });
    expect(range.statusCode).toBe(201);
    const created = range.json().absences as Array<{ id: number; date: string; portion: string }>;
    expect(created.map((absence) => absence.date)).toEqual([0, 1, 2, 3, 4, 7, 8, 9, 10, 11].map((days) => plus(monday, days)));

    const taken = plus(monday, 16);
    expect((await ben.call('POST', '/api/time-entries/absences', { date: taken, type: 'sick', portion: 'half' })).statusCode).toBe(201);
    const refused = expectError(
      await ben.call('POST', '/api/time-entries/absences', { from: plus(monday, 14), to: plus(monday, 20), type: 'vacation' }),
      409,
      'ABSENCE_EXISTS',
    );
    expect(refused.message).toContain(taken);
    const listed = (await ben.call('GET', `/api/time-entries/absences?from=${monday}&to=${plus(monday, 28)}`)).json().absences;
    expect(listed).toHaveLength(created.length + 1);
    const week = (await ben.call('GET', `/api/stats/week?date=${taken}`)).json();
    expect(week.days[2]).toMatchObject({ date: taken, absence: 'sick', absence_portion: 'half', target_minutes: 240 });
  });
});

describe('bookings on the balance', () => {
  it('a payout through the API and a correction through the CLI beside the running server count on their dates', async () => {
    const cara = await person();
    const start = mondayWeeksAgo(2);
    await cara.call('PATCH', '/api/settings', { tracking_start: start });
    const before = (await cara.call('GET', '/api/stats/overtime')).json().balance_minutes;
    const payout = await cara.call('POST', '/api/time-entries/bookings', { date: start, minutes: -120, kind: 'payout', note: 'paid' });
    expect(payout.statusCode).toBe(201);
    const booked = await runCli(['--db', dbPath, '--json', 'balance', 'book', cara.email, '--date', plus(start, 1), '--minutes', '45', '--kind', 'correction']);
    expect(booked.exitCode, String(booked.stderr)).toBe(0);
    expect((await cara.call('GET', '/api/stats/overtime')).json().balance_minutes).toBe(before - 120 + 45);
    const week = (await cara.call('GET', `/api/stats/week?date=${start}`)).json();
    expect(week.days.slice(0, 2).map((day: { booked_minutes: number }) => day.booked_minutes)).toEqual([-120, 45]);
    expect(week.totals.booked_minutes).toBe(-75);
    expect((await cara.call('GET', '/api/time-entries/bookings')).json().bookings).toHaveLength(2);
  });
});

describe('break rules', () => {
  it('the German preset deducts the break not taken, never below the threshold, and the balance agrees with the days', async () => {
    const dora = await person();
    const monday = mondayWeeksAgo(1);
    await dora.call('PATCH', '/api/settings', {
      tracking_start: monday,
      break_rules: [
        { worked_over_minutes: 360, break_minutes: 30 },
        { worked_over_minutes: 540, break_minutes: 45 },
      ],
    });
    await entry(dora, monday, '08:00', '15:00'); // 420 without a break: 30 deducted
    await entry(dora, plus(monday, 1), '08:00', '14:10'); // 370: 10 deducted (never below 360)
    await entry(dora, plus(monday, 2), '08:00', '12:00'); // 240 + 300 after a 30-minute break: nothing deducted
    await entry(dora, plus(monday, 2), '12:30', '17:30');
    const week = (await dora.call('GET', `/api/stats/week?date=${monday}`)).json();
    expect(week.days.slice(0, 3).map((day: { worked_minutes: number }) => day.worked_minutes)).toEqual([390, 360, 540]);
    expect(week.days.slice(0, 3).map((day: { break_deducted_minutes: number }) => day.break_deducted_minutes)).toEqual([30, 10, 0]);
    expect(week.days[2].break_minutes).toBe(30);
    const thisWeek = (await dora.call('GET', `/api/stats/week?date=${plus(monday, 7)}`)).json();
    const overtime = (await dora.call('GET', '/api/stats/overtime')).json();
    const counted = [...week.days, ...thisWeek.days]
      .filter((day: { date: string }) => day.date <= overtime.through)
      .reduce((sum: number, day: { balance_minutes: number }) => sum + day.balance_minutes, 0);
    expect(overtime.balance_minutes).toBe(counted);
  });
});

describe('the vacation allowance', () => {
  it('GET /api/stats/vacation counts the days with a target; without a token it answers {"authenticated": false}', async () => {
    const eve = await person();
    const year = DateTime.utc().year + 1;
    await eve.call('PATCH', '/api/settings', { vacation_days_per_year: 27.5, vacation_carry_over_max_days: 10 });
    // Next year: 10 weekdays from the first Monday of February, a half day in March.
    const monday = DateTime.fromISO(`${year}-02-01`, { zone: 'UTC' }).startOf('week').plus({ weeks: 1 }).toISODate() as string;
    expect((await eve.call('POST', '/api/time-entries/absences', { from: monday, to: plus(monday, 11), type: 'vacation' })).statusCode).toBe(201);
    expect((await eve.call('POST', '/api/time-entries/absences', { date: plus(monday, 28), type: 'vacation', portion: 'half' })).statusCode).toBe(201);
    const vacation = (await eve.call('GET', `/api/stats/vacation?year=${year}`)).json();
    expect(vacation).toMatchObject({ year, allowance_days: 27.5, taken_days: 0, planned_days: 10.5 });
    expect(vacation.remaining_days).toBe(27.5 + vacation.carried_over_days - 10.5);
    expect((await request(server, 'GET', '/api/stats/vacation')).json()).toEqual({ authenticated: false });
  });
});

describe('the monthly timesheet', () => {
  it("JSON, CSV and a one-page PDF whose text layer carries the JSON's figures; without a token the PDF and CSV are 401", async () => {
    const finn = await person();
    const month = DateTime.utc().minus({ months: 1 }).toFormat('yyyy-MM');
    await finn.call('PATCH', '/api/settings', {
      tracking_start: `${month}-01`,
      vacation_days_per_year: 25,
      break_rules: [
        { worked_over_minutes: 360, break_minutes: 30 },
        { worked_over_minutes: 540, break_minutes: 45 },
      ],
    });
    await entry(finn, `${month}-02`, '08:00', '12:00');
    await entry(finn, `${month}-02`, '12:30', '17:00');
    await entry(finn, `${month}-03`, '08:00', '15:00');
    await finn.call('POST', '/api/time-entries/absences', { date: `${month}-10`, type: 'vacation', portion: 'half' });
    await finn.call('POST', '/api/time-entries/bookings', { date: `${month}-11`, minutes: -30, kind: 'payout' });
    const sheet = (await finn.call('GET', `/api/stats/month?month=${month}`)).json();
    expect(sheet.days[2]).toMatchObject({ break_deducted_minutes: 30, worked_minutes: 390 });
    const pdf = await finn.call('GET', `/api/stats/month.pdf?month=${month}`);
    expect(pdf.statusCode).toBe(200);
    expect(pdf.headers['content-type']).toBe('application/pdf');
    // fetch's text() would mangle the bytes: ask again for the body as bytes.
    const token = (await request(server, 'POST', '/api/auth/login', { payload: { email: finn.email, password: PASSWORD } })).json().token as string;
    const bytes = Buffer.from(
      await (await fetch(`${server.baseUrl}/api/stats/month.pdf?month=${month}`, { headers: { authorization: `Bearer ${token}` } })).arrayBuffer(),
    );
    expectPdfShowsSheet(bytes, sheet);
    const csv = await finn.call('GET', `/api/stats/month.csv?month=${month}`);
    const day = sheet.days[2];
    expect(csv.body.split('\n')[3]).toBe(
      `${day.date},${day.weekday},${day.date}T08:00+00:00,${day.date}T15:00+00:00,,30,390,6:30,${day.target_minutes || ''},,,,${day.public_holiday ?? ''},${day.balance_minutes}`,
    );
    expect((await request(server, 'GET', `/api/stats/month.pdf?month=${month}`)).statusCode).toBe(401);
    expect((await request(server, 'GET', `/api/stats/month.csv?month=${month}`)).statusCode).toBe(401);
    expect((await request(server, 'GET', `/api/stats/month?month=${month}`)).json()).toEqual({ authenticated: false });
  });
});

describe('the forgotten timer', () => {
  it('housekeeping of the running server stops a timer at its start plus the limit and marks it auto_stopped', async () => {
    const { call } = await person();
    await call('PATCH', '/api/settings', { timer_limit_minutes: 60 });
    const start = DateTime.utc().minus({ hours: 3 }).startOf('minute');
    const running = await call('POST', '/api/time-entries', { start_at: start.toISO() });
    expect(running.statusCode).toBe(201);
    let current = running.json().entry;
    for (let attempt = 0; attempt < 100 && current.end_at === null; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      current = (await call('GET', `/api/time-entries/${current.id}`)).json().entry;
    }
    expect(current).toMatchObject({ end_at: start.plus({ hours: 1 }).toUTC().toISO(), auto_stopped: true });
    expect((await call('GET', '/api/time-entries/current')).json()).toEqual({ entry: null });
    const fixed = (await call('PATCH', `/api/time-entries/${current.id}`, { end_at: start.plus({ minutes: 45 }).toUTC().toISO() })).json().entry;
    expect(fixed.auto_stopped).toBe(false);
  });
});
