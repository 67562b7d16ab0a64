// The rules of a time entry (docs/time-model.md): its note, its span, the single running entry, no
// overlap, the quota; and the write of a checked entry with its day totals. The callers run them
// inside one transaction that has taken the account's turn first (database.lockUser), so two writes
// of one account, even from two processes, cannot both pass the overlap or the single-running check.
import type { Transaction } from 'kysely';
import type { Database, TimeEntryRow } from '../../db/types.js';
import { parseInstant, toIso } from '../calendar/dates.js';
import { entriesOverlapping, refreshDailyTotals, runningEntry, type InstantRange } from './store.js';
import { ServiceError, validationError } from '../../common/errors.js';
import type { Settings } from '../settings/settings.js';

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
export type DayRules = Pick<Settings, 'zones' | 'min_break_minutes'>;

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
  /** The entry's `updated_at` as the writer last saw it: a change made since is 409 ENTRY_CHANGED. */
  expected_updated_at?: string;
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

/** ENTRY_CHANGED: the entry was changed since the writer read it; `entry` is what it holds now (docs/api.md). */
export class EntryChangedError extends ServiceError {
  constructor(readonly entry: TimeEntry) {
    super('ENTRY_CHANGED', `Entry ${entry.id} was changed at ${entry.updated_at}, after the writer read it; read it again and resend`);
  }
}

/**
 * Optimistic concurrency (docs/api.md, "Changed meanwhile"): a write that names the `updated_at` it
 * read is refused when the stored entry has changed since. Inside the write's transaction, after the
 * account's turn, so no change can come between the check and the write.
 */
export function assertUnchanged(row: TimeEntryRow, expectedUpdatedAt: string | undefined): void {
  if (expectedUpdatedAt === undefined) return;
  if (parseInstant(expectedUpdatedAt, 'expected_updated_at') !== Date.parse(row.updated_at)) throw new EntryChangedError(publicEntry(row));
}

/** The `updated_at` of a change: now, and always after the one before (two changes within one millisecond still differ). */
export function nextUpdatedAt(row: TimeEntryRow, nowMs: number): string {
  return toIso(Math.max(nowMs, Date.parse(row.updated_at) + 1));
}

/**
 * The time a running entry occupies for the overlap rule: from its start through now (at least a
 * millisecond), not the rest of the day: an entry planned for later today or a later day (a meeting
 * entered in advance) does not block a start, and the stop ends the timer at that entry's start at
 * the latest (`plannedStartAfter`), so the stopped entry never overlaps it (docs/time-model.md).
 */
export function runningUntil(startMs: number, nowMs: number): number {
  return Math.max(nowMs, startMs + 1);
}

/**
 * The entry rules, inside the caller's transaction: at most one running entry, no overlap with the
 * user's other entries (`excludeId`: the entry being changed; a running entry up to `runningUntil`).
 */
export async function assertSpanIsFree(
  trx: Transaction<Database>,
  userId: number,
  span: EntrySpan,
  excludeId: number | undefined,
  nowMs: number,
): Promise<void> {
  if (span.endMs === null) {
    const running = await runningEntry(trx, userId);
    if (running && running.id !== excludeId) {
      throw new EntryConflictError('ALREADY_RUNNING', `Entry ${running.id} is already running; stop it first`, running.id, {
        id: running.id,
        start_at: running.start_at,
        end_at: null,
      });
    }
  }
  const range: InstantRange = { from: toIso(span.startMs), to: toIso(span.endMs ?? runningUntil(span.startMs, nowMs)) };
  const [clash] = await entriesOverlapping(trx, userId, range, { excludeId, limit: 1 });
  if (clash) {
    throw new EntryConflictError('OVERLAP', `The entry would overlap entry ${clash.id} (${clash.start_at} – ${clash.end_at ?? 'running'})`, clash.id, {
      id: clash.id,
      start_at: clash.start_at,
      end_at: clash.end_at,
    });
  }
}

/** TOO_MANY_ENTRIES unless the user has room for `adding` more entries, inside the caller's transaction. */
export async function assertRoomForEntries(trx: Transaction<Database>, userId: number, adding: number): Promise<void> {
  const { count } = await trx
    .selectFrom('time_entries')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  if (Number(count) + adding > MAX_ENTRIES_PER_USER) {
    throw new ServiceError('TOO_MANY_ENTRIES', `A user keeps at most ${MAX_ENTRIES_PER_USER} time entries; delete old ones (export them first) to add more`);
  }
}

/** Inserts a checked span and updates the day totals, inside the caller's transaction. */
export async function insertEntry(trx: Transaction<Database>, userId: number, days: DayRules, span: EntrySpan, now: string): Promise<TimeEntryRow> {
  const row = await trx
    .insertInto('time_entries')
    .values({
      user_id: userId,
      start_at: toIso(span.startMs),
      end_at: span.endMs === null ? null : toIso(span.endMs),
      note: span.note,
      created_at: now,
      updated_at: now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
  if (span.endMs !== null) await refreshDailyTotals(trx, userId, days.zones, days.min_break_minutes * 60_000, [[span.startMs, span.endMs]]);
  return row;
}

/** The start of the user's first entry after `afterMs` (an entry planned for later), if any: a running timer ends there at the latest. */
export async function plannedStartAfter(trx: Transaction<Database>, userId: number, afterMs: number): Promise<number | undefined> {
  const next = await trx
    .selectFrom('time_entries')
    .select('start_at')
    .where('user_id', '=', userId)
    .where('start_at', '>', toIso(afterMs))
    .orderBy('start_at')
    .limit(1)
    .executeTakeFirst();
  return next ? Date.parse(next.start_at) : undefined;
}
