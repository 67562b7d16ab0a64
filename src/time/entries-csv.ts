// Time entries as CSV, both ways: the export route and `timetrack entries export` print the same
// text; `timetrack entries import` reads it back, all rows or none.
//
// Columns: id, start_at, end_at (UTC, authoritative), start_local, end_local (the user's zone, for
// reading in a spreadsheet; ignored on import), note. A note that a spreadsheet would run as a
// formula (starting with = + - @ tab or CR) is written with a leading apostrophe, and so is a note
// that itself starts with one; import removes one leading apostrophe, so the round trip is exact.
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import type { Kysely } from 'kysely';
import type { Database } from '../db/types.js';
import { localDateTimeOf, parseInstant, toIso } from './calendar.js';
import type { Clock } from '../shared/clock.js';
import { entriesOverlapping } from './entries-store.js';
import { ServiceError } from '../shared/errors.js';
import type { SettingsService } from './settings.js';
import {
  assertRoomForEntries,
  assertSpanIsFree,
  checkSpan,
  EntryConflictError,
  insertEntry,
  normalizeNote,
  publicEntry,
  type EntrySpan,
  type RangeQuery,
  type TimeEntry,
  type TimeEntryService,
} from './entries.js';

export const CSV_COLUMNS = ['id', 'start_at', 'end_at', 'start_local', 'end_local', 'note'] as const;
/** A file bigger than this is refused before parsing (ten years of entries fit many times over). */
export const MAX_IMPORT_BYTES = 10 * 1024 * 1024;

const FORMULA_START = /^[=+\-@\t\r']/;

function escapeNote(note: string): string {
  return FORMULA_START.test(note) ? `'${note}` : note;
}

function unescapeNote(note: string): string {
  return note.startsWith("'") ? note.slice(1) : note;
}

export interface ImportProblem {
  line: number;
  message: string;
}

export interface ImportedRow {
  line: number;
  start_at: string;
  end_at: string | null;
  note: string;
}

export interface ImportResult {
  /** Rows that were (with apply) or would be written, in start order. */
  entries: ImportedRow[];
  applied: boolean;
  /** Non-empty: nothing was written. */
  problems: ImportProblem[];
}

interface ParsedRow {
  line: number;
  span: EntrySpan;
}

type CsvRecord = Record<string, string>;

function parseRows(text: string, nowMs: number): { rows: ParsedRow[]; problems: ImportProblem[] } {
  const problems: ImportProblem[] = [];
  const rows: ParsedRow[] = [];
  let records: Array<{ record: CsvRecord; info: { lines: number } }>;
  try {
    records = parse(text, { columns: true, bom: true, skip_empty_lines: true, info: true, trim: false }) as typeof records;
  } catch (error) {
    const line = (error as { lines?: number }).lines ?? 1;
    return { rows, problems: [{ line, message: `not valid CSV (${(error as Error).message.split('\n')[0]})` }] };
  }
  const header = records[0] ? Object.keys(records[0].record) : [];
  const missing = ['start_at', 'end_at', 'note'].filter((column) => records.length > 0 && !header.includes(column));
  if (missing.length > 0) return { rows, problems: [{ line: 1, message: `the header lacks the column(s) ${missing.join(', ')}` }] };

  for (const { record, info } of records) {
    // csv-parse counts the line where a record ends; a quoted field with line breaks started earlier.
    const line = info.lines - Object.values(record).reduce((breaks, value) => breaks + (value.match(/\n/g)?.length ?? 0), 0);
    try {
      const span: EntrySpan = {
        startMs: parseInstant(record.start_at ?? '', 'start_at'),
        endMs: (record.end_at ?? '') === '' ? null : parseInstant(record.end_at ?? '', 'end_at'),
        note: normalizeNote(unescapeNote(record.note ?? '')),
      };
      checkSpan(span, nowMs);
      rows.push({ line, span });
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      problems.push({ line, message: error.message });
    }
  }
  return { rows, problems };
}

/** Thrown inside the import transaction to roll it back when a row breaks a rule. */
class ImportRejected extends Error {}

export function createEntryCsvService(db: Kysely<Database>, clock: Clock, settings: SettingsService, timeEntries: TimeEntryService) {
  /** The user's entries overlapping the range as CSV text (header included). */
  async function exportCsv(userId: number, query: RangeQuery): Promise<string> {
    const { timezone } = await settings.getSettings(userId);
    const rows = await entriesOverlapping(db, userId, await timeEntries.resolveRange(userId, query));
    const local = (iso: string | null) => (iso === null ? '' : localDateTimeOf(Date.parse(iso), timezone));
    return stringify(
      rows.map(publicEntry).map((entry: TimeEntry) => [entry.id, entry.start_at, entry.end_at ?? '', local(entry.start_at), local(entry.end_at), escapeNote(entry.note)]),
      { header: true, columns: [...CSV_COLUMNS] },
    );
  }

  /**
   * Reads CSV rows into new entries of the user (new ids). Every row is checked (format, end after
   * start, overlap with the file's other rows and the existing entries, one running entry) in one
   * transaction; with problems, or without `apply`, nothing is written.
   */
  async function importCsv(userId: number, text: string, options: { apply: boolean }): Promise<ImportResult> {
    if (Buffer.byteLength(text) > MAX_IMPORT_BYTES) {
      return { entries: [], applied: false, problems: [{ line: 1, message: `the file is larger than ${MAX_IMPORT_BYTES} bytes` }] };
    }
    const nowMs = clock.now().getTime();
    const { rows, problems } = parseRows(text, nowMs);
    if (problems.length > 0) return { entries: [], applied: false, problems };
    const now = toIso(nowMs);
    // Written in start order: each row is checked against the existing entries and the rows before it.
    const ordered = [...rows].sort((a, b) => a.span.startMs - b.span.startMs);
    try {
      await db.transaction().execute(async (trx) => {
        const { timezone } = await settings.getSettingsInTransaction(trx, userId);
        await assertRoomForEntries(trx, userId, ordered.length);
        const lineOfEntry = new Map<number, number>();
        for (const row of ordered) {
          try {
            await assertSpanIsFree(trx, userId, row.span);
            const inserted = await insertEntry(trx, userId, timezone, row.span, now);
            lineOfEntry.set(inserted.id, row.line);
          } catch (error) {
            if (!(error instanceof EntryConflictError)) throw error;
            problems.push({ line: row.line, message: describeConflict(error, lineOfEntry) });
          }
        }
        if (problems.length > 0 || !options.apply) throw new ImportRejected();
      });
    } catch (error) {
      if (!(error instanceof ImportRejected)) throw error;
    }
    problems.sort((a, b) => a.line - b.line);
    if (problems.length > 0) return { entries: [], applied: false, problems };
    const entries = ordered.map(({ line, span }) => ({
      line,
      start_at: toIso(span.startMs),
      end_at: span.endMs === null ? null : toIso(span.endMs),
      note: span.note,
    }));
    return { entries, applied: options.apply, problems };
  }

  /** A conflict with a row of the same file names that row's line rather than a temporary id. */
  function describeConflict(error: EntryConflictError, lineOfEntry: Map<number, number>): string {
    const line = lineOfEntry.get(error.entryId);
    if (line === undefined) return error.message;
    return error.code === 'OVERLAP' ? `overlaps the entry on line ${line}` : `a second running entry (the one on line ${line} runs too)`;
  }

  return { exportCsv, importCsv };
}
