// Time entries as CSV, both ways: the export route and `timetrack entries export` print the same
// text; `timetrack entries import` reads it back, all rows or none.
//
// Columns: id, start_at, end_at (UTC, authoritative), start_local, end_local (the user's zone, for
// reading in a spreadsheet; ignored on import), note. A note that a spreadsheet would run as a
// formula (= + - @, their fullwidth forms, tab or CR at the start of the note or after a separator a
// spreadsheet may split at: , ; | tab, line breaks) gets an apostrophe there, and so does an apostrophe
// already there; import removes exactly those, so the round trip is exact.
import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import type { Kysely, Transaction } from 'kysely';
import type { TransactionalDatabase } from '../db/database.js';
import type { Database, TimeEntryRow } from '../db/types.js';
import { localDateTimeOf, parseInstant, toIso } from './calendar.js';
import type { Clock } from '../common/clock.js';
import { addToDailyTotals, entriesOverlapping, entryBatchesOverlapping, runningEntry, totalsOfSpans, type InstantRange } from './entries-store.js';
import { ServiceError } from '../common/errors.js';
import type { SettingsService } from './settings.js';
import type { ExportGate, ExportStream } from './exports.js';
import {
  assertRoomForEntries,
  checkSpan,
  MAX_ENTRIES_PER_USER,
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
/** Rows per read of an export: one short read each (a few ms on SQLite at the longest notes). */
export const EXPORT_BATCH_ROWS = 250;
/**
 * Rows per piece of text: each piece is one macrotask of work (notes escaped, local times worked out,
 * CSV quoted), about 50 KB at the longest notes, so no piece holds the event loop for long.
 */
export const EXPORT_PIECE_ROWS = 50;

// What a spreadsheet evaluates as a formula at the start of a cell (the fullwidth forms too), and
// the separators a spreadsheet may split a cell at (comma, semicolon in many locales, tab, pipe, line
// breaks), optionally followed by spaces it trims. A note is escaped at its start and after every
// separator: one apostrophe before a formula character there (an apostrophe already there included).
const FORMULA_CHARACTERS = new Set(['=', '+', '-', '@', '\t', '\r', "'", '\uFF1D', '\uFF0B', '\uFF0D', '\uFF20']);
const SEPARATORS = new Set([',', ';', '|', '\t', '\r', '\n']);
/** A note without any formula character needs no escape: the common case, told by one scan. */
const ANY_FORMULA_CHARACTER = /[=+\-@\t\r'\uFF1D\uFF0B\uFF0D\uFF20]/;

/** Whether the character after `character` starts a cell, given whether `character` itself did. */
function nextStartsCell(character: string, startsCell: boolean): boolean {
  return SEPARATORS.has(character) || (startsCell && character === ' ');
}

function escapeNote(note: string): string {
  if (!ANY_FORMULA_CHARACTER.test(note)) return note;
  let escaped = '';
  let startsCell = true;
  for (const character of note) {
    if (startsCell && FORMULA_CHARACTERS.has(character)) escaped += "'";
    escaped += character;
    startsCell = nextStartsCell(character, startsCell);
  }
  return escaped;
}

function unescapeNote(note: string): string {
  const characters = [...note];
  let plain = '';
  let startsCell = true;
  for (let i = 0; i < characters.length; i += 1) {
    const next = characters[i + 1];
    // An apostrophe escapeNote put here: dropped, and the character it protects is taken as it is.
    if (startsCell && characters[i] === "'" && next !== undefined && FORMULA_CHARACTERS.has(next)) i += 1;
    const character = characters[i] ?? '';
    plain += character;
    startsCell = nextStartsCell(character, startsCell);
  }
  return plain;
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
  /** How long the write transaction held the database (0 without apply). */
  writeLockMs: number;
  /** Rows equal to an existing entry, left out (with `skipExisting`). */
  skipped: number;
}

export interface ImportOptions {
  apply: boolean;
  /** Leave out rows with exactly the start and end of an existing entry instead of refusing them. */
  skipExisting?: boolean;
  onProgress?: ImportProgress;
}

/** One row of an import, parsed: its line (CSV) or its place in the document (1-based), and its span. */
export interface ParsedRow {
  line: number;
  span: EntrySpan;
}

/** Rows of an import checked against what is stored: those to write, in start order, or the problems. */
export interface CheckedImport {
  rows: ParsedRow[];
  entries: ImportedRow[];
  skipped: number;
  problems: ImportProblem[];
}

function tooManyRows(count: number): ImportProblem {
  return { line: 1, message: `${count} entries to import, and an account keeps at most ${MAX_ENTRIES_PER_USER}; split the file` };
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
  if (records.length > MAX_ENTRIES_PER_USER) return { rows, problems: [tooManyRows(records.length)] };
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

/** What an import reports while it runs (the CLI shows it on a terminal). */
export type ImportProgress = (step: 'checked' | 'written', done: number, total: number) => void;

/** Rows per multi-row INSERT: well under SQLite's limit of bound parameters. */
const ROWS_PER_INSERT = 1000;

interface Conflict {
  line: number;
  message: string;
}

/**
 * Checks rows (in start order) against the user's existing entries (in start order, never
 * overlapping each other) and against the rows before them, in memory: a row that overlaps, or a
 * second running entry, is a problem and is left out of the comparison for the rows after it. With
 * `skipSame`, a row with exactly the start and end of an existing entry goes into `skipped` instead
 * (re-running an import of the same data is then harmless).
 */
function findConflicts(ordered: ParsedRow[], existing: TimeEntryRow[], running: TimeEntryRow | undefined, skipSame: boolean, skipped: Set<ParsedRow>): Conflict[] {
  const conflicts: Conflict[] = [];
  const starts = existing.map((entry) => Date.parse(entry.start_at));
  const ends = existing.map((entry) => (entry.end_at === null ? Infinity : Date.parse(entry.end_at)));
  let lastAccepted: ParsedRow | undefined;
  let runningRow: ParsedRow | undefined;
  for (const row of ordered) {
    const { startMs } = row.span;
    const endMs = row.span.endMs ?? Infinity;
    // The last existing entry that starts at or before this row, and the one after it.
    let low = 0;
    let high = starts.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if ((starts[middle] as number) <= startMs) low = middle + 1;
      else high = middle;
    }
    const before = low - 1;
    if (skipSame && before >= 0 && starts[before] === startMs && ends[before] === endMs) {
      skipped.add(row);
      continue;
    }
    if (row.span.endMs === null && running) {
      conflicts.push({ line: row.line, message: `Entry ${running.id} is already running; stop it first` });
      continue;
    }
    if (row.span.endMs === null && runningRow) {
      conflicts.push({ line: row.line, message: `a second running entry (the one on line ${runningRow.line} runs too)` });
      continue;
    }
    const clash =
      before >= 0 && (ends[before] as number) > startMs ? existing[before] : low < starts.length && (starts[low] as number) < endMs ? existing[low] : undefined;
    if (clash) {
      conflicts.push({ line: row.line, message: `The entry would overlap entry ${clash.id} (${clash.start_at} – ${clash.end_at ?? 'running'})` });
      continue;
    }
    if (lastAccepted && (lastAccepted.span.endMs ?? Infinity) > startMs) {
      conflicts.push({ line: row.line, message: `overlaps the entry on line ${lastAccepted.line}` });
      continue;
    }
    lastAccepted = row;
    if (row.span.endMs === null) runningRow = row;
  }
  return conflicts;
}

export function createEntryCsvService(database: TransactionalDatabase, clock: Clock, settings: SettingsService, timeEntries: TimeEntryService, exports: ExportGate) {
  const { db } = database;
  /**
   * The user's entries overlapping the range as CSV text (header included), in pieces of
   * EXPORT_BATCH_ROWS rows read one batch at a time (keyset), a macrotask between two pieces, so no
   * export holds the whole file in memory, the database or the event loop for long. A bad range, and
   * a second export of the account while one runs (EXPORT_RUNNING), are refused before the first piece.
   */
  async function exportCsv(userId: number, query: RangeQuery): Promise<ExportStream> {
    const { timezone } = await settings.getSettings(userId);
    const range = await timeEntries.resolveRange(userId, query);
    const local = (iso: string | null) => (iso === null ? '' : localDateTimeOf(Date.parse(iso), timezone));
    const csvOf = (rows: TimeEntryRow[], header: boolean) =>
      stringify(
        rows.map(publicEntry).map((entry: TimeEntry) => [entry.id, entry.start_at, entry.end_at ?? '', local(entry.start_at), local(entry.end_at), escapeNote(entry.note)]),
        { header, columns: [...CSV_COLUMNS] },
      );
    return exports.open(userId, async function* () {
      // Each record is written on its own, so the pieces joined are the text of all rows at once.
      let header = true;
      for await (const batch of entryBatchesOverlapping(db, userId, range, EXPORT_BATCH_ROWS)) {
        for (let first = 0; first < batch.length; first += EXPORT_PIECE_ROWS) {
          yield csvOf(batch.slice(first, first + EXPORT_PIECE_ROWS), header);
          header = false;
        }
      }
      if (header) yield csvOf([], true);
    });
  }

  /** Existing entries that rows in start order could overlap, and the running one. */
  async function conflictsWithStored(executor: Kysely<Database>, userId: number, ordered: ParsedRow[], skipSame: boolean, skipped: Set<ParsedRow>): Promise<Conflict[]> {
    const first = ordered[0];
    if (!first) return [];
    const range: InstantRange = { from: toIso(first.span.startMs) };
    // A loop, not Math.max(...ends): spreading 200,000 arguments overflows the call stack.
    let latestEnd = -Infinity;
    for (const row of ordered) latestEnd = row.span.endMs === null ? Infinity : Math.max(latestEnd, row.span.endMs);
    if (latestEnd !== Infinity) range.to = toIso(latestEnd);
    const existing = await entriesOverlapping(executor, userId, range);
    return findConflicts(ordered, existing, await runningEntry(executor, userId), skipSame, skipped);
  }

  /**
   * Reads CSV rows into new entries of the user (new ids), all rows or none. Every row is checked
   * (format, end after start, overlap with the file's other rows and the existing entries, one
   * running entry) by reads alone, so a dry run never takes the write lock. With `apply`, one short
   * transaction checks again against what is stored now (another process may have written since),
   * inserts the rows a thousand per statement and adds their time to the per-day totals.
   */
  async function importCsv(userId: number, text: string, options: ImportOptions): Promise<ImportResult> {
    if (Buffer.byteLength(text) > MAX_IMPORT_BYTES) {
      return { entries: [], applied: false, problems: [{ line: 1, message: `the file is larger than ${MAX_IMPORT_BYTES} bytes` }], writeLockMs: 0, skipped: 0 };
    }
    const { rows, problems } = parseRows(text, clock.now().getTime());
    if (problems.length > 0) return { entries: [], applied: false, problems, writeLockMs: 0, skipped: 0 };
    return importRows(userId, rows, options);
  }

  /**
   * The rows of an import checked against the user's stored entries (none for an account still to
   * be made), by reads alone: what would be written, or the problems (line by line).
   */
  async function checkImport(userId: number | undefined, rows: ParsedRow[], options: Pick<ImportOptions, 'skipExisting'>): Promise<CheckedImport> {
    if (rows.length > MAX_ENTRIES_PER_USER) return { rows: [], entries: [], skipped: 0, problems: [tooManyRows(rows.length)] };
    const skipSame = Boolean(options.skipExisting);
    const skipped = new Set<ParsedRow>();
    const ordered = [...rows].sort((a, b) => a.span.startMs - b.span.startMs);
    const conflicts = userId === undefined ? findConflicts(ordered, [], undefined, false, skipped) : await conflictsWithStored(db, userId, ordered, skipSame, skipped);
    if (conflicts.length > 0) return { rows: [], entries: [], skipped: 0, problems: conflicts.sort((a, b) => a.line - b.line) };
    const toWrite = ordered.filter((row) => !skipped.has(row));
    const entries = toWrite.map(({ line, span }) => ({ line, start_at: toIso(span.startMs), end_at: span.endMs === null ? null : toIso(span.endMs), note: span.note }));
    return { rows: toWrite, entries, skipped: skipped.size, problems: [] };
  }

  /**
   * Writes checked rows inside the caller's transaction (which has locked the user): checks them
   * again against what is stored now, the room left under the entry limit, inserts them a thousand
   * per statement and adds their time to the per-day totals in the zone stored now. Answers the
   * problems found (then the caller rolls back).
   */
  async function writeImportIn(trx: Transaction<Database>, userId: number, checked: CheckedImport, options: Pick<ImportOptions, 'skipExisting' | 'onProgress'>): Promise<ImportProblem[]> {
    const progress = options.onProgress ?? (() => {});
    // Rows skipped in the first check stay skipped; anything written since then is checked again.
    const found = await conflictsWithStored(trx, userId, checked.rows, Boolean(options.skipExisting), new Set());
    if (found.length > 0) return found.sort((a, b) => a.line - b.line);
    await assertRoomForEntries(trx, userId, checked.rows.length);
    const now = clock.now().toISOString();
    const values = checked.entries.map((entry) => ({ user_id: userId, start_at: entry.start_at, end_at: entry.end_at, note: entry.note, created_at: now, updated_at: now }));
    for (let index = 0; index < values.length; index += ROWS_PER_INSERT) {
      await trx.insertInto('time_entries').values(values.slice(index, index + ROWS_PER_INSERT)).execute();
      progress('written', Math.min(index + ROWS_PER_INSERT, values.length), values.length);
    }
    const { timezone } = await settings.getSettingsInTransaction(trx, userId);
    const finished = checked.rows.flatMap(({ span }) => (span.endMs === null ? [] : [[span.startMs, span.endMs] as [number, number]]));
    await addToDailyTotals(trx, userId, totalsOfSpans(finished, timezone));
    return [];
  }

  async function importRows(userId: number, rows: ParsedRow[], options: ImportOptions): Promise<ImportResult> {
    const checked = await checkImport(userId, rows, options);
    options.onProgress?.('checked', rows.length, rows.length);
    if (checked.problems.length > 0) return { entries: [], applied: false, problems: checked.problems, writeLockMs: 0, skipped: 0 };
    if (!options.apply) return { entries: checked.entries, applied: false, problems: [], writeLockMs: 0, skipped: checked.skipped };
    const lockedAt = performance.now();
    const lateConflicts = await database.transact(async (trx) => {
      await database.lockUser(trx, userId);
      return writeImportIn(trx, userId, checked, options);
    });
    const writeLockMs = performance.now() - lockedAt;
    if (lateConflicts.length > 0) return { entries: [], applied: false, problems: lateConflicts, writeLockMs, skipped: 0 };
    return { entries: checked.entries, applied: true, problems: [], writeLockMs, skipped: checked.skipped };
  }

  return { exportCsv, importCsv, checkImport, writeImportIn };
}

export type EntryCsvService = ReturnType<typeof createEntryCsvService>;
