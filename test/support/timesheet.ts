// Reads a timesheet PDF the way a person would: its text layer, by Debian's pdftotext (poppler-utils),
// and checks that every figure of the JSON sheet stands on its row.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { makeTempDir } from './app.js';

const hm = (minutes: number) => `${minutes < 0 ? '-' : ''}${Math.floor(Math.abs(minutes) / 60)}:${String(Math.abs(minutes) % 60).padStart(2, '0')}`;
const signed = (minutes: number) => (minutes === 0 ? '0:00' : `${minutes > 0 ? '+' : '-'}${hm(Math.abs(minutes))}`);

/** The text of a PDF, laid out as on the page (pdftotext -layout). */
export function pdfText(pdf: Buffer): string {
  const file = path.join(makeTempDir('timetrack-pdf-'), 'sheet.pdf');
  fs.writeFileSync(file, pdf);
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

/** The figures in a row's text, in order: a figure is an h:mm or ±h:mm, or a time of day. */
function figuresOf(line: string): string[] {
  return line.match(/[+-]?\d{1,4}:\d\d/g) ?? [];
}

interface Sheet {
  month: string;
  timezone: string;
  days: Array<Record<string, any>>;
  totals: Record<string, number>;
  balance_before_minutes: number;
  balance_after_minutes: number;
  vacation: Record<string, number | null>;
}

/** Every day row, the totals, the balance carried in and out and the vacation of the JSON are in the PDF's text. */
export function expectPdfShowsSheet(pdf: Buffer, sheet: Sheet, localTime: (instant: string, date: string) => string): void {
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  const text = pdfText(pdf);
  // One page.
  expect(text.split('\f').filter((page) => page.trim() !== '')).toHaveLength(1);
  const lines = text.split('\n');
  for (const day of sheet.days) {
    const line = lines.find((candidate) => candidate.trimStart().startsWith(day.date));
    expect(line, `the row of ${day.date}`).toBeDefined();
    const expected = [
      ...(day.first_start ? [localTime(day.first_start, day.date)] : []),
      ...(day.last_end ? [localTime(day.last_end, day.date)] : []),
      hm(day.break_minutes),
      hm(day.break_deducted_minutes),
      hm(day.worked_minutes),
      hm(day.target_minutes),
      signed(day.booked_minutes),
      // A day that is not complete has no balance figure ("not yet" or empty).
      ...(day.balance_minutes === null ? [] : [signed(day.balance_minutes)]),
    ];
    expect(figuresOf(line!), `the row of ${day.date}: ${line}`).toEqual(expected);
    if (day.public_holiday) expect(line).toContain(day.public_holiday.slice(0, 10));
  }
  const total = lines.find((line) => /^\s*(Total|Summe)\b/.test(line));
  const t = sheet.totals;
  expect(figuresOf(total!)).toEqual([
    hm(t.break_minutes!),
    hm(t.break_deducted_minutes!),
    hm(t.worked_minutes!),
    hm(t.target_minutes!),
    signed(t.booked_minutes!),
    signed(t.balance_minutes!),
  ]);
  expect(text).toMatch(
    new RegExp(
      `carried in: ${signed(sheet.balance_before_minutes).replace('+', '\\+')}\\s+Balance carried out: ${signed(sheet.balance_after_minutes).replace('+', '\\+')}`,
    ),
  );
  const v = sheet.vacation;
  const days = (value: number | null) => (value === null ? 'not tracked' : String(value));
  expect(text).toContain(
    `allowance ${days(v.allowance_days!)}, carried over ${days(v.carried_over_days!)}, taken ${days(v.taken_days!)}, planned ${days(v.planned_days!)}, remaining ${days(v.remaining_days!)}`,
  );
}
