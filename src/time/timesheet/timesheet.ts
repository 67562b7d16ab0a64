// The monthly timesheet (docs/time-model.md, Monthly timesheet): the month's day rows, totals, the
// balance carried in and out, and the year's vacation, as JSON, CSV and a one-page PDF to sign. The CSV
// and the PDF are written from the JSON object itself, so every figure in them equals the JSON's.
import { publicHolidays } from '../calendar/holidays.js';
import type { MonthFigures } from '../statistics/types.js';
import type { Settings } from '../settings/settings.js';
import type { MonthSheet, SheetLanguage } from './format.js';
import type { VacationYear } from '../absences/vacation.js';

export type { MonthSheet, SheetLanguage } from './format.js';
export { hoursAndMinutes, signedHours } from './format.js';
export { SHEET_CSV_COLUMNS, timesheetCsv } from './csv.js';
export { timesheetPdf, type DrawnText, type SheetPerson } from './pdf.js';
export type { SealPerson, SheetSeal } from './seal.js';

export interface TimesheetDeps {
  statistics: { monthFigures(userId: number, month?: string): Promise<MonthFigures> };
  vacation: { vacationYear(userId: number, year?: number): Promise<VacationYear> };
  settings: { getSettings(userId: number): Promise<Pick<Settings, 'holiday_region'>> };
}

export function createTimesheetService(sources: TimesheetDeps) {
  /** The sheet of a month; its public holidays named in `language` (the figures are the same in every language). */
  async function monthSheet(userId: number, month?: string, language: SheetLanguage = 'en'): Promise<MonthSheet> {
    const figures = await sources.statistics.monthFigures(userId, month);
    const vacation = await sources.vacation.vacationYear(userId, Number(figures.month.slice(0, 4)));
    if (language === 'en' || !figures.days.some((day) => day.public_holiday !== null)) return { ...figures, vacation };
    const { holiday_region: region } = await sources.settings.getSettings(userId);
    const first = figures.days[0]!.date;
    const names = await publicHolidays(region, first, figures.days[figures.days.length - 1]!.date, language);
    const days = figures.days.map((day) => (day.public_holiday === null ? day : { ...day, public_holiday: names.get(day.date) ?? day.public_holiday }));
    return { ...figures, days, vacation };
  }
  return { monthSheet };
}
