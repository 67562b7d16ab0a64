// The CSV text of time entries (./csv.ts): its columns, the escape of notes a spreadsheet would run
// as a formula, and the parse of an import's rows (each checked by the rules of an entry).
import { parse } from 'csv-parse/sync';
import { ServiceError } from '../../common/errors.js';
import { parseInstant } from '../calendar/dates.js';
import { checkSpan, MAX_ENTRIES_PER_USER, normalizeNote, type EntrySpan } from './rules.js';

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

export function escapeNote(note: string): string {
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

export function tooManyRows(count: number): ImportProblem {
  return { line: 1, message: `${count} entries to import, and an account keeps at most ${MAX_ENTRIES_PER_USER}; split the file` };
}

type CsvRecord = Record<string, string>;

export function parseRows(text: string, nowMs: number): { rows: ParsedRow[]; problems: ImportProblem[] } {
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
