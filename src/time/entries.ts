// Time entries and the running timer (docs/time-model.md). Every write checks and writes in one
// transaction (BEGIN IMMEDIATE), so two parallel requests, even from two processes, cannot both pass
// the overlap or the single-running check. A running entry occupies [start, ∞) until it is stopped.
import type { Kysely, Transaction } from 'kysely';
import { violatedRule, type TransactionalDatabase } from '../db/database.js';
import type { Database, TimeEntryRow } from '../db/types.js';
import { parseInstant, parseInstantOrDate, toIso } from './calendar.js';
import type { Clock } from '../common/clock.js';
import { entriesOverlapping, refreshDailyTotals, runningEntry, type InstantRange } from './entries-store.js';
import { ServiceError, validationError } from '../common/errors.js';
import type { Settings, SettingsService } from './settings.js';

export const NOTE_MAX_LENGTH = 1000;
/**
 * The longest entry (and the longest a timer may run before it is stopped). Each write recomputes
 * the totals of every day an entry touches, inside the write lock: an entry over decades would hold
 * that lock for seconds.
 */
export const MAX_ENTRY_DAYS = 31;
const MAX_ENTRY_MS = MAX_ENTRY_DAYS * 86_400_000;
/**
 * The most entries a user may keep: twenty years of ten entries every working day. A change of time
 * zone rereads and compares all of them inside its write transaction, which must stay short.
 */
export const MAX_ENTRIES_PER_USER = 50_000;
/**
 * The most entries one list answers. A range that holds more is refused (never cut short silently):
 * the client asks again with a shorter from/to range. The export streams and has no such bound.
 */
export const MAX_LISTED_ENTRIES = 2000;

/** What the per-day totals of a write depend on: the user's zone and shortest break. */
export type DayRules = Pick<Settings, 'timezone' | 'min_break_minutes'>;

export interface TimeEntry {
  id: number;
  start_at: string;
  end_at: string | null;
  note: string;
  created_at: string;
  updated_at: string;
  /** The server stopped it at the timer limit (docs/time-model.md, Forgotten timer); false once its end is set again. */
  auto_stopped: boolean;
}

export interface NewTimeEntry {
  start_at: string;
  end_at?: string | null;
  note?: string;
}

export interface TimeEntryPatch {
  start_at?: string;
  /** null makes the entry run again. */
  end_at?: string | null;
  note?: string;
}

/** Query bounds as the client sends them: instants, or dates meaning midnight in the user's zone. */
export interface RangeQuery {
  from?: string;
  to?: string;
}

/** An entry ready to be written: instants in ms (end null while running). */
export interface EntrySpan {
  startMs: number;
  endMs: number | null;
  note: string;
}

export function publicEntry(row: TimeEntryRow): TimeEntry {
  return {
    id: row.id,
    start_at: row.start_at,
    end_at: row.end_at,
    note: row.note,
    created_at: row.created_at,
    updated_at: row.updated_at,
    auto_stopped: Number(row.auto_stopped) === 1,
  };
}

export function normalizeNote(note: string | undefined): string {
  const value = (note ?? '').trim();
  if (value.length > NOTE_MAX_LENGTH) throw validationError(`note must be at most ${NOTE_MAX_LENGTH} characters`, 'note');
  return value;
}

export function checkSpan(span: EntrySpan, nowMs: number): void {
  if (span.endMs !== null && span.endMs <= span.startMs) throw validationError('end_at must be after start_at', 'end_at');
  if (span.endMs === null && span.startMs > nowMs) throw validationError('a running entry (no end_at) cannot start in the future', 'start_at');
  if ((span.endMs ?? nowMs) - span.startMs > MAX_ENTRY_MS) {
    throw validationError(`an entry lasts at most ${MAX_ENTRY_DAYS} days; split it, or give a running entry its end_at with PATCH`, 'end_at');
  }
}

/** OVERLAP or ALREADY_RUNNING, naming the entry in the way (the CSV import reports its line). */
export class EntryConflictError extends ServiceError {
  constructor(
    code: 'OVERLAP' | 'ALREADY_RUNNING',
    message: string,
    readonly entryId: number,
    /** The entry in the way, as the API answers it (docs/api.md, Errors). */
    readonly entry: { id: number; start_at: string; end_at: string | null },
  ) {
    super(code, message);
  }
}

