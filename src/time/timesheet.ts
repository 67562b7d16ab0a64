// The monthly timesheet (docs/time-model.md, Monthly timesheet): the month's day rows, totals, the
// balance carried in and out, and the year's vacation, as JSON, CSV and a one-page PDF to sign. The CSV
// and the PDF are written from the JSON object itself, so every figure in them equals the JSON's.
import { createRequire } from 'node:module';
import { stringify } from 'csv-stringify/sync';
import { DateTime } from 'luxon';
import { zoneOn } from './calendar/dates.js';
import type { MonthFigures } from './statistics/types.js';
import type { VacationYear } from './vacation.js';

export interface MonthSheet extends MonthFigures {
  vacation: VacationYear;
}

export interface TimesheetDeps {
  statistics: { monthFigures(userId: number, month?: string): Promise<MonthFigures> };
  vacation: { vacationYear(userId: number, year?: number): Promise<VacationYear> };
}

export function createTimesheetService(sources: TimesheetDeps) {
  async function monthSheet(userId: number, month?: string): Promise<MonthSheet> {
    const figures = await sources.statistics.monthFigures(userId, month);
    return { ...figures, vacation: await sources.vacation.vacationYear(userId, Number(figures.month.slice(0, 4))) };
  }
  return { monthSheet };
}

