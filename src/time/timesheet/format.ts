// How the monthly timesheet writes its figures (docs/time-model.md, Monthly timesheet): dates, numbers
// and words in the sheet's language, empty cells where nothing happened, and an end at midnight as
// 24:00. The PDF and the CSV both take their cells from here, so they follow one rule.
import { DateTime } from 'luxon';
import type { Weekday } from '../calendar/dates.js';
import type { MonthDay, MonthFigures } from '../statistics/types.js';
import type { VacationYear } from '../absences/vacation.js';

export interface MonthSheet extends MonthFigures {
  vacation: VacationYear;
}

export type SheetLanguage = 'en' | 'de';

/**
 * The sheet's words. Those the browser client shows on its Month view too are the client's own
 * wording (src/web/i18n/, `week` and `month`), so the paper and the screen say the same; the domain
 * does not import the client, so they are repeated here.
 */
export const SHEET_WORDS = {
  en: {
    title: 'Timesheet',
    name: 'Name',
    zone: 'Time zone',
    columns: ['Date', 'Day', 'Start', 'End', 'Break', 'Deducted', 'Worked', 'Target', 'Booked', 'Balance', 'Absence / holiday'],
    weekdays: { mon: 'Mon', tue: 'Tue', wed: 'Wed', thu: 'Thu', fri: 'Fri', sat: 'Sat', sun: 'Sun' },
    absence: { vacation: 'Vacation', sick: 'Sick', holiday: 'Holiday' },
    half: 'half day',
    total: 'Total',
    notYet: 'not yet',
    carriedIn: (balance: string) => `Carried in: ${balance}`,
    // The balance carried out, in the words of the client's Month, Week and Today (src/web/i18n/en.ts, balance.through).
    through: (date: string, balance: string) => `Balance through ${date}: ${balance}`,
    vacation: (year: number) => `Vacation ${year} (days)`,
    vacationFigures: ['allowance', 'carried over', 'taken', 'planned', 'remaining'],
    notTracked: 'not tracked',
    employee: 'Employee: date, signature',
    employer: 'Employer: date, signature',
    // The first sentence and "not yet" are the browser client's words (src/web/i18n/en.ts, balance): the same on every screen and file.
    note: [
      'A day counts in the balance once it is over; today and later days: not yet.',
      'Times in h:mm; an entry ending at midnight ends at 24:00. Balance: worked − target + booked.',
      'Break: the gaps between entries (a gap of more than 3 hours splits the shift and is no break). Deducted: the break still owed under the break rules.',
    ],
  },
  de: {
    title: 'Stundenzettel',
    name: 'Name',
    zone: 'Zeitzone',
    columns: ['Datum', 'Tag', 'Beginn', 'Ende', 'Pause', 'Abzug', 'Ist', 'Soll', 'Gebucht', 'Saldo', 'Abwesenheit / Feiertag'],
    weekdays: { mon: 'Mo', tue: 'Di', wed: 'Mi', thu: 'Do', fri: 'Fr', sat: 'Sa', sun: 'So' },
    absence: { vacation: 'Urlaub', sick: 'Krank', holiday: 'Frei' },
    half: 'halber Tag',
    total: 'Summe',
    notYet: 'noch offen',
    carriedIn: (balance: string) => `Übertrag vom Vormonat: ${balance}`,
    through: (date: string, balance: string) => `Saldo bis ${date}: ${balance}`,
    vacation: (year: number) => `Urlaub ${year} (Tage)`,
    vacationFigures: ['Anspruch', 'übertragen', 'genommen', 'geplant', 'Rest'],
    notTracked: 'nicht erfasst',
    employee: 'Mitarbeiter/in: Datum, Unterschrift',
    employer: 'Arbeitgeber/in: Datum, Unterschrift',
    note: [
      'Ein Tag zählt im Saldo, sobald er vorbei ist; heute und spätere Tage: noch offen.',
      'Zeiten in h:mm; ein Eintrag bis Mitternacht endet um 24:00. Saldo: Ist − Soll + Gebucht.',
      'Pause: die Lücken zwischen Einträgen (eine Lücke von mehr als 3 Stunden teilt die Schicht und ist keine Pause). Abzug: nach den Pausenregeln noch fehlende Pause.',
    ],
  },
} as const;

/** Minutes as h:mm (worked, target, breaks), in both languages. */
export function hoursAndMinutes(minutes: number): string {
  const abs = Math.abs(minutes);
  return `${minutes < 0 ? '-' : ''}${Math.floor(abs / 60)}:${String(abs % 60).padStart(2, '0')}`;
}

