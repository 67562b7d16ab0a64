// Time entries as CSV, both ways: the export route and `timetrack entries export` print the same
// text; `timetrack entries import` reads it back, all rows or none.
//
// Columns: id, start_at, end_at (UTC, authoritative), start_local, end_local (the user's zone, for
// reading in a spreadsheet; ignored on import), note. A note that a spreadsheet would run as a
// formula (= + - @, their fullwidth forms, tab or CR at the start of the note or after a separator a
// spreadsheet may split at: , ; | tab, line breaks) gets an apostrophe there, and so does an apostrophe
// already there; import removes exactly those, so the round trip is exact.
import { stringify } from 'csv-stringify/sync';
import type { Kysely, Transaction } from 'kysely';
import type { TransactionalDatabase } from '../../db/database.js';
import type { Database, TimeEntryRow } from '../../db/types.js';
import { localDateTimeOf, toIso } from '../calendar/dates.js';
import type { Clock } from '../../common/clock.js';
import { entriesOverlapping, entryBatchesOverlapping, insertDailyTotals, refreshDays, runningEntry, type InstantRange } from './store.js';
import { importDaysIn, importDaysOf, type ImportDays } from './import-days.js';
import type { SettingsService } from '../settings/settings.js';
import type { ExportGate, ExportOwner, ExportStream } from '../exports.js';
import { assertRoomForEntries, MAX_ENTRIES_PER_USER, publicEntry, type RangeQuery, type TimeEntry } from './rules.js';
import type { TimeEntryService } from './service.js';
import { assertRunsOpen, type MonthLock } from '../month-lock.js';
import {
  CSV_COLUMNS,
  escapeNote,
  EXPORT_BATCH_ROWS,
  EXPORT_PIECE_ROWS,
  MAX_IMPORT_BYTES,
  parseRows,
  tooManyRows,
  type CheckedImport,
  type ImportOptions,
  type ImportProblem,
  type ImportResult,
  type ParsedRow,
} from './csv-text.js';

