// The monthly timesheet as CSV (docs/time-model.md, Monthly timesheet): a row per day, the totals, and
// the balance carried in and out. Language-neutral figures (minutes, ISO dates and instants), the
// holiday names in the sheet's language, and the same empty-cell rule as the PDF.
import { zoneOn } from '../calendar/dates.js';
import { stringify } from 'csv-stringify/sync';
import { dayCells, hoursAndMinutes, localStamp, type MonthSheet } from './format.js';

export const SHEET_CSV_COLUMNS = [
  'date',
  'weekday',
  'first_start',
  'last_end',
  'break_minutes',
  'break_deducted_minutes',
  'worked_minutes',
  'worked_duration',
  'target_minutes',
  'booked_minutes',
  'absence',
  'absence_portion',
  'public_holiday',
  'balance_minutes',
] as const;

const cell = (value: number | null | 'not yet') => (typeof value === 'number' ? value : '');

/**
 * The sheet as CSV: one row per day (first_start and last_end as local times with their UTC offset,
 * 2026-11-26T08:00+01:00, an end at midnight as the row's date at 24:00; worked_duration as h:mm;
 * figures in minutes, empty where nothing happened), then a `total` row, and `balance_before` and
 * `balance_after` rows whose figure is in balance_minutes.
 */
export function timesheetCsv(sheet: MonthSheet): string {
  const rows: Array<Array<string | number>> = sheet.days.map((day) => {
    const cells = dayCells(day);
    return [
      day.date,
      day.weekday,
      localStamp(day.first_start, zoneOn(day.date, sheet.zones), day.date),
      localStamp(day.last_end, zoneOn(day.date, sheet.zones), day.date, true),
      cell(cells.break),
      cell(cells.deducted),
      cell(cells.worked),
      cells.worked === null ? '' : hoursAndMinutes(cells.worked),
      cell(cells.target),
      cell(cells.booked),
      day.absence ?? '',
      day.absence_portion ?? '',
      day.public_holiday ?? '',
      cell(cells.balance),
    ];
  });
  const { totals } = sheet;
  const blank = (count: number) => Array<string>(count).fill('');
  rows.push([
    'total',
    '',
    '',
    '',
    totals.break_minutes,
    totals.break_deducted_minutes,
    totals.worked_minutes,
    hoursAndMinutes(totals.worked_minutes),
    totals.target_minutes,
    totals.booked_minutes,
    ...blank(3),
    totals.balance_minutes,
  ]);
  rows.push(['balance_before', ...blank(12), sheet.balance_before_minutes]);
  rows.push(['balance_after', ...blank(12), sheet.balance_after_minutes]);
  return stringify(rows, { header: true, columns: [...SHEET_CSV_COLUMNS] });
}