/** A balance as ±h:mm (0:00 without a sign). */
export function signedHours(minutes: number): string {
  return minutes === 0 ? '0:00' : `${minutes > 0 ? '+' : '-'}${hoursAndMinutes(Math.abs(minutes))}`;
}

/** A date of the sheet: de 26.11.2026, en 26 Nov 2026 (day, month, year: no reader can take it for another day). */
export function sheetDate(date: string, language: SheetLanguage): string {
  const day = DateTime.fromISO(date, { zone: 'UTC' });
  return language === 'de' ? day.toFormat('dd.MM.yyyy') : day.setLocale('en-GB').toFormat('dd LLL yyyy');
}

/** The month in words: "November 2026", "März 2026". */
export function sheetMonth(month: string, language: SheetLanguage): string {
  return DateTime.fromISO(`${month}-01`, { zone: 'UTC' }).setLocale(language).toFormat('LLLL yyyy');
}

export function weekdayName(weekday: Weekday, language: SheetLanguage): string {
  return SHEET_WORDS[language].weekdays[weekday];
}

/** A count of days with the language's decimal sign: de 8,5 / en 8.5. */
export function dayCount(value: number, language: SheetLanguage): string {
  return new Intl.NumberFormat(language === 'de' ? 'de-DE' : 'en-US', { maximumFractionDigits: 2, useGrouping: false }).format(value);
}

/**
 * A day's local time of an instant (HH:mm), or empty. An end that falls on a later date than the
 * row's (an entry running to midnight: its piece of the day ends at the next day's first instant)
 * is the day's end, 24:00.
 */
export function localTime(instant: string | null, zone: string, rowDate: string, end = false): string {
  if (instant === null) return '';
  const local = DateTime.fromISO(instant, { zone });
  return end && local.toISODate()! > rowDate ? '24:00' : local.toFormat('HH:mm');
}

/** The same as a local date and time with its UTC offset (2026-11-26T08:00+01:00); a midnight end as the row's date at 24:00. */
export function localStamp(instant: string | null, zone: string, rowDate: string, end = false): string {
  if (instant === null) return '';
  const local = DateTime.fromISO(instant, { zone });
  const offset = local.toFormat('ZZ');
  if (end && local.toISODate()! > rowDate) return `${rowDate}T24:00${DateTime.fromMillis(local.toMillis() - 1, { zone }).toFormat('ZZ')}`;
  return `${local.toFormat("yyyy-MM-dd'T'HH:mm")}${offset}`;
}

/** A day's figures, each null where nothing happened (an empty cell, not 0:00). */
export interface DayCells {
  break: number | null;
  deducted: number | null;
  worked: number | null;
  target: number | null;
  booked: number | null;
  /** null: an empty cell; 'not yet': a day whose balance is not counted yet (the client's words). */
  balance: number | null | 'not yet';
}

/**
 * The empty-cell rule: a break, a deduction, a target and a booking of 0 are empty; worked time is
 * empty on a day without entries; the balance is empty on a day where nothing happened (no entry,
 * no target, no booking), and "not yet" when the figures leave it uncounted (null).
 */
export function dayCells(
  day: Pick<MonthDay, 'first_start' | 'break_minutes' | 'break_deducted_minutes' | 'worked_minutes' | 'target_minutes' | 'booked_minutes'> & {
    balance_minutes: number | null;
  },
): DayCells {
  const orEmpty = (minutes: number) => (minutes === 0 ? null : minutes);
  const worked = day.first_start === null && day.worked_minutes === 0 ? null : day.worked_minutes;
  const nothing = worked === null && day.target_minutes === 0 && day.booked_minutes === 0;
  return {
    break: orEmpty(day.break_minutes),
    deducted: orEmpty(day.break_deducted_minutes),
    worked,
    target: orEmpty(day.target_minutes),
    booked: orEmpty(day.booked_minutes),
    balance: day.balance_minutes === null ? 'not yet' : nothing && day.balance_minutes === 0 ? null : day.balance_minutes,
  };
}

/** What a day's last column says: its absence (half or whole) and public holiday. */
export function dayLabel(day: Pick<MonthDay, 'absence' | 'absence_portion' | 'public_holiday'>, language: SheetLanguage): string {
  const words = SHEET_WORDS[language];
  const absence = day.absence ? `${words.absence[day.absence]}${day.absence_portion === 'half' ? ` (${words.half})` : ''}` : '';
  return [absence, day.public_holiday ?? ''].filter(Boolean).join(' · ');
}
