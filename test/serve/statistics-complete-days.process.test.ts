// A balance counts complete days only (docs/time-model.md, docs/api.md), through a real `timetrack
// serve` and HTTP: every day row of the week and the month says whether it is complete and has a
// balance only then; the totals sum the complete days and add up; the month's balance carried out is
// its closing balance, and in this month /api/stats/overtime. The server has the real clock, so the
// dates are counted from today; the account's zone is UTC.
import path from 'node:path';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../support/app.js';
import { request, type TestResponse } from '../support/requests.js';
import { startServer, type RunningServer } from '../support/server.js';
import { pdfText, sheetDate } from '../support/timesheet.js';

const PASSWORD = 'correct horse battery staple';
let server: RunningServer;

beforeAll(async () => {
  server = await startServer(path.join(makeTempDir('timetrack-complete-'), 'timetrack.db'));
});
afterAll(async () => {
  await server?.stop();
});

const plus = (date: string, days: number) => DateTime.fromISO(date, { zone: 'UTC' }).plus({ days }).toISODate() as string;
const monthOf = (date: string, months = 0) => DateTime.fromISO(date, { zone: 'UTC' }).plus({ months }).toFormat('yyyy-MM');
const FIGURES = ['target_minutes', 'worked_minutes', 'break_minutes', 'break_deducted_minutes', 'booked_minutes', 'balance_minutes'] as const;

interface Row {
  date: string;
  complete: boolean;
  target_minutes: number;
  worked_minutes: number;
  break_minutes: number;
  break_deducted_minutes: number;
  booked_minutes: number;
  balance_minutes: number | null;
}

/** Every row: complete exactly when over and tracked, a balance exactly then; the totals are the complete rows' sums and add up. */
function expectCompleteDaysOnly(answer: { days: Row[]; totals: Record<string, number> }, today: string, trackingStart: string): void {
  for (const day of answer.days) {
    const complete = day.date < today && day.date >= trackingStart;
    expect(day.complete, day.date).toBe(complete);
    expect(day.balance_minutes, day.date).toBe(complete ? day.worked_minutes - day.target_minutes + day.booked_minutes : null);
  }
  const counted = answer.days.filter((day) => day.complete);
  for (const key of FIGURES) expect(answer.totals[key], key).toBe(counted.reduce((sum, day) => sum + (day[key] ?? 0), 0));
  const { totals } = answer;
  expect(totals.worked_minutes! - totals.target_minutes! + totals.booked_minutes!).toBe(totals.balance_minutes);
  expect(totals.target_period_minutes).toBe(answer.days.reduce((sum, day) => sum + day.target_minutes, 0));
}

