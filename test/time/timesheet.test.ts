// The monthly timesheet (docs/time-model.md): JSON day rows with first start and last end, totals, the
// balance carried in and out, vacation; the CSV and the one-page PDF carry the same figures.
import { DateTime } from 'luxon';
import { parse } from 'csv-parse/sync';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { expectError } from '../support/expectations.js';
import { addEntry, type SignedIn, signIn } from '../support/requests.js';
import { expectPdfShowsSheet, pdfText } from '../support/timesheet.js';

let t: TestApp;
let ann: SignedIn;
beforeEach(async () => {
  t = await createTestApp();
  t.clock.set('2026-04-15T10:00:00.000Z');
  ann = await signIn(t);
  await ann.call('PATCH', '/api/settings', {
    timezone: 'Europe/Berlin',
    timezone_valid_from: '1970-01-01',
    holiday_region: 'DE-BY',
    tracking_start: '2026-02-02',
    overtime_offset_minutes: 90,
    vacation_days_per_year: 30,
    break_rules: [{ worked_over_minutes: 360, break_minutes: 30 }],
  });
  // February: one long day without a break. March: working days, a half day, a payout, a day across midnight (the DST night).
  await addEntry(ann, '2026-02-02T07:00:00Z', '2026-02-02T15:00:00Z');
  await addEntry(ann, '2026-03-02T07:00:00Z', '2026-03-02T11:00:00Z'); // Mon 08:00–12:00 and 12:45–17:00 CET
  await addEntry(ann, '2026-03-02T11:45:00Z', '2026-03-02T16:00:00Z');
  await addEntry(ann, '2026-03-03T07:30:00Z', '2026-03-03T14:30:00Z'); // Tue 7 h without a break: 30 deducted
  await addEntry(ann, '2026-03-28T21:00:00Z', '2026-03-29T02:00:00Z'); // Sat 22:00 – Sun 04:00 (CEST)
  await ann.call('POST', '/api/time-entries/absences', { date: '2026-03-06', type: 'vacation', portion: 'half' });
  await ann.call('POST', '/api/time-entries/absences', { from: '2026-03-09', to: '2026-03-13', type: 'vacation' });
  await ann.call('POST', '/api/time-entries/bookings', { date: '2026-03-31', minutes: -60, kind: 'payout' });
});
afterEach(async () => {
  await t.close();
});

const berlin = (instant: string) => DateTime.fromISO(instant, { zone: 'Europe/Berlin' }).toFormat("yyyy-MM-dd'T'HH:mmZZ");

