// Reads a timesheet PDF the way a person would: its text layer, by Debian's pdftotext (poppler-utils),
// and checks that every figure of the JSON sheet stands on its row, written as the sheet's language
// writes it (docs/time-model.md, Monthly timesheet): dates, empty cells, 24:00 at midnight.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { DateTime } from 'luxon';
import { expect } from 'vitest';
import { makeTempDir } from './app.js';

const hm = (minutes: number) => `${minutes < 0 ? '-' : ''}${Math.floor(Math.abs(minutes) / 60)}:${String(Math.abs(minutes) % 60).padStart(2, '0')}`;
const signed = (minutes: number) => (minutes === 0 ? '0:00' : `${minutes > 0 ? '+' : '-'}${hm(Math.abs(minutes))}`);

function pdfFile(pdf: Buffer): string {
  const file = path.join(makeTempDir('timetrack-pdf-'), 'sheet.pdf');
  fs.writeFileSync(file, pdf);
  return file;
}

/** The text of a PDF, laid out as on the page (pdftotext -layout). */
export function pdfText(pdf: Buffer): string {
  return execFileSync('pdftotext', ['-layout', pdfFile(pdf), '-'], { encoding: 'utf8' });
}

/** Every word of a PDF with its box (pdftotext -bbox), top to bottom as drawn. */
export function pdfWords(pdf: Buffer): Array<{ text: string; x: number; right: number; top: number; bottom: number }> {
  const html = execFileSync('pdftotext', ['-bbox', pdfFile(pdf), '-'], { encoding: 'utf8' });
  const unescape = (text: string) =>
    text
      .replace(/&amp;/g, '&')
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'");
  return [...html.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)].map((match) => ({
    text: unescape(match[5]!),
    x: Number(match[1]),
    right: Number(match[3]),
    top: Number(match[2]),
    bottom: Number(match[4]),
  }));
}

/** A date as the sheet writes it: de 26.11.2026, en 26 Nov 2026. */
export function sheetDate(date: string, language: 'en' | 'de'): string {
  const day = DateTime.fromISO(date, { zone: 'UTC' });
  return language === 'de' ? day.toFormat('dd.MM.yyyy') : day.setLocale('en-GB').toFormat('dd LLL yyyy');
}

/** The figures in a row's text, in order: a figure is an h:mm or ±h:mm, or a time of day. */
function figuresOf(line: string): string[] {
  return line.match(/[+-]?\d{1,4}:\d\d/g) ?? [];
}

interface Sheet {
  month: string;
  timezone: string;
  /** The zones of the month's days by their first days (docs/time-model.md, Time zone history). */
  zones: Array<{ valid_from: string; timezone: string }>;
  days: Array<Record<string, any>>;
  totals: Record<string, number>;
  balance_before_minutes: number;
  balance_after_minutes: number;
  balance_through: string;
  vacation: Record<string, number | null>;
}

/** A day's local time as the sheet prints it: HH:mm, and an end on a later date (midnight) 24:00. */
function localTime(instant: string, zone: string, date: string, end: boolean): string {
  const local = DateTime.fromISO(instant, { zone });
  return end && (local.toISODate() as string) > date ? '24:00' : local.toFormat('HH:mm');
}

/** The figures a day row shows, left to right: a cell where nothing happened is empty (no 0:00). */
function expectedFigures(day: Record<string, any>, zone: string): string[] {
  const nothing = day.first_start === null && day.worked_minutes === 0 && day.target_minutes === 0 && day.booked_minutes === 0;
  return [
    ...(day.first_start ? [localTime(day.first_start, zone, day.date, false)] : []),
    ...(day.last_end ? [localTime(day.last_end, zone, day.date, true)] : []),
    ...(day.break_minutes ? [hm(day.break_minutes)] : []),
    ...(day.break_deducted_minutes ? [hm(day.break_deducted_minutes)] : []),
    ...(day.first_start === null && day.worked_minutes === 0 ? [] : [hm(day.worked_minutes)]),
    ...(day.target_minutes ? [hm(day.target_minutes)] : []),
    ...(day.booked_minutes ? [signed(day.booked_minutes)] : []),
    ...(day.balance_minutes === null || (nothing && day.balance_minutes === 0) ? [] : [signed(day.balance_minutes)]),
  ];
}

/** Every day row, the totals, the balance carried in and out and the vacation of the JSON are in the PDF's text. */
export function expectPdfShowsSheet(pdf: Buffer, sheet: Sheet, language: 'en' | 'de' = 'en'): void {
  expect(pdf.subarray(0, 5).toString()).toBe('%PDF-');
  const text = pdfText(pdf);
  // One page.
  expect(text.split('\f').filter((page) => page.trim() !== '')).toHaveLength(1);
  const lines = text.split('\n');
  for (const day of sheet.days) {
    const line = lines.find((candidate) => candidate.trimStart().startsWith(sheetDate(day.date, language)));
    expect(line, `the row of ${day.date}`).toBeDefined();
    const zone = sheet.zones.filter((entry) => entry.valid_from <= day.date).at(-1)?.timezone ?? sheet.timezone;
    expect(figuresOf(line!), `the row of ${day.date}: ${line}`).toEqual(expectedFigures(day, zone));
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
  // Carried out in the client's words: the balance through the last day counted.
  const through = sheetDate(sheet.balance_through, language);
  const words = language === 'de' ? ['Übertrag vom Vormonat', `Saldo bis ${through}`] : ['Carried in', `Balance through ${through}`];
  const escape = (value: string) => value.replace('+', '\\+');
  expect(text).toMatch(
    new RegExp(`${words[0]}: ${escape(signed(sheet.balance_before_minutes))}\\s+${words[1]}: ${escape(signed(sheet.balance_after_minutes))}`),
  );
  const v = sheet.vacation;
  const number = (value: number) => (language === 'de' ? String(value).replace('.', ',') : String(value));
  const days = (value: number | null) => (value === null ? (language === 'de' ? 'nicht erfasst' : 'not tracked') : number(value));
  expect(text).toContain(
    language === 'de'
      ? `Anspruch ${days(v.allowance_days!)}, übertragen ${days(v.carried_over_days!)}, genommen ${days(v.taken_days!)}, geplant ${days(v.planned_days!)}, Rest ${days(v.remaining_days!)}`
      : `allowance ${days(v.allowance_days!)}, carried over ${days(v.carried_over_days!)}, taken ${days(v.taken_days!)}, planned ${days(v.planned_days!)}, remaining ${days(v.remaining_days!)}`,
  );
}