/** Which of these days have stored totals already (a few hundred dates per query). */
async function daysWithTotals(executor: Kysely<Database>, userId: number, dates: string[]): Promise<Set<string>> {
  const found = new Set<string>();
  for (let index = 0; index < dates.length; index += 500) {
    const rows = await executor
      .selectFrom('daily_totals')
      .select('date')
      .where('user_id', '=', userId)
      .where('date', 'in', dates.slice(index, index + 500))
      .execute();
    for (const row of rows) found.add(row.date);
  }
  return found;
}

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
function findConflicts(
  ordered: ParsedRow[],
  existing: TimeEntryRow[],
  running: TimeEntryRow | undefined,
  skipSame: boolean,
  skipped: Set<ParsedRow>,
): Conflict[] {
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

/** Existing entries that rows in start order could overlap, and the running one. */
async function conflictsWithStored(
  executor: Kysely<Database>,
  userId: number,
  ordered: ParsedRow[],
  skipSame: boolean,
  skipped: Set<ParsedRow>,
): Promise<Conflict[]> {
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

export interface EntryCsvDeps {
  database: TransactionalDatabase;
  clock: Clock;
  settings: SettingsService;
  timeEntries: TimeEntryService;
  exports: ExportGate;
  monthLock: MonthLock;
}

/**
 * The user's entries overlapping the range as CSV text (header included), in pieces of
 * EXPORT_BATCH_ROWS rows read one batch at a time (keyset), a macrotask between two pieces, so no
 * export holds the whole file in memory, the database or the event loop for long. A bad range, and
 * a second export of the account while one runs (EXPORT_RUNNING), are refused before the first piece.
 */
async function exportCsv({ database: { db }, settings, timeEntries, exports }: EntryCsvDeps, owner: ExportOwner, query: RangeQuery): Promise<ExportStream> {
  const { userId } = owner;
  const { zones: timezone } = await settings.getSettings(userId);
  const range = await timeEntries.resolveRange(userId, query);
  const local = (iso: string | null) => (iso === null ? '' : localDateTimeOf(Date.parse(iso), timezone));
  const csvOf = (rows: TimeEntryRow[], header: boolean) =>
    stringify(
      rows
        .map(publicEntry)
        .map((entry: TimeEntry) => [entry.id, entry.start_at, entry.end_at ?? '', local(entry.start_at), local(entry.end_at), escapeNote(entry.note)]),
      { header, columns: [...CSV_COLUMNS] },
    );
  return exports.open(owner, async function* () {
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

/**
 * The rows of an import checked against the user's stored entries (none for an account still to
 * be made), by reads alone: what would be written, or the problems (line by line).
 */
async function checkImport(
  db: Kysely<Database>,
  userId: number | undefined,
  rows: ParsedRow[],
  options: Pick<ImportOptions, 'skipExisting'>,
): Promise<CheckedImport> {
  if (rows.length > MAX_ENTRIES_PER_USER) return { rows: [], entries: [], skipped: 0, problems: [tooManyRows(rows.length)] };
  const skipSame = Boolean(options.skipExisting);
  const skipped = new Set<ParsedRow>();
  const ordered = [...rows].sort((a, b) => a.span.startMs - b.span.startMs);
  const conflicts =
    userId === undefined ? findConflicts(ordered, [], undefined, false, skipped) : await conflictsWithStored(db, userId, ordered, skipSame, skipped);
  if (conflicts.length > 0) return { rows: [], entries: [], skipped: 0, problems: conflicts.sort((a, b) => a.line - b.line) };
  const toWrite = ordered.filter((row) => !skipped.has(row));
  const entries = toWrite.map(({ line, span }) => ({
    line,
    start_at: toIso(span.startMs),
    end_at: span.endMs === null ? null : toIso(span.endMs),
    note: span.note,
  }));
  return { rows: toWrite, entries, skipped: skipped.size, problems: [] };
}

export function createEntryCsvService(deps: EntryCsvDeps) {
  const { database, clock, settings } = deps;
  const { db } = database;

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
   * Writes checked rows inside the caller's transaction (which has locked the user): checks them
   * again against what is stored now, the room left under the entry limit, inserts them a thousand
   * per statement and adds their time to the per-day totals in the zone stored now. Answers the
   * problems found (then the caller rolls back).
   */
  async function writeImportIn(
    trx: Transaction<Database>,
    userId: number,
    checked: CheckedImport,
    options: Pick<ImportOptions, 'skipExisting' | 'onProgress'> & { days?: ImportDays },
  ): Promise<ImportProblem[]> {
    const progress = options.onProgress ?? (() => {});
    // Rows skipped in the first check stay skipped; anything written since then is checked again.
    const found = await conflictsWithStored(trx, userId, checked.rows, Boolean(options.skipExisting), new Set());
    if (found.length > 0) return found.sort((a, b) => a.line - b.line);
    await assertRoomForEntries(trx, userId, checked.rows.length);
    const now = clock.now().toISOString();
    const values = checked.entries.map((entry) => ({
      user_id: userId,
      start_at: entry.start_at,
      end_at: entry.end_at,
      note: entry.note,
      created_at: now,
      updated_at: now,
    }));
    for (let index = 0; index < values.length; index += ROWS_PER_INSERT) {
      await trx
        .insertInto('time_entries')
        .values(values.slice(index, index + ROWS_PER_INSERT))
        .execute();
      progress('written', Math.min(index + ROWS_PER_INSERT, values.length), values.length);
    }
    const stored = await settings.getSettingsInTransaction(trx, userId);
    const { totals: days, months } = importDaysIn(options.days, checked.rows, stored);
    await assertRunsOpen(deps.monthLock, trx, userId, months);
    const minBreakMs = stored.min_break_minutes * 60_000;
    // Days that already had entries are worked out again from all their entries (the breaks between
    // old and new entries); the others take the totals of the new entries alone.
    const shared = await daysWithTotals(trx, userId, [...days.keys()]);
    await insertDailyTotals(trx, userId, new Map([...days].filter(([date]) => !shared.has(date))));
    await refreshDays(trx, userId, stored.zones, minBreakMs, [...shared]);
    return [];
  }

  async function importRows(userId: number, rows: ParsedRow[], options: ImportOptions): Promise<ImportResult> {
    const checked = await checkImport(db, userId, rows, options);
    options.onProgress?.('checked', rows.length, rows.length);
    if (checked.problems.length > 0) return { entries: [], applied: false, problems: checked.problems, writeLockMs: 0, skipped: 0 };
    if (!options.apply) return { entries: checked.entries, applied: false, problems: [], writeLockMs: 0, skipped: checked.skipped };
    // The days worked out before the lock; inside it, used only if the settings are still the same.
    const days = importDaysOf(checked.rows, await settings.getSettings(userId));
    const lockedAt = performance.now();
    const lateConflicts = await database.transact(async (trx) => {
      await database.lockUser(trx, userId);
      return writeImportIn(trx, userId, checked, { ...options, days });
    });
    const writeLockMs = performance.now() - lockedAt;
    if (lateConflicts.length > 0) return { entries: [], applied: false, problems: lateConflicts, writeLockMs, skipped: 0 };
    return { entries: checked.entries, applied: true, problems: [], writeLockMs, skipped: checked.skipped };
  }

  return {
    /** The CSV of the owner's entries; `client` the key its export place counts under (src/time/exports.ts). */
    exportCsv: (owner: ExportOwner, query: RangeQuery) => exportCsv(deps, owner, query),
    importCsv,
    checkImport: (userId: number | undefined, rows: ParsedRow[], options: Pick<ImportOptions, 'skipExisting'>) => checkImport(db, userId, rows, options),
    writeImportIn,
  };
}

export type EntryCsvService = ReturnType<typeof createEntryCsvService>;