/** Minutes as h:mm (worked, target, breaks). */
export function hoursAndMinutes(minutes: number): string {
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? '-' : ''}${Math.floor(abs / 60)}:${String(abs % 60).padStart(2, '0')}`;
}

/** A balance as ±h:mm (0:00 without a sign). */
export function signedHours(minutes: number): string {
  return minutes === 0 ? '0:00' : `${minutes > 0 ? '+' : '-'}${hoursAndMinutes(Math.abs(minutes))}`;
}

/** An instant's time of day in the sheet's zone (HH:mm), or empty. */
function clock(instant: string | null, zone: string): string {
  return instant === null ? '' : DateTime.fromISO(instant, { zone }).toFormat('HH:mm');
}

export const SHEET_CSV_COLUMNS = [
  'date',
  'weekday',
  'first_start',
  'last_end',
  'break_minutes',
  'break_deducted_minutes',
  'worked_minutes',
  'target_minutes',
  'booked_minutes',
  'absence',
  'absence_portion',
  'public_holiday',
  'balance_minutes',
] as const;

/**
 * The sheet as CSV: one row per day (first_start and last_end as local HH:mm in the zone of the day,
 * figures in minutes), then a `total` row, and `balance_before` and `balance_after` rows whose figure
 * is in balance_minutes.
 */
export function timesheetCsv(sheet: MonthSheet): string {
  const rows: Array<Array<string | number>> = sheet.days.map((day) => [
    day.date,
    day.weekday,
    clock(day.first_start, zoneOn(day.date, sheet.zones)),
    clock(day.last_end, zoneOn(day.date, sheet.zones)),
    day.break_minutes,
    day.break_deducted_minutes,
    day.worked_minutes,
    day.target_minutes,
    day.booked_minutes,
    day.absence ?? '',
    day.absence_portion ?? '',
    day.public_holiday ?? '',
    // Empty on a day that is not complete: a balance counts complete days only.
    day.balance_minutes ?? '',
  ]);
  const { totals } = sheet;
  rows.push([
    'total',
    '',
    '',
    '',
    totals.break_minutes,
    totals.break_deducted_minutes,
    totals.worked_minutes,
    totals.target_minutes,
    totals.booked_minutes,
    '',
    '',
    '',
    totals.balance_minutes,
  ]);
  rows.push(['balance_before', '', '', '', '', '', '', '', '', '', '', '', sheet.balance_before_minutes]);
  rows.push(['balance_after', '', '', '', '', '', '', '', '', '', '', '', sheet.balance_after_minutes]);
  return stringify(rows, { header: true, columns: [...SHEET_CSV_COLUMNS] });
}

export type SheetLanguage = 'en' | 'de';

const LABELS = {
  en: {
    title: (month: string) => `Timesheet ${month}`,
    name: 'Name',
    zone: 'Time zone',
    columns: ['Date', 'Day', 'Start', 'End', 'Break', 'Deducted', 'Worked', 'Target', 'Booked', 'Balance', 'Absence / holiday'],
    weekdays: { mon: 'Mon', tue: 'Tue', wed: 'Wed', thu: 'Thu', fri: 'Fri', sat: 'Sat', sun: 'Sun' },
    absence: { vacation: 'Vacation', sick: 'Sick', holiday: 'Day off' },
    half: 'half day',
    total: 'Total',
    carriedIn: 'Balance carried in',
    carriedOut: 'Balance carried out',
    // The words of the browser client (src/web/i18n/en.ts, balance): the same on every screen and file.
    notYet: 'not yet',
    rule: 'A day counts in the balance once it is over; today and later days: not yet.',
    vacation: (year: number) => `Vacation ${year} (days)`,
    vacationFigures: ['allowance', 'carried over', 'taken', 'planned', 'remaining'],
    notTracked: 'not tracked',
    employee: 'Employee: date, signature',
    employer: 'Employer: date, signature',
    note: 'Times in h:mm; breaks are gaps between entries; deducted: break owed under the break rules.',
  },
  de: {
    title: (month: string) => `Stundenzettel ${month}`,
    name: 'Name',
    zone: 'Zeitzone',
    columns: ['Datum', 'Tag', 'Beginn', 'Ende', 'Pause', 'Abzug', 'Gearbeitet', 'Soll', 'Gebucht', 'Saldo', 'Abwesenheit / Feiertag'],
    weekdays: { mon: 'Mo', tue: 'Di', wed: 'Mi', thu: 'Do', fri: 'Fr', sat: 'Sa', sun: 'So' },
    absence: { vacation: 'Urlaub', sick: 'Krank', holiday: 'Freier Tag' },
    half: 'halber Tag',
    total: 'Summe',
    carriedIn: 'Übertrag vom Vormonat',
    carriedOut: 'Übertrag in den Folgemonat',
    notYet: 'noch offen',
    rule: 'Ein Tag zählt im Saldo, sobald er vorbei ist; heute und spätere Tage: noch offen.',
    vacation: (year: number) => `Urlaub ${year} (Tage)`,
    vacationFigures: ['Anspruch', 'übertragen', 'genommen', 'geplant', 'Rest'],
    notTracked: 'nicht erfasst',
    employee: 'Mitarbeiter/in: Datum, Unterschrift',
    employer: 'Arbeitgeber/in: Datum, Unterschrift',
    note: 'Zeiten in h:mm; Pausen sind Lücken zwischen Einträgen; Abzug: nach den Pausenregeln fehlende Pause.',
  },
} as const;

/** The TrueType font embedded in every sheet: DejaVu Sans Condensed, from the dejavu-fonts-ttf package. */
function fontFile(bold: boolean): string {
  return createRequire(import.meta.url).resolve(`dejavu-fonts-ttf/ttf/DejaVuSansCondensed${bold ? '-Bold' : ''}.ttf`);
}

/** The sheet as a one-page A4 PDF (pdfkit, loaded on first use; fonts embedded). */
// The PDF drawing is one sequence of pages, rows and positions; the house's function size leaves it out (docs/architecture.md).
// eslint-disable-next-line max-lines-per-function
export async function timesheetPdf(sheet: MonthSheet, person: { name: string; email: string }, language: SheetLanguage = 'en'): Promise<Buffer> {
  const { default: PDFDocument } = await import('pdfkit');
  const text = LABELS[language];
  const doc = new PDFDocument({
    size: 'A4',
    margin: 36,
    font: fontFile(false),
    info: { Title: text.title(sheet.month), Author: person.name, Creator: 'timetrack', Producer: 'timetrack' },
  });
  doc.registerFont('regular', fontFile(false));
  doc.registerFont('bold', fontFile(true));
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });

  const left = 36;
  const width = doc.page.width - 72;
  doc.font('bold').fontSize(15).text(text.title(sheet.month), left, 36);
  doc
    .font('regular')
    .fontSize(9)
    .text(`${text.name}: ${person.name} <${person.email}>    ${text.zone}: ${sheet.zones.map((entry) => entry.timezone).join(' → ')}`, left, 58);

  // Columns: x offsets and widths; figures right-aligned.
  const widths = [52, 24, 32, 32, 34, 40, 44, 40, 40, 42];
  const xs: number[] = [];
  let x = left;
  for (const w of widths) {
    xs.push(x);
    x += w + 4;
  }
  const noteX = x;
  const noteWidth = left + width - noteX;
  const rowHeight = 14.5;
  let y = 80;
  const row = (cells: string[], note: string, bold = false) => {
    doc.font(bold ? 'bold' : 'regular').fontSize(8);
    cells.forEach((cell, index) => {
      doc.text(cell, xs[index]!, y, { width: widths[index]!, align: index >= 4 ? 'right' : 'left', lineBreak: false });
    });
    doc.text(note, noteX, y, { width: noteWidth, lineBreak: false, ellipsis: true });
    y += rowHeight;
  };
  const rule = () => {
    doc
      .moveTo(left, y - 3)
      .lineTo(left + width, y - 3)
      .lineWidth(0.5)
      .strokeColor('#888888')
      .stroke();
  };
  row(text.columns.slice(0, 10), text.columns[10], true);
  rule();
  for (const day of sheet.days) {
    const note = [day.absence ? `${text.absence[day.absence]}${day.absence_portion === 'half' ? ` (${text.half})` : ''}` : '', day.public_holiday ?? '']
      .filter(Boolean)
      .join(' · ');
    row(
      [
        day.date,
        text.weekdays[day.weekday],
        clock(day.first_start, zoneOn(day.date, sheet.zones)),
        clock(day.last_end, zoneOn(day.date, sheet.zones)),
        hoursAndMinutes(day.break_minutes),
        hoursAndMinutes(day.break_deducted_minutes),
        hoursAndMinutes(day.worked_minutes),
        hoursAndMinutes(day.target_minutes),
        signedHours(day.booked_minutes),
        day.balance_minutes !== null ? signedHours(day.balance_minutes) : day.date > sheet.balance_through ? text.notYet : '',
      ],
      note,
    );
  }
  rule();
  const { totals } = sheet;
  row(
    [
      text.total,
      '',
      '',
      '',
      hoursAndMinutes(totals.break_minutes),
      hoursAndMinutes(totals.break_deducted_minutes),
      hoursAndMinutes(totals.worked_minutes),
      hoursAndMinutes(totals.target_minutes),
      signedHours(totals.booked_minutes),
      signedHours(totals.balance_minutes),
    ],
    '',
    true,
  );
  y += 6;
  doc.font('regular').fontSize(9);
  doc.text(`${text.carriedIn}: ${signedHours(sheet.balance_before_minutes)}      ${text.carriedOut}: ${signedHours(sheet.balance_after_minutes)}`, left, y, {
    lineBreak: false,
  });
  y += 14;
  const v = sheet.vacation;
  const days = (value: number | null) => (value === null ? text.notTracked : String(value));
  const [allowance, carried, taken, planned, remaining] = text.vacationFigures;
  doc.text(
    `${text.vacation(v.year)}: ${allowance} ${days(v.allowance_days)}, ${carried} ${days(v.carried_over_days)}, ${taken} ${days(v.taken_days)}, ${planned} ${days(v.planned_days)}, ${remaining} ${days(v.remaining_days)}`,
    left,
    y,
    { lineBreak: false },
  );
  y += 14;
  doc.fontSize(7).fillColor('#444444').text(`${text.rule} ${text.note}`, left, y, { width }).fillColor('#000000');

  // Two signature lines at the foot of the page.
  const lineY = doc.page.height - 70;
  const half = (width - 24) / 2;
  doc.lineWidth(0.7).strokeColor('#000000');
  doc
    .moveTo(left, lineY)
    .lineTo(left + half, lineY)
    .stroke();
  doc
    .moveTo(left + half + 24, lineY)
    .lineTo(left + width, lineY)
    .stroke();
  doc
    .font('regular')
    .fontSize(8)
    .text(text.employee, left, lineY + 4, { width: half, lineBreak: false });
  doc.text(text.employer, left + half + 24, lineY + 4, { width: half, lineBreak: false });
  doc.end();
  await finished;
  return Buffer.concat(chunks);
}
