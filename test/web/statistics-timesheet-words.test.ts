// One wording for the balance (docs/time-model.md, complete days): the PDF timesheet says the client's
// words, in both languages, and the client splits an entry at local midnight as the server counts it.
import { describe, expect, it } from 'vitest';
import { timesheetPdf, type MonthSheet } from '../../src/time/timesheet/timesheet.js';
import { de } from '../../src/web/i18n/de.js';
import { en } from '../../src/web/i18n/en.js';
import { piecesByDay } from '../../src/web/views/entry-days.js';
import { pdfText, sheetDate } from '../support/timesheet.js';

const day = (date: string, complete: boolean) => ({
  date,
  weekday: 'mon' as const,
  first_start: null,
  last_end: null,
  target_minutes: 480,
  worked_minutes: complete ? 480 : 0,
  break_minutes: 0,
  break_deducted_minutes: 0,
  absence: null,
  absence_portion: null,
  public_holiday: null,
  booked_minutes: 0,
  complete,
  balance_minutes: complete ? 0 : null,
});

const sheet: MonthSheet = {
  month: '2026-11',
  timezone: 'UTC',
  zones: [{ valid_from: '2026-11-01', timezone: 'UTC' }],
  days: [day('2026-11-25', true), day('2026-11-26', false), day('2026-11-27', false)],
  totals: {
    target_minutes: 480,
    worked_minutes: 480,
    break_minutes: 0,
    break_deducted_minutes: 0,
    booked_minutes: 0,
    balance_minutes: 0,
    target_period_minutes: 1440,
  },
  balance_before_minutes: 0,
  balance_after_minutes: 0,
  balance_through: '2026-11-25',
  vacation: {
    year: 2026,
    allowance_days: null,
    carried_over_days: null,
    taken_days: 0,
    planned_days: 0,
    requested_days: 0,
    remaining_days: null,
    full_year_days: null,
    months_counted: 12,
    prorated_from: null,
    taken_before_tracking_days: 0,
  },
};

describe('the balance words', () => {
  for (const [language, catalog] of [
    ['en', en],
    ['de', de],
  ] as const) {
    it(`the ${language} PDF: the client's "not yet" on days after the last complete one, and its footnote`, async () => {
      const text = pdfText(await timesheetPdf(sheet, { name: 'A', email: 'a@example.com' }, language));
      const lines = text.split('\n');
      for (const date of ['2026-11-26', '2026-11-27']) expect(lines.find((line) => line.includes(sheetDate(date, language)))).toContain(catalog.balance.notYet);
      expect(lines.find((line) => line.includes(sheetDate('2026-11-25', language)))).not.toContain(catalog.balance.notYet);
      expect(text.replace(/\s+/g, ' ')).toContain(catalog.balance.rule);
    });

    it(`the ${language} PDF: the balance carried out is the client's "${catalog.balance.through('…')}", through the last day counted`, async () => {
      const carried = { ...sheet, balance_before_minutes: 90, balance_after_minutes: 90 };
      const text = pdfText(await timesheetPdf(carried, { name: 'A', email: 'a@example.com' }, language)).replace(/\s+/g, ' ');
      // This month is counted through yesterday (25 November), so the sheet must not say it is carried into the next month.
      expect(text).toContain(`${catalog.balance.through(sheetDate('2026-11-25', language))}: +1:30`);
      expect(text).toContain(catalog.month.carriedIn('+1:30'));
    });
  }
});

describe('entries by local day', () => {
  const entry = (start: string, end: string | null) => ({
    id: 1,
    start_at: start,
    end_at: end,
    note: '',
    created_at: start,
    updated_at: start,
    auto_stopped: false,
  });

  it('splits an entry at local midnight: both days, each with its minutes; the second marked as continued', () => {
    const days = piecesByDay([entry('2026-11-24T21:00:00Z', '2026-11-25T01:30:00Z')], 'Europe/Berlin', '2026-11-23', '2026-11-30', 0);
    expect([...days].map(([date, pieces]) => [date, pieces.map((piece) => [piece.minutes, piece.continued])])).toEqual([
      ['2026-11-24', [[120, false]]],
      ['2026-11-25', [[150, true]]],
    ]);
  });

  it('keeps only the days of the shown week, and runs a running entry to now', () => {
    const now = Date.parse('2026-11-30T00:30:00Z');
    const days = piecesByDay([entry('2026-11-29T22:00:00Z', null)], 'UTC', '2026-11-23', '2026-11-30', now);
    expect([...days].map(([date, pieces]) => [date, pieces[0]!.minutes])).toEqual([['2026-11-29', 120]]);
  });
});