function notFound(): ServiceError {
  return new ServiceError('NOT_FOUND', 'No such time entry');
}

/**
 * The entry rules, inside the caller's transaction: at most one running entry, no overlap with the
 * user's other entries (`excludeId`: the entry being changed).
 */
export async function assertSpanIsFree(trx: Transaction<Database>, userId: number, span: EntrySpan, excludeId?: number): Promise<void> {
  if (span.endMs === null) {
    const running = await runningEntry(trx, userId);
    if (running && running.id !== excludeId) {
      throw new EntryConflictError('ALREADY_RUNNING', `Entry ${running.id} is already running; stop it first`, running.id, { id: running.id, start_at: running.start_at, end_at: null });
    }
  }
  const range: InstantRange = { from: toIso(span.startMs), ...(span.endMs !== null ? { to: toIso(span.endMs) } : {}) };
  const [clash] = await entriesOverlapping(trx, userId, range, { excludeId, limit: 1 });
  if (clash) {
    throw new EntryConflictError('OVERLAP', `The entry would overlap entry ${clash.id} (${clash.start_at} – ${clash.end_at ?? 'running'})`, clash.id, { id: clash.id, start_at: clash.start_at, end_at: clash.end_at });
  }
}

/** TOO_MANY_ENTRIES unless the user has room for `adding` more entries, inside the caller's transaction. */
export async function assertRoomForEntries(trx: Transaction<Database>, userId: number, adding: number): Promise<void> {
  const { count } = await trx.selectFrom('time_entries').select((eb) => eb.fn.countAll<number>().as('count')).where('user_id', '=', userId).executeTakeFirstOrThrow();
  if (Number(count) + adding > MAX_ENTRIES_PER_USER) {
    throw new ServiceError('TOO_MANY_ENTRIES', `A user keeps at most ${MAX_ENTRIES_PER_USER} time entries; delete old ones (export them first) to add more`);
  }
}

/** Inserts a checked span and updates the day totals, inside the caller's transaction. */
export async function insertEntry(trx: Transaction<Database>, userId: number, days: DayRules, span: EntrySpan, now: string): Promise<TimeEntryRow> {
  const row = await trx
    .insertInto('time_entries')
    .values({ user_id: userId, start_at: toIso(span.startMs), end_at: span.endMs === null ? null : toIso(span.endMs), note: span.note, created_at: now, updated_at: now })
    .returningAll()
    .executeTakeFirstOrThrow();
  if (span.endMs !== null) await refreshDailyTotals(trx, userId, days.timezone, days.min_break_minutes * 60_000, [[span.startMs, span.endMs]]);
  return row;
}

/**
 * The checks above answer the usual case with the entry in the way; a write that still meets the
 * database's own rule (the exclusion constraint or the one-running index: on PostgreSQL they hold
 * whatever any process does) answers the same codes.
 */
async function rethrowConflicts<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    const rule = violatedRule(error);
    if (rule === 'running_entry') throw new ServiceError('ALREADY_RUNNING', 'Another entry is already running; stop it first');
    if (rule === 'entry_overlap') throw new ServiceError('OVERLAP', 'The entry would overlap another entry');
    throw error;
  }
}

