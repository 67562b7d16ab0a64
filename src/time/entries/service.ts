// Time entries and the running timer (docs/time-model.md). Every write is one transaction
// (database.transact) that first takes the account's turn (database.lockUser: the writes of one
// account are serialized, docs/database.md), then checks and writes (./rules.ts), so two parallel
// requests, even from two processes, cannot both pass the overlap or the single-running check. A
// running entry occupies [start, ∞) until it is stopped.
import { setImmediate as nextMacrotask } from 'node:timers/promises';
import type { Kysely, Transaction } from 'kysely';
import { violatedRule, type TransactionalDatabase } from '../../db/database.js';
import type { Database, TimeEntryRow } from '../../db/types.js';
import { parseInstant, parseInstantOrDate, toIso } from '../calendar/dates.js';
import type { Clock } from '../../common/clock.js';
import { entriesOverlapping, refreshDailyTotals, runningEntry, type InstantRange } from './store.js';
import { ServiceError, validationError } from '../../common/errors.js';
import { DEFAULT_TIMER_LIMIT_MINUTES, type SettingsService } from '../settings/settings.js';
import { assertSpansOpen, type MonthLock } from '../month-lock.js';
import {
  assertRoomForEntries,
  assertUnchanged,
  nextUpdatedAt,
  assertSpanIsFree,
  plannedStartAfter,
  checkSpan,
  insertEntry,
  MAX_LISTED_ENTRIES,
  normalizeNote,
  publicEntry,
  type EntrySpan,
  type NewTimeEntry,
  type RangeQuery,
  type TimeEntry,
  type TimeEntryPatch,
} from './rules.js';

