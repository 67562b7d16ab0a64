// What an import's rows do to the account's days, worked out before its write lock (docs/time-model.md,
// "CSV"): the per-day totals of the new entries and the runs of months the month lock is asked
// about. Working the days out of 20,000 entries takes most of a second on a slow machine; inside the
// lock, the import only compares the zones and the shortest break stored now with the ones these were
// worked out with, and works them out again (in the lock) only when another write changed them.
import type { LocalDate } from '../../db/types.js';
import { sameZones } from '../calendar/zones.js';
import { monthRunsOf } from '../month-lock.js';
import type { Settings } from '../settings/settings.js';
import type { ParsedRow } from './csv-text.js';
import { totalsOfSpans, type DayTotal } from './store.js';

/** The settings the days of entries depend on. */
export type DaysSettings = Pick<Settings, 'zones' | 'min_break_minutes'>;

export interface ImportDays {
  /** The settings these were worked out with. */
  settings: DaysSettings;
  /** Worked and break time per local day of the finished rows, on their own. */
  totals: Map<LocalDate, DayTotal>;
  /** The runs of consecutive months the rows touch, each [first day, last day]. */
  months: Array<[LocalDate, LocalDate]>;
}

/** The days of the rows in these settings. */
export function importDaysOf(rows: readonly ParsedRow[], settings: DaysSettings): ImportDays {
  const finished: Array<[number, number]> = [];
  const spans: Array<[number, number]> = [];
  for (const { span } of rows) {
    spans.push([span.startMs, span.endMs ?? span.startMs + 1]);
    if (span.endMs !== null) finished.push([span.startMs, span.endMs]);
  }
  return {
    settings: { zones: settings.zones, min_break_minutes: settings.min_break_minutes },
    totals: totalsOfSpans(finished, settings.zones, settings.min_break_minutes * 60_000),
    months: monthRunsOf(settings.zones, spans),
  };
}

/** `planned` when it was worked out with the settings stored now, else the days worked out again in them. */
export function importDaysIn(planned: ImportDays | undefined, rows: readonly ParsedRow[], stored: DaysSettings): ImportDays {
  const usable = planned !== undefined && planned.settings.min_break_minutes === stored.min_break_minutes && sameZones(planned.settings.zones, stored.zones);
  return usable ? planned : importDaysOf(rows, stored);
}
