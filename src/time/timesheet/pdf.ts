// The monthly timesheet as a one-page A4 PDF to sign (docs/time-model.md, Monthly timesheet), drawn
// with pdfkit from the sheet's JSON object: dates, numbers and words in the sheet's language, empty
// cells where nothing happened, and every label fitted to its cell so that no text leaves its row.
import fs from 'node:fs';
import { zoneOn } from '../calendar/dates.js';
import { createRequire } from 'node:module';
import {
  dayCells,
  dayCount,
  dayLabel,
  hoursAndMinutes,
  localTime,
  SHEET_WORDS,
  sheetDate,
  sheetMonth,
  signedHours,
  weekdayName,
  type MonthSheet,
  type SheetLanguage,
} from './format.js';
import { fitLabel, wrapLines } from './fit.js';
import { asciiJson, IDENTITY_KEY, sealLines, type SheetIdentity, type SheetSeal } from './seal.js';

/** The TrueType font embedded in every sheet: DejaVu Sans Condensed, from the dejavu-fonts-ttf package. */
function fontFile(bold: boolean): string {
  return createRequire(import.meta.url).resolve(`dejavu-fonts-ttf/ttf/DejaVuSansCondensed${bold ? '-Bold' : ''}.ttf`);
}

type PdfKit = typeof import('pdfkit');
/** pdfkit and the two fonts' bytes, read once per process (docs/security.md, "one user's data as a load"). */
let loaded: Promise<{ PDFDocument: PdfKit; regular: Buffer; bold: Buffer }> | undefined;

/** Loads pdfkit and reads the fonts; `serve` calls it at its start, so no request loads code or reads a font file. */
export function preloadPdf(): Promise<{ PDFDocument: PdfKit; regular: Buffer; bold: Buffer }> {
  loaded ??= (async () => {
    const { default: PDFDocument } = await import('pdfkit');
    return { PDFDocument, regular: fs.readFileSync(fontFile(false)), bold: fs.readFileSync(fontFile(true)) };
  })();
  return loaded;
}

const figure = (value: number | null, write: (minutes: number) => string) => (value === null ? '' : write(value));

/** The person a sheet is of; with `id`, the PDF carries its identity for `timetrack report verify` (./seal.ts). */
export interface SheetPerson {
  id?: number;
  name: string;
  email: string;
}

/** One text the sheet drew, where: its row (`days/2026-02-10`, `totals`, `seal/digest`, …), its column, and its box's left edge and width. */
export interface DrawnText {
  row: string;
  column: string;
  x: number;
  space: number;
  text: string;
}

/** The names of the table's columns in a DrawnText (language-neutral), the label column last. */
export const COLUMN_KEYS = ['date', 'weekday', 'start', 'end', 'break', 'deducted', 'worked', 'target', 'booked', 'balance', 'absence'] as const;

/** The identity in the PDF's metadata (./seal.ts), when the person's account is known. */
function identityOf(sheet: MonthSheet, person: SheetPerson, language: SheetLanguage, seal: SheetSeal | null): Record<string, string> {
  if (person.id === undefined) return {};
  const identity: SheetIdentity = { version: 1, account_id: person.id, email: person.email, month: sheet.month, lang: language, digest: seal?.digest ?? null };
  return { [IDENTITY_KEY]: asciiJson(identity) };
}