describe('a balance counts complete days only', () => {
  it('week and month: past, today and future days, totals that add up, carried out = closing balance = overtime; CSV and PDF alike', async () => {
    const email = `complete${process.pid}@example.com`;
    expect((await request(server, 'POST', '/api/auth/register', { payload: { email, password: PASSWORD, full_name: 'Complete Days' } })).statusCode).toBe(201);
    const token = (await request(server, 'POST', '/api/auth/login', { payload: { email, password: PASSWORD } })).json().token as string;
    const call = async (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: unknown): Promise<TestResponse> => {
      const response = await request(server, method, url, { payload, token });
      expect(response.statusCode, `${method} ${url}: ${response.body}`).toBeLessThan(300);
      return response;
    };
    const today = DateTime.utc().toISODate() as string;
    // Tracked from the 3rd of last month: last month has days before tracking_start, days that count, and this month's days are past, today and later.
    const trackingStart = `${monthOf(today, -1)}-03`;
    await call('PATCH', '/api/settings', {
      timezone: 'UTC',
      tracking_start: trackingStart,
      overtime_offset_minutes: 90,
      break_rules: [{ worked_over_minutes: 360, break_minutes: 30 }],
    });
    const entry = (date: string, from: string, to: string) =>
      call('POST', '/api/time-entries', { start_at: `${date}T${from}:00Z`, end_at: `${date}T${to}:00Z` });
    await entry(plus(today, -3), '08:00', '15:30'); // 450 minutes without a break: 30 deducted
    await entry(plus(today, -1), '22:00', '23:59');
    await entry(today, '00:00', '00:45');
    await entry(plus(today, 1), '08:00', '12:00'); // planned: a future day with worked minutes
    await entry(plus(today, 9), '08:00', '18:00');
    await call('POST', '/api/time-entries/bookings', { date: plus(today, -2), minutes: 45, kind: 'correction' });
    // A half day of vacation (refused on a day without a target: that is fine, it only varies the figures).
    await request(server, 'POST', '/api/time-entries/absences', { payload: { date: plus(today, -5), type: 'vacation', portion: 'half' }, token });

    const overtime = (await call('GET', '/api/stats/overtime')).json();
    const months = await Promise.all([-1, 0, 1].map(async (shift) => (await call('GET', `/api/stats/month?month=${monthOf(today, shift)}`)).json()));
    for (const month of months) {
      expectCompleteDaysOnly(month, today, trackingStart);
      // Carried out = carried in + the month's complete days = the balance through the month's last day, or through yesterday.
      expect(month.balance_after_minutes).toBe(month.balance_before_minutes + month.totals.balance_minutes);
      const last = month.days.at(-1).date as string;
      expect(month.balance_through).toBe(last < today ? last : plus(today, -1));
    }
    const [previous, current, next] = months;
    expect(current.balance_after_minutes).toBe(overtime.balance_minutes);
    expect(current.balance_before_minutes).toBe(previous.balance_after_minutes);
    expect(next.balance_before_minutes).toBe(overtime.balance_minutes);
    expect(next.balance_after_minutes).toBe(overtime.balance_minutes);
    expect(overtime.balance_minutes).toBe(90 + previous.totals.balance_minutes + current.totals.balance_minutes);
    // Today and the planned day show their target and what is worked, and no balance.
    const dayOf = (date: string) => months.flatMap((month) => month.days).find((day: Row) => day.date === date) as Row;
    expect(dayOf(today)).toMatchObject({ complete: false, balance_minutes: null, worked_minutes: 45 });
    expect(dayOf(plus(today, 1))).toMatchObject({ complete: false, balance_minutes: null, worked_minutes: 240 });
    expect(dayOf(plus(today, -3))).toMatchObject({ complete: true, worked_minutes: 420, break_deducted_minutes: 30 });
    expect(dayOf(plus(today, -2)).balance_minutes).toBe(45 - dayOf(plus(today, -2)).target_minutes);

    // The weeks: last week, this week and next week, the same rule.
    const monday = DateTime.fromISO(today, { zone: 'UTC' }).startOf('week').toISODate() as string;
    for (const date of [plus(monday, -7), monday, plus(monday, 7)]) {
      const week = (await call('GET', `/api/stats/week?date=${date}`)).json();
      expectCompleteDaysOnly(week, today, trackingStart);
      // The week's rows are the month's (less the first start and last end).
      for (const day of week.days) {
        const { first_start: _start, last_end: _end, ...row } = dayOf(day.date) as Row & { first_start: unknown; last_end: unknown };
        expect(day).toEqual(row);
      }
    }
    // Anonymous: no day is anyone's complete day.
    const anonymous = (await request(server, 'GET', `/api/stats/week?date=${monday}`)).json();
    expect(anonymous.days.every((day: Row) => day.complete === false && day.balance_minutes === null)).toBe(true);
    expect(anonymous.totals.target_period_minutes).toBeNull();

    // The CSV of this month: a day that is not complete has an empty balance, and so has a day where
    // nothing happened (the empty-cell rule, docs/time-model.md); the total row is the JSON's.
    const csv = (await call('GET', `/api/stats/month.csv?month=${current.month}`)).body.trim().split('\n');
    const nothing = (day: Row) => day.worked_minutes === 0 && day.target_minutes === 0 && day.booked_minutes === 0 && day.balance_minutes === 0;
    for (const [index, day] of current.days.entries())
      expect(csv[index + 1]!.split(',').at(-1), day.date).toBe(day.complete && !nothing(day) ? String(day.balance_minutes) : '');
    expect(csv[current.days.length + 1]).toMatch(new RegExp(`^total,.*,${current.totals.balance_minutes}$`));
    expect(csv.at(-1)).toBe(`balance_after,,,,,,,,,,,,,${current.balance_after_minutes}`);
    // The PDF: later days read "not yet", and the footnote says the client's words.
    const bytes = Buffer.from(
      await (await fetch(`${server.baseUrl}/api/stats/month.pdf?month=${next.month}`, { headers: { authorization: `Bearer ${token}` } })).arrayBuffer(),
    );
    const text = pdfText(bytes);
    const lines = text.split('\n');
    for (const day of next.days) expect(lines.find((line) => line.trimStart().startsWith(sheetDate(day.date, 'en')))).toMatch(/not yet/);
    expect(text.replace(/\s+/g, ' ')).toContain('A day counts in the balance once it is over; today and later days: not yet.');
  });
});