function notFound(): ServiceError {
  return new ServiceError('NOT_FOUND', 'No such time entry');
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

/** One write of an account's entries: the account's turn first (lockUser), then read and write. */
function writeEntries<T>(database: TransactionalDatabase, userId: number, fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  return rethrowConflicts(
    database.transact(async (trx) => {
      await database.lockUser(trx, userId);
      return fn(trx);
    }),
  );
}

export interface TimeEntryDeps {
  database: TransactionalDatabase;
  clock: Clock;
  settings: SettingsService;
  /** Refuses a change to a day of a closed month (src/time/month-lock.ts). */
  monthLock: MonthLock;
}

async function findOwnRow(executor: Kysely<Database>, userId: number, id: number): Promise<TimeEntryRow> {
  // Another user's entry is "not found", exactly like a missing one: ids reveal nothing.
  const row = await executor.selectFrom('time_entries').selectAll().where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
  if (!row) throw notFound();
  return row;
}

async function updateEntry({ database, clock, settings, monthLock }: TimeEntryDeps, userId: number, id: number, patch: TimeEntryPatch): Promise<TimeEntry> {
  const now = clock.now();
  return writeEntries(database, userId, async (trx) => {
    const row = await findOwnRow(trx, userId, id);
    assertUnchanged(row, patch.expected_updated_at);
    const { zones: timezone, min_break_minutes } = await settings.getSettingsInTransaction(trx, userId);
    const oldSpan: EntrySpan = { startMs: Date.parse(row.start_at), endMs: row.end_at === null ? null : Date.parse(row.end_at), note: row.note };
    const span: EntrySpan = {
      startMs: patch.start_at !== undefined ? parseInstant(patch.start_at, 'start_at') : oldSpan.startMs,
      endMs: patch.end_at === undefined ? oldSpan.endMs : patch.end_at === null ? null : parseInstant(patch.end_at, 'end_at'),
      note: patch.note !== undefined ? normalizeNote(patch.note) : row.note,
    };
    checkSpan(span, now.getTime());
    const spanOf = (s: EntrySpan) => [s.startMs, s.endMs ?? Math.max(now.getTime(), s.startMs + 1)] as const;
    await assertSpansOpen(monthLock, trx, userId, timezone, [spanOf(oldSpan), spanOf(span)]);
    await assertSpanIsFree(trx, userId, span, id, now.getTime());
    const updated = await trx
      .updateTable('time_entries')
      .set({
        start_at: toIso(span.startMs),
        end_at: span.endMs === null ? null : toIso(span.endMs),
        note: span.note,
        updated_at: nextUpdatedAt(row, now.getTime()),
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

/** Stops the running entry now (409 NOT_RUNNING if none runs). */
async function stopTimer({ database, clock, settings, monthLock }: TimeEntryDeps, userId: number): Promise<TimeEntry> {
  const now = clock.now();
  return writeEntries(database, userId, async (trx) => {
    const running = await runningEntry(trx, userId);
    if (!running) throw new ServiceError('NOT_RUNNING', 'No time entry is running');
    const startMs = Date.parse(running.start_at);
    // A timer stopped within the millisecond it started still ends after its start; one that ran into
    // an entry planned for later ends where that entry starts.
    const planned = await plannedStartAfter(trx, userId, startMs);
    const endMs = Math.min(Math.max(now.getTime(), startMs + 1), planned ?? Infinity);
    checkSpan({ startMs, endMs, note: running.note }, now.getTime());
    const { zones: timezone, min_break_minutes } = await settings.getSettingsInTransaction(trx, userId);
    await assertSpansOpen(monthLock, trx, userId, timezone, [[startMs, endMs]]);
    const stopped = await trx
      .updateTable('time_entries')
      .set({ end_at: toIso(endMs), updated_at: nextUpdatedAt(running, now.getTime()) })
      .where('id', '=', running.id)
      .returningAll()
      .executeTakeFirstOrThrow();
    await refreshDailyTotals(trx, userId, timezone, min_break_minutes * 60_000, [[startMs, endMs]]);
    return publicEntry(stopped);
  });
}

/**
 * Housekeeping: stops every running entry whose user has a timer limit that the entry has reached, at
 * its start plus the limit, and marks it auto_stopped. The running entries are read `batch` at a time
 * by keyset on (start_at, id), all of them: timers with a long limit that are not due yet never hide
 * a due one behind them. Each stop is one account's own transaction (the entry checked again inside
 * it). Answers how many were stopped.
 */
async function stopForgottenTimers(deps: TimeEntryDeps, batch = 500): Promise<number> {
  const nowMs = deps.clock.now().getTime();
  let stopped = 0;
  let after: { start_at: string; id: number } | undefined;
  for (;;) {
    const candidates = await runningWithLimits(deps.database.db, batch, after);
    for (const candidate of candidates) {
      if (Date.parse(candidate.start_at) + Number(candidate.limit) * 60_000 > nowMs) continue;
      if (await stopOneForgotten(deps, candidate, nowMs)) stopped += 1;
    }
    if (candidates.length < batch) return stopped;
    after = candidates[candidates.length - 1];
    await nextMacrotask();
  }
}

/** A batch of running entries with a limit, in (start_at, id) order after `after`. */
function runningWithLimits(db: Kysely<Database>, batch: number, after: { start_at: string; id: number } | undefined) {
  return (
    db
      .selectFrom('time_entries')
      // An account without a settings row has the default limit (settings.ts).
      .leftJoin('user_settings', 'user_settings.user_id', 'time_entries.user_id')
      .select((eb) => [
        'time_entries.id as id',
        'time_entries.user_id as user_id',
        'time_entries.start_at as start_at',
        eb.fn.coalesce('user_settings.timer_limit_minutes', eb.val(DEFAULT_TIMER_LIMIT_MINUTES)).as('limit'),
      ])
      .where('time_entries.end_at', 'is', null)
      .where((eb) => eb.or([eb('user_settings.user_id', 'is', null), eb('user_settings.timer_limit_minutes', 'is not', null)]))
      .$if(after !== undefined, (query) =>
        query.where((eb) => {
          const { start_at, id } = after as { start_at: string; id: number };
          return eb.or([eb('time_entries.start_at', '>', start_at), eb.and([eb('time_entries.start_at', '=', start_at), eb('time_entries.id', '>', id)])]);
        }),
      )
      .orderBy('time_entries.start_at')
      .orderBy('time_entries.id')
      .limit(batch)
      .execute()
  );
}

/** Stops one due timer in its account's own transaction, if it still runs and is still due. */
async function stopOneForgotten({ database, settings }: TimeEntryDeps, candidate: { id: number; user_id: number }, nowMs: number): Promise<boolean> {
  return writeEntries(database, candidate.user_id, async (trx) => {
    const running = await runningEntry(trx, candidate.user_id);
    const rules = await settings.getSettingsInTransaction(trx, candidate.user_id);
    if (!running || running.id !== candidate.id || rules.timer_limit_minutes === null) return false;
    const startMs = Date.parse(running.start_at);
    const limitMs = startMs + rules.timer_limit_minutes * 60_000;
    if (limitMs > nowMs) return false;
    const endMs = Math.min(limitMs, (await plannedStartAfter(trx, candidate.user_id, startMs)) ?? Infinity);
    await trx
      .updateTable('time_entries')
      .set({ end_at: toIso(endMs), auto_stopped: 1, updated_at: nextUpdatedAt(running, nowMs) })
      .where('id', '=', running.id)
      .execute();
    await refreshDailyTotals(trx, candidate.user_id, rules.zones, rules.min_break_minutes * 60_000, [[startMs, endMs]]);
    return true;
  });
}

export function createTimeEntryService(deps: TimeEntryDeps) {
  const { database, clock, settings, monthLock } = deps;
  const { db } = database;
  /** Parses from/to of a query into an instant range in the user's zone. */
  async function resolveRange(userId: number, query: RangeQuery): Promise<InstantRange> {
    const { zones: timezone } = await settings.getSettings(userId);
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
    return writeEntries(database, userId, async (trx) => {
      const rules = await settings.getSettingsInTransaction(trx, userId);
      await assertSpansOpen(monthLock, trx, userId, rules.zones, [[span.startMs, span.endMs ?? Math.max(now.getTime(), span.startMs + 1)]]);
      await assertSpanIsFree(trx, userId, span, undefined, now.getTime());
      await assertRoomForEntries(trx, userId, 1);
      return publicEntry(await insertEntry(trx, userId, rules, span, now.toISOString()));
    });
  }

  /** Deletes one entry; with `expectedUpdatedAt`, only if it is unchanged since (409 ENTRY_CHANGED). */
  async function deleteEntry(userId: number, id: number, expectedUpdatedAt?: string): Promise<void> {
    await writeEntries(database, userId, async (trx) => {
      const row = await findOwnRow(trx, userId, id);
      assertUnchanged(row, expectedUpdatedAt);
      const { zones: timezone, min_break_minutes } = await settings.getSettingsInTransaction(trx, userId);
      const endMs = row.end_at === null ? Math.max(clock.now().getTime(), Date.parse(row.start_at) + 1) : Date.parse(row.end_at);
      await assertSpansOpen(monthLock, trx, userId, timezone, [[Date.parse(row.start_at), endMs]]);
      await trx.deleteFrom('time_entries').where('id', '=', id).execute();
      if (row.end_at !== null)
        await refreshDailyTotals(trx, userId, timezone, min_break_minutes * 60_000, [[Date.parse(row.start_at), Date.parse(row.end_at)]]);
    });
  }

  /** Starts the timer now: 409 ALREADY_RUNNING if one runs, OVERLAP if an entry covers now (one planned later does not block). */
  async function startTimer(userId: number, note?: string): Promise<TimeEntry> {
    const span: EntrySpan = { startMs: clock.now().getTime(), endMs: null, note: normalizeNote(note) };
    return writeEntries(database, userId, async (trx) => {
      const rules = await settings.getSettingsInTransaction(trx, userId);
      await assertSpansOpen(monthLock, trx, userId, rules.zones, [[span.startMs, span.startMs + 1]]);
      await assertSpanIsFree(trx, userId, span, undefined, span.startMs);
      await assertRoomForEntries(trx, userId, 1);
      return publicEntry(await insertEntry(trx, userId, rules, span, toIso(span.startMs)));
    });
  }

  async function currentEntry(userId: number): Promise<TimeEntry | null> {
    const running = await runningEntry(db, userId);
    return running ? publicEntry(running) : null;
  }

  return {
    resolveRange,
    listEntries,
    getEntry,
    createEntry,
    updateEntry: (userId: number, id: number, patch: TimeEntryPatch) => updateEntry(deps, userId, id, patch),
    deleteEntry,
    startTimer,
    stopTimer: (userId: number) => stopTimer(deps, userId),
    currentEntry,
    stopForgottenTimers: (batch?: number) => stopForgottenTimers(deps, batch),
  };
}

export type TimeEntryService = ReturnType<typeof createTimeEntryService>;