export function createTimeEntryService(database: TransactionalDatabase, clock: Clock, settings: SettingsService) {
  const { db } = database;
  /** One write of an account's entries: the account's turn first (lockUser), then read and write. */
  const writeEntries = <T>(userId: number, fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> =>
    rethrowConflicts(
      database.transact(async (trx) => {
        await database.lockUser(trx, userId);
        return fn(trx);
      }),
    );

  /** Parses from/to of a query into an instant range in the user's zone. */
  async function resolveRange(userId: number, query: RangeQuery): Promise<InstantRange> {
    const { timezone } = await settings.getSettings(userId);
    const range: InstantRange = {};
    if (query.from !== undefined) range.from = toIso(parseInstantOrDate(query.from, timezone, 'from'));
    if (query.to !== undefined) range.to = toIso(parseInstantOrDate(query.to, timezone, 'to'));
    if (range.from !== undefined && range.to !== undefined && range.to < range.from) throw validationError('to must not be before from', 'to');
    return range;
  }

  async function listEntries(userId: number, query: RangeQuery): Promise<TimeEntry[]> {
    // One row more than the cap tells that the range holds too many, without reading them all.
    const rows = await entriesOverlapping(db, userId, await resolveRange(userId, query), { limit: MAX_LISTED_ENTRIES + 1 });
    if (rows.length > MAX_LISTED_ENTRIES) {
      throw validationError(`The range holds more than ${MAX_LISTED_ENTRIES} entries; ask again with a shorter from/to range`);
    }
    return rows.map(publicEntry);
  }

  async function findOwnRow(executor: Kysely<Database>, userId: number, id: number): Promise<TimeEntryRow> {
    // Another user's entry is "not found", exactly like a missing one: ids reveal nothing.
    const row = await executor.selectFrom('time_entries').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    if (!row) throw notFound();
    return row;
  }

  async function getEntry(userId: number, id: number): Promise<TimeEntry> {
    return publicEntry(await findOwnRow(db, userId, id));
  }

  async function createEntry(userId: number, input: NewTimeEntry): Promise<TimeEntry> {
    const span: EntrySpan = {
      startMs: parseInstant(input.start_at, 'start_at'),
      endMs: input.end_at === undefined || input.end_at === null ? null : parseInstant(input.end_at, 'end_at'),
      note: normalizeNote(input.note),
    };
    const now = clock.now();
    checkSpan(span, now.getTime());
    return writeEntries(userId, async (trx) => {
      const rules = await settings.getSettingsInTransaction(trx, userId);
      await assertSpanIsFree(trx, userId, span);
      await assertRoomForEntries(trx, userId, 1);
      return publicEntry(await insertEntry(trx, userId, rules, span, now.toISOString()));
    });
  }

  async function updateEntry(userId: number, id: number, patch: TimeEntryPatch): Promise<TimeEntry> {
    const now = clock.now();
    return writeEntries(userId, async (trx) => {
      const row = await findOwnRow(trx, userId, id);
      const { timezone, min_break_minutes } = await settings.getSettingsInTransaction(trx, userId);
      const oldSpan: EntrySpan = { startMs: Date.parse(row.start_at), endMs: row.end_at === null ? null : Date.parse(row.end_at), note: row.note };
      const span: EntrySpan = {
        startMs: patch.start_at !== undefined ? parseInstant(patch.start_at, 'start_at') : oldSpan.startMs,
        endMs: patch.end_at === undefined ? oldSpan.endMs : patch.end_at === null ? null : parseInstant(patch.end_at, 'end_at'),
        note: patch.note !== undefined ? normalizeNote(patch.note) : row.note,
      };
      checkSpan(span, now.getTime());
      await assertSpanIsFree(trx, userId, span, id);
      const updated = await trx
        .updateTable('time_entries')
        .set({
          start_at: toIso(span.startMs),
          end_at: span.endMs === null ? null : toIso(span.endMs),
          note: span.note,
          updated_at: now.toISOString(),
          // A new start or end is the person's own: the mark of an automatic stop goes.
          ...(patch.start_at !== undefined || patch.end_at !== undefined ? { auto_stopped: 0 } : {}),
        })
        .where('id', '=', id)
        .returningAll()
        .executeTakeFirstOrThrow();
      const touched: Array<[number, number]> = [];
      if (oldSpan.endMs !== null) touched.push([oldSpan.startMs, oldSpan.endMs]);
      if (span.endMs !== null) touched.push([span.startMs, span.endMs]);
      await refreshDailyTotals(trx, userId, timezone, min_break_minutes * 60_000, touched);
      return publicEntry(updated);
    });
  }

  async function deleteEntry(userId: number, id: number): Promise<void> {
    await writeEntries(userId, async (trx) => {
      const row = await findOwnRow(trx, userId, id);
      const { timezone, min_break_minutes } = await settings.getSettingsInTransaction(trx, userId);
      await trx.deleteFrom('time_entries').where('id', '=', id).execute();
      if (row.end_at !== null) await refreshDailyTotals(trx, userId, timezone, min_break_minutes * 60_000, [[Date.parse(row.start_at), Date.parse(row.end_at)]]);
    });
  }

  /** Starts the timer now: 409 ALREADY_RUNNING if one runs, OVERLAP if a finished entry reaches past now. */
  async function startTimer(userId: number, note?: string): Promise<TimeEntry> {
    const span: EntrySpan = { startMs: clock.now().getTime(), endMs: null, note: normalizeNote(note) };
    return writeEntries(userId, async (trx) => {
      const rules = await settings.getSettingsInTransaction(trx, userId);
      await assertSpanIsFree(trx, userId, span);
      await assertRoomForEntries(trx, userId, 1);
      return publicEntry(await insertEntry(trx, userId, rules, span, toIso(span.startMs)));
    });
  }

  /** Stops the running entry now (409 NOT_RUNNING if none runs). */
  async function stopTimer(userId: number): Promise<TimeEntry> {
    const now = clock.now();
    return writeEntries(userId, async (trx) => {
      const running = await runningEntry(trx, userId);
      if (!running) throw new ServiceError('NOT_RUNNING', 'No time entry is running');
      const startMs = Date.parse(running.start_at);
      // A timer stopped within the millisecond it started still ends after its start.
      const endMs = Math.max(now.getTime(), startMs + 1);
      checkSpan({ startMs, endMs, note: running.note }, now.getTime());
      const { timezone, min_break_minutes } = await settings.getSettingsInTransaction(trx, userId);
      const stopped = await trx
        .updateTable('time_entries')
        .set({ end_at: toIso(endMs), updated_at: now.toISOString() })
        .where('id', '=', running.id)
        .returningAll()
        .executeTakeFirstOrThrow();
      await refreshDailyTotals(trx, userId, timezone, min_break_minutes * 60_000, [[startMs, endMs]]);
      return publicEntry(stopped);
    });
  }

  /**
   * Housekeeping: stops every running entry whose user has a timer limit that the entry has reached, at
   * its start plus the limit, and marks it auto_stopped. At most `batch` per call; each stop is one
   * account's own transaction (the entry checked again inside it). Answers how many were stopped.
   */
  async function stopForgottenTimers(batch = 500): Promise<number> {
    const nowMs = clock.now().getTime();
    const candidates = await db
      .selectFrom('time_entries')
      .innerJoin('user_settings', 'user_settings.user_id', 'time_entries.user_id')
      .select(['time_entries.id as id', 'time_entries.user_id as user_id', 'time_entries.start_at as start_at', 'user_settings.timer_limit_minutes as limit'])
      .where('time_entries.end_at', 'is', null)
      .where('user_settings.timer_limit_minutes', 'is not', null)
      .orderBy('time_entries.start_at')
      .limit(batch)
      .execute();
    let stopped = 0;
    for (const candidate of candidates) {
      if (Date.parse(candidate.start_at) + Number(candidate.limit) * 60_000 > nowMs) continue;
      const done = await writeEntries(candidate.user_id, async (trx) => {
        const running = await runningEntry(trx, candidate.user_id);
        const rules = await settings.getSettingsInTransaction(trx, candidate.user_id);
        if (!running || running.id !== candidate.id || rules.timer_limit_minutes === null) return false;
        const startMs = Date.parse(running.start_at);
        const endMs = startMs + rules.timer_limit_minutes * 60_000;
        if (endMs > nowMs) return false;
        await trx.updateTable('time_entries').set({ end_at: toIso(endMs), auto_stopped: 1, updated_at: toIso(nowMs) }).where('id', '=', running.id).execute();
        await refreshDailyTotals(trx, candidate.user_id, rules.timezone, rules.min_break_minutes * 60_000, [[startMs, endMs]]);
        return true;
      });
      if (done) stopped += 1;
    }
    return stopped;
  }

  async function currentEntry(userId: number): Promise<TimeEntry | null> {
    const running = await runningEntry(db, userId);
    return running ? publicEntry(running) : null;
  }

  return { resolveRange, listEntries, getEntry, createEntry, updateEntry, deleteEntry, startTimer, stopTimer, currentEntry, stopForgottenTimers };
}

export type TimeEntryService = ReturnType<typeof createTimeEntryService>;