/** The sheet as a one-page A4 PDF (pdfkit, loaded on first use; fonts embedded). */
// The PDF drawing is one sequence of pages, rows and positions; the house's function size leaves it out (docs/architecture.md).
// eslint-disable-next-line max-lines-per-function
export async function timesheetPdf(
  sheet: MonthSheet,
  person: SheetPerson,
  language: SheetLanguage = 'en',
  seal: SheetSeal | null = null,
  /** Filled with every text drawn, in order (the re-drawing of `timetrack report verify`). */
  trace?: DrawnText[],
): Promise<Buffer> {
  const { PDFDocument, regular, bold } = await preloadPdf();
  const text = SHEET_WORDS[language];
  const title = `${text.title} ${sheetMonth(sheet.month, language)}`;
  const doc = new PDFDocument({
    size: 'A4',
    margin: 36,
    // pdfkit takes a font's bytes as well as its path (its types say path only).
    font: regular as unknown as string,
    // A sealed sheet is dated by its approval, so that drawing it again gives the same file.
    info: {
      Title: title,
      Author: person.name,
      Creator: 'timetrack',
      Producer: 'timetrack',
      CreationDate: seal ? new Date(seal.approved_at) : new Date(),
      ...identityOf(sheet, person, language, seal),
    },
  });
  doc.registerFont('regular', regular);
  doc.registerFont('bold', bold);
  const chunks: Buffer[] = [];
  doc.on('data', (chunk: Buffer) => chunks.push(chunk));
  const finished = new Promise<void>((resolve, reject) => {
    doc.on('end', resolve);
    doc.on('error', reject);
  });

  const left = 36;
  const width = doc.page.width - 72;
  /** Where the next text goes, for the trace. */
  const at = { row: 'title', column: '' };
  /** One line of text at (x, y), fitted to `space`: it never wraps onto the next row. */
  const line = (value: string, x: number, y: number, space: number, size: number, align: 'left' | 'right' = 'left') => {
    if (value === '') return;
    const fitted = fitLabel(doc, value, space, size);
    doc.fontSize(fitted.size);
    const drawnAt = align === 'right' ? x + space - doc.widthOfString(fitted.text) : x;
    trace?.push({ ...at, x, space, text: fitted.text });
    // A shrunk label keeps the baseline of its row (pdfkit places text by its top).
    doc.text(fitted.text, drawnAt, y + (size - fitted.size) * 0.76, { lineBreak: false });
  };
  doc.font('bold');
  line(title, left, 36, width, 15);
  doc.font('regular');
  at.row = 'person';
  // The person's line wraps (a long name takes up to four lines); the table starts below it.
  const header = `${text.name}: ${person.name} <${person.email}>    ${text.zone}: ${sheet.zones.map((entry) => entry.timezone).join(' → ')}`;
  const headerLines = wrapLines(doc, header, width, 9, 4);
  headerLines.forEach((value, index) => line(value, left, 58 + index * 11, width, 9));

  // Columns: x offsets and widths; figures right-aligned.
  const widths = [46, 20, 28, 28, 28, 32, 32, 32, 36, 38];
  const xs: number[] = [];
  let x = left;
  for (const w of widths) {
    xs.push(x);
    x += w + 3;
  }
  const labelX = x + 4;
  const labelWidth = left + width - labelX;
  const rowHeight = 14.5;
  let y = 80 + (headerLines.length - 1) * 11;
  const row = (name: string, cells: string[], label: string, bold = false) => {
    doc.font(bold ? 'bold' : 'regular');
    at.row = name;
    cells.forEach((cell, index) => {
      at.column = COLUMN_KEYS[index]!;
      line(cell, xs[index]!, y, widths[index]!, 8, index >= 4 ? 'right' : 'left');
    });
    at.column = COLUMN_KEYS[10];
    line(label, labelX, y, labelWidth, 8);
    at.column = '';
    y += rowHeight;
  };
  /** The seal of an approved month (./seal.ts): who submitted and approved it, when, and its digest in a fixed-width font. */
  const drawSeal = (seal: SheetSeal) => {
    const lines = sealLines(seal, sheet.zones[sheet.zones.length - 1]!.timezone, language);
    y += 6;
    for (const [name, value] of [
      ['seal/submitted', lines.submitted],
      ['seal/approved', lines.approved],
      ['seal/label', lines.label],
    ] as const) {
      at.row = name;
      line(value, left, y, width, 8);
      if (value !== '') y += 11;
    }
    // Courier: a standard PDF font, its text copied and pasted as it is drawn.
    doc.font('Courier');
    at.row = 'seal/digest';
    line(seal.digest, left, y, width, 8);
    doc.font('regular');
    y += 11;
  };
  const rule = () => {
    doc
      .moveTo(left, y - 3)
      .lineTo(left + width, y - 3)
      .lineWidth(0.5)
      .strokeColor('#888888')
      .stroke();
  };
  row('columns', text.columns.slice(0, 10), text.columns[10], true);
  rule();
  for (const day of sheet.days) {
    const cells = dayCells(day);
    row(
      `days/${day.date}`,
      [
        sheetDate(day.date, language),
        weekdayName(day.weekday, language),
        localTime(day.first_start, zoneOn(day.date, sheet.zones), day.date),
        localTime(day.last_end, zoneOn(day.date, sheet.zones), day.date, true),
        figure(cells.break, hoursAndMinutes),
        figure(cells.deducted, hoursAndMinutes),
        figure(cells.worked, hoursAndMinutes),
        figure(cells.target, hoursAndMinutes),
        figure(cells.booked, signedHours),
        cells.balance === 'not yet' ? text.notYet : figure(cells.balance, signedHours),
      ],
      dayLabel(day, language),
    );
  }
  rule();
  const { totals } = sheet;
  row(
    'totals',
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
  doc.font('regular');
  at.row = 'balance';
  // Carried out is the balance through its last counted day (yesterday in this month), named as the client's Month names it.
  const through = text.through(sheetDate(sheet.balance_through, language), signedHours(sheet.balance_after_minutes));
  line(`${text.carriedIn(signedHours(sheet.balance_before_minutes))}      ${through}`, left, y, width, 9);
  y += 14;
  at.row = 'vacation';
  const v = sheet.vacation;
  const days = (value: number | null) => (value === null ? text.notTracked : dayCount(value, language));
  const [allowance, carried, taken, planned, remaining] = text.vacationFigures;
  line(
    `${text.vacation(v.year)}: ${allowance} ${days(v.allowance_days)}, ${carried} ${days(v.carried_over_days)}, ${taken} ${days(v.taken_days)}, ${planned} ${days(v.planned_days)}, ${remaining} ${days(v.remaining_days)}`,
    left,
    y,
    width,
    9,
  );
  y += 14;
  doc.fillColor('#444444');
  at.row = 'note';
  for (const sentence of text.note) {
    line(sentence, left, y, width, 7);
    y += 9;
  }
  doc.fillColor('#000000');
  if (seal) drawSeal(seal);

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
  at.row = 'signatures';
  line(text.employee, left, lineY + 4, half, 8);
  line(text.employer, left + half + 24, lineY + 4, half, 8);
  doc.end();
  await finished;
  return Buffer.concat(chunks);
}