describe('GET /api/stats/month', () => {
  it('answers the days with first start and last end, totals, the balance carried in and out, and vacation', async () => {
    const response = await ann.call('GET', '/api/stats/month?month=2026-03');
    expect(response.statusCode).toBe(200);
    const sheet = response.json();
    expect(sheet).toMatchObject({ month: '2026-03', timezone: 'Europe/Berlin' });
    expect(sheet.days).toHaveLength(31);
    expect(sheet.days[1]).toEqual({
      date: '2026-03-02',
      weekday: 'mon',
      first_start: '2026-03-02T07:00:00.000Z',
      last_end: '2026-03-02T16:00:00.000Z',
      break_minutes: 45,
      break_deducted_minutes: 0,
      worked_minutes: 495,
      target_minutes: 480,
      booked_minutes: 0,
      absence: null,
      absence_portion: null,
      public_holiday: null,
      complete: true,
      balance_minutes: 15,
    });
    expect(sheet.days[2]).toMatchObject({ worked_minutes: 390, break_deducted_minutes: 30, balance_minutes: -90 });
    expect(sheet.days[5]).toMatchObject({ absence: 'vacation', absence_portion: 'half', target_minutes: 240 });
    expect(sheet.days[27]).toMatchObject({
      date: '2026-03-28',
      first_start: '2026-03-28T21:00:00.000Z',
      last_end: '2026-03-28T23:00:00.000Z',
      worked_minutes: 120,
    });
    expect(sheet.days[28]).toMatchObject({
      date: '2026-03-29',
      first_start: '2026-03-28T23:00:00.000Z',
      last_end: '2026-03-29T02:00:00.000Z',
      worked_minutes: 180,
    });
    expect(sheet.days[30]).toMatchObject({ booked_minutes: -60 });
    const sum = (key: string) => sheet.days.reduce((total: number, day: Record<string, number>) => total + day[key]!, 0);
    expect(sheet.totals).toEqual({
      target_minutes: sum('target_minutes'),
      worked_minutes: sum('worked_minutes'),
      break_minutes: sum('break_minutes'),
      break_deducted_minutes: sum('break_deducted_minutes'),
      booked_minutes: -60,
      balance_minutes: sum('balance_minutes'),
      target_period_minutes: sum('target_minutes'),
    });
    // Carried in: the offset and February; carried out: that and every day of March (all over by 15 April).
    const february = (await ann.call('GET', '/api/stats/month?month=2026-02')).json();
    expect(sheet.balance_before_minutes).toBe(90 + february.totals.balance_minutes);
    expect(february.balance_after_minutes).toBe(sheet.balance_before_minutes);
    expect(sheet.balance_after_minutes).toBe(sheet.balance_before_minutes + sheet.totals.balance_minutes);
    expect(sheet.vacation).toEqual((await ann.call('GET', '/api/stats/vacation?year=2026')).json());
    expect(sheet.vacation).toMatchObject({ taken_days: 5.5 });
    // This month: carried out counts through yesterday only, as the overtime does.
    const april = (await ann.call('GET', '/api/stats/month')).json();
    expect(april.month).toBe('2026-04');
    expect(april.balance_after_minutes).toBe((await ann.call('GET', '/api/stats/overtime')).json().balance_minutes);
  });

  it('answers {"authenticated": false} without a token; the PDF and the CSV answer 401; a bad month is 400', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/stats/month?month=2026-03' })).json()).toEqual({ authenticated: false });
    for (const url of ['/api/stats/month.pdf?month=2026-03', '/api/stats/month.csv?month=2026-03']) {
      const response = await t.app.inject({ method: 'GET', url });
      expectError(response, 401, 'UNAUTHORIZED');
      expect(response.headers['www-authenticate']).toBe('Bearer');
    }
    expectError(await ann.call('GET', '/api/stats/month?month=2026-13'), 400, 'VALIDATION_ERROR');
    expectError(await ann.call('GET', '/api/stats/month?month=March'), 400, 'VALIDATION_ERROR');
  });

  it("the CSV has a row per day, the totals and the balances, each figure the JSON's", async () => {
    const sheet = (await ann.call('GET', '/api/stats/month?month=2026-03')).json();
    const response = await ann.call('GET', '/api/stats/month.csv?month=2026-03');
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="timesheet-2026-03.csv"');
    const rows = parse(response.body, { columns: true }) as Array<Record<string, string>>;
    expect(rows).toHaveLength(34);
    sheet.days.forEach((day: Record<string, any>, index: number) => {
      const row = rows[index]!;
      expect(row.date).toBe(day.date);
      expect(row.first_start).toBe(day.first_start ? berlin(day.first_start) : '');
      // Empty where nothing happened, else the JSON's figure.
      for (const key of ['break_minutes', 'break_deducted_minutes', 'worked_minutes', 'target_minutes', 'booked_minutes', 'balance_minutes'])
        expect(row[key] === '' ? 0 : Number(row[key])).toBe(day[key]);
      expect(row.absence).toBe(day.absence ?? '');
      expect(row.public_holiday).toBe(day.public_holiday ?? '');
    });
    expect(rows[31]).toMatchObject({
      date: 'total',
      worked_minutes: String(sheet.totals.worked_minutes),
      balance_minutes: String(sheet.totals.balance_minutes),
    });
    expect(rows[32]).toMatchObject({ date: 'balance_before', balance_minutes: String(sheet.balance_before_minutes) });
    expect(rows[33]).toMatchObject({ date: 'balance_after', balance_minutes: String(sheet.balance_after_minutes) });
  });

  it('the PDF is one page whose text layer shows every figure of the JSON, with the name, the month, the zone and two signature lines; German too', async () => {
    const sheet = (await ann.call('GET', '/api/stats/month?month=2026-03')).json();
    const response = await t.app.inject({ method: 'GET', url: '/api/stats/month.pdf?month=2026-03', headers: { authorization: `Bearer ${ann.token}` } });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('application/pdf');
    const pdf = response.rawPayload;
    expectPdfShowsSheet(pdf, sheet);
    const text = pdfText(pdf);
    expect(text).toContain('Timesheet March 2026');
    expect(text).toContain('Ann Example <ann@example.com>');
    expect(text).toContain('Europe/Berlin');
    expect(text).toContain('Employee: date, signature');
    expect(text).toContain('Employer: date, signature');
    expect(text).toMatch(/Vacation \(half day\)/);
    // The font is embedded (a TrueType subset), so the sheet prints the same everywhere.
    expect(pdf.toString('latin1')).toMatch(/\/FontFile2/);
    const german = await t.app.inject({ method: 'GET', url: '/api/stats/month.pdf?month=2026-03&lang=de', headers: { authorization: `Bearer ${ann.token}` } });
    const deText = pdfText(german.rawPayload);
    expect(deText).toContain('Stundenzettel März 2026');
    expect(deText).toContain('Übertrag vom Vormonat');
  });
});
