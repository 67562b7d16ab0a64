// Queries on time entries and the per-day totals kept beside them, shared by the entry rules, the
// settings (a new time zone replaces all the totals), the export and the statistics.
//
// Range queries rely on one invariant the entry rules keep: a user's entries never overlap. So, in
// start order, the entries that overlap [from, to) are the last one that started at or before `from`
// and those that start inside the range — two seeks on the (user_id, start_at) index, however many
// years of entries lie before or after.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { Database, LocalDate, TimeEntryRow } from '../../db/types.js';
import { addDays, splitByLocalDay, startOfDay, type DayZones } from '../calendar/dates.js';
import { sameZones } from '../calendar/zones.js';
import { createHash } from 'node:crypto';
import { setImmediate as nextMacrotask } from 'node:timers/promises';

/**
 * Every column of an entry, named: the reads below become named statements on PostgreSQL, which
 * prepares no `select *` (src/db/postgres.ts, docs/decisions/0005-postgres-named-statements.md).
 */
export const ENTRY_COLUMNS = ['id', 'user_id', 'start_at', 'end_at', 'note', 'created_at', 'updated_at', 'auto_stopped'] as const;
import { MAX_BREAK_MINUTES } from '../day-rules.js';

const MAX_BREAK_MS = MAX_BREAK_MINUTES * 60_000;

export interface InstantRange {
  /** ISO instants; undefined means unbounded. */
  from?: string;
  to?: string;
}

export async function entriesOverlapping(
  executor: Kysely<Database>,
  userId: number,
  range: InstantRange,
  options: { excludeId?: number; limit?: number; after?: Pick<TimeEntryRow, 'start_at' | 'id'> } = {},
): Promise<TimeEntryRow[]> {
  let query = executor.selectFrom('time_entries').select(ENTRY_COLUMNS).where('user_id', '=', userId);
  const { from, to } = range;
  if (from !== undefined) {
    const lastStartedBefore = sql<string>`coalesce((select max(start_at) from time_entries where user_id = ${userId} and start_at <= ${from}), ${from})`;
    query = query.where('start_at', '>=', lastStartedBefore).where((eb) => eb.or([eb('end_at', 'is', null), eb('end_at', '>', from)]));
  }
  if (to !== undefined) query = query.where('start_at', '<', to);
  if (options.excludeId !== undefined) query = query.where('id', '!=', options.excludeId);
  // Keyset paging: the rows after `after` in (start_at, id) order, one seek on the index.
  const { after } = options;
  if (after !== undefined) {
    // A row value: both engines seek the (user_id, start_at) index to it (an OR of the two cases read the index from the start).
    query = query.where((eb) => eb(eb.refTuple('start_at', 'id'), '>', eb.tuple(after.start_at, after.id)));
  }
  query = query.orderBy('start_at').orderBy('id');
  if (options.limit !== undefined) query = query.limit(options.limit);
  return query.execute();
}

/**
 * The entries overlapping the range, in start order, read `batchSize` at a time: each batch is its own
 * short read, so other requests go on between them and no more than one batch is held in memory. The
 * batches are not one snapshot: an entry written or moved while they are read may be missed or seen twice.
 */
export async function* entryBatchesOverlapping(
  executor: Kysely<Database>,
  userId: number,
  range: InstantRange,
  batchSize: number,
): AsyncGenerator<TimeEntryRow[]> {
  let after: TimeEntryRow | undefined;
  for (;;) {
    const batch = await entriesOverlapping(executor, userId, range, { limit: batchSize, ...(after ? { after } : {}) });
    if (batch.length > 0) yield batch;
    if (batch.length < batchSize) return;
    after = batch[batch.length - 1];
  }
}

export async function runningEntry(executor: Kysely<Database>, userId: number): Promise<TimeEntryRow | undefined> {
  return executor.selectFrom('time_entries').select(ENTRY_COLUMNS).where('user_id', '=', userId).where('end_at', 'is', null).executeTakeFirst();
}

/** A local day's worked time and the breaks taken in it, of finished entries (docs/time-model.md, Break rules). */
export interface DayTotal {
  workedMs: number;
  /** The gaps of at least min_break_minutes, and at most MAX_BREAK_MINUTES (a longer one splits the shift), between the day's pieces of entries. */
  breakMs: number;
}

/**
 * Adds finished spans, in start order, into per-day worked and break milliseconds: each span is split
 * at the local day starts, and a gap between two pieces of one day counts as a break when it lasts at
 * least `minBreakMs` and at most MAX_BREAK_MINUTES. The state carries across calls, so spans may come a batch at a time.
 */
export class DayTotalsBuilder {
  readonly totals = new Map<LocalDate, DayTotal>();
  private readonly lastEnd = new Map<LocalDate, number>();
  constructor(
    readonly zone: DayZones,
    readonly minBreakMs: number,
  ) {}

  add(startMs: number, endMs: number): void {
    let cursor = startMs;
    for (const piece of splitByLocalDay(startMs, endMs, this.zone)) {
      const day = this.totals.get(piece.date) ?? { workedMs: 0, breakMs: 0 };
      const previous = this.lastEnd.get(piece.date);
      if (previous !== undefined && cursor - previous >= this.minBreakMs && cursor - previous <= MAX_BREAK_MS && cursor > previous)
        day.breakMs += cursor - previous;
      day.workedMs += piece.ms;
      this.totals.set(piece.date, day);
      cursor += piece.ms;
      this.lastEnd.set(piece.date, cursor);
    }
  }
}

async function writeTotals(executor: Transaction<Database>, userId: number, totals: Map<LocalDate, DayTotal>): Promise<void> {
  for (const [date, { workedMs, breakMs }] of totals) {
    if (workedMs === 0) {
      await executor.deleteFrom('daily_totals').where('user_id', '=', userId).where('date', '=', date).execute();
    } else {
      await executor
        .insertInto('daily_totals')
        .values({ user_id: userId, date, worked_ms: workedMs, break_ms: breakMs })
        .onConflict((conflict) => conflict.columns(['user_id', 'date']).doUpdateSet({ worked_ms: workedMs, break_ms: breakMs }))
        .execute();
    }
  }
}

/**
 * Recomputes, from the entries themselves, the totals (worked time and breaks) of every local day
 * that [startMs, endMs) touches. Called in the transaction of each entry write with the old and the
 * new span of the entry, so the totals cannot drift from the entries. Running entries are not in the
 * totals (they have no end yet); statistics add them live.
 */
export async function refreshDailyTotals(
  executor: Transaction<Database>,
  userId: number,
  zone: DayZones,
  minBreakMs: number,
  spans: Array<[number, number]>,
): Promise<void> {
  const dates = new Set<LocalDate>();
  for (const [startMs, endMs] of spans) {
    for (const piece of splitByLocalDay(startMs, endMs, zone)) dates.add(piece.date);
  }
  await refreshDays(executor, userId, zone, minBreakMs, [...dates]);
}

/** Recomputes the totals of these local days from the entries that overlap them (one range read). */
export async function refreshDays(executor: Transaction<Database>, userId: number, zone: DayZones, minBreakMs: number, days: LocalDate[]): Promise<void> {
  if (days.length === 0) return;
  const dates = [...days].sort();
  const from = new Date(startOfDay(dates[0] as LocalDate, zone)).toISOString();
  const to = new Date(startOfDay(addDays(dates[dates.length - 1] as LocalDate, 1), zone)).toISOString();
  const builder = new DayTotalsBuilder(zone, minBreakMs);
  for (const entry of await entriesOverlapping(executor, userId, { from, to })) {
    if (entry.end_at !== null) builder.add(Date.parse(entry.start_at), Date.parse(entry.end_at));
  }
  await writeTotals(executor, userId, new Map(dates.map((date) => [date, builder.totals.get(date) ?? { workedMs: 0, breakMs: 0 }])));
}

/** Entries read per batch while new totals are worked out before a change of time zone. */
const REBUILD_BATCH_ROWS = 1000;

/**
 * New per-day totals of a user for another zone history (or break minimum), from the day `from` on
 * (undefined: every day), and the entries they were worked out from.
 */
export interface PreparedTotals {
  zone: DayZones;
  minBreakMs: number;
  from: LocalDate | undefined;
  /** How many entries were read and a digest of them (not the keys themselves): what the totals stand for. */
  entries: { count: number; digest: string };
  totals: Map<LocalDate, DayTotal>;
}

/** A running digest of entries, "id start end" each, in (start_at, id) order. */
class EntryDigest {
  readonly #hash = createHash('sha256');
  #count = 0;
  add(entry: Pick<TimeEntryRow, 'id' | 'start_at' | 'end_at'>): void {
    this.#hash.update(`${entry.id} ${entry.start_at} ${entry.end_at}\n`);
    this.#count += 1;
  }
  result(): { count: number; digest: string } {
    return { count: this.#count, digest: this.#hash.digest('base64') };
  }
}

/** The entries a rebuild from `from` reads: those overlapping that day's start and later (all without `from`). */
const rebuildRange = (zone: DayZones, from: LocalDate | undefined): InstantRange =>
  from === undefined ? {} : { from: new Date(startOfDay(from, zone)).toISOString() };

/** The totals of the days from `from` on (all without `from`). */
function daysFrom(totals: Map<LocalDate, DayTotal>, from: LocalDate | undefined): Map<LocalDate, DayTotal> {
  return from === undefined ? totals : new Map([...totals].filter(([date]) => date >= from));
}

/**
 * Works out the per-day totals of a user in `zone` from the day `from` on (every day without it),
 * outside any transaction: entries read a batch at a time, the event loop free between batches, so the
 * server keeps answering during the slow part (splitting each entry at the new day boundaries).
 */
export async function prepareDailyTotals(
  executor: Kysely<Database>,
  userId: number,
  zone: DayZones,
  minBreakMs: number,
  from?: LocalDate,
): Promise<PreparedTotals> {
  const builder = new DayTotalsBuilder(zone, minBreakMs);
  const seen = new EntryDigest();
  for await (const batch of entryBatchesOverlapping(executor, userId, rebuildRange(zone, from), REBUILD_BATCH_ROWS)) {
    for (const entry of batch) {
      seen.add(entry);
      if (entry.end_at !== null) builder.add(Date.parse(entry.start_at), Date.parse(entry.end_at));
    }
    await nextMacrotask();
  }
  return { zone, minBreakMs, from, entries: seen.result(), totals: daysFrom(builder.totals, from) };
}

/** Whether prepared totals stand for this zone history, break minimum and first day. */
export function preparedFor(prepared: PreparedTotals | undefined, zone: DayZones, minBreakMs: number, from: LocalDate | undefined): prepared is PreparedTotals {
  if (prepared === undefined || prepared.minBreakMs !== minBreakMs || prepared.from !== from) return false;
  if (typeof zone === 'string' || typeof prepared.zone === 'string') return zone === prepared.zone;
  return sameZones(zone, prepared.zone);
}

/**
 * Replaces the totals of a user from the day `prepared.from` on (every total without it) by totals in
 * the new zone history, inside the transaction that stores it, so a reader sees all old or all new day
 * boundaries, never a mix. The prepared totals are used only if the entries are still exactly those
 * they were worked out from (one indexed read and a comparison, no time-zone arithmetic); an entry
 * written in between makes this recompute them here.
 */
export async function replaceDailyTotals(trx: Transaction<Database>, userId: number, prepared: PreparedTotals): Promise<void> {
  const { zone, from } = prepared;
  const range = rebuildRange(zone, from);
  // First pass: only the digest (no time-zone arithmetic), a batch at a time.
  const seen = new EntryDigest();
  for await (const batch of entryBatchesOverlapping(trx, userId, range, REBUILD_BATCH_ROWS)) for (const entry of batch) seen.add(entry);
  const now = seen.result();
  const unchanged = now.count === prepared.entries.count && now.digest === prepared.entries.digest;
  let totals = prepared.totals;
  if (!unchanged) {
    // An entry was written in between: work the totals out again, still a batch at a time.
    const builder = new DayTotalsBuilder(zone, prepared.minBreakMs);
    for await (const batch of entryBatchesOverlapping(trx, userId, range, REBUILD_BATCH_ROWS)) {
      for (const entry of batch) if (entry.end_at !== null) builder.add(Date.parse(entry.start_at), Date.parse(entry.end_at));
      await nextMacrotask();
    }
    totals = daysFrom(builder.totals, from);
  }
  await trx
    .deleteFrom('daily_totals')
    .where('user_id', '=', userId)
    .$if(from !== undefined, (query) => query.where('date', '>=', from as LocalDate))
    .execute();
  await insertDailyTotals(trx, userId, totals);
}

/** Worked and break ms per local day of finished spans, in memory (no database). */
export function totalsOfSpans(spans: Array<[number, number]>, zone: DayZones, minBreakMs: number): Map<LocalDate, DayTotal> {
  const builder = new DayTotalsBuilder(zone, minBreakMs);
  for (const [startMs, endMs] of [...spans].sort((a, b) => a[0] - b[0])) builder.add(startMs, endMs);
  return builder.totals;
}

/** Rows per multi-row statement: well under SQLite's limit of bound parameters. */
const ROWS_PER_STATEMENT = 500;

/**
 * Writes per-day totals of days that have none yet, a few hundred days per statement (a rebuild, or
 * the days a bulk import alone touches).
 */
export async function insertDailyTotals(executor: Transaction<Database>, userId: number, totals: Map<LocalDate, DayTotal>): Promise<void> {
  const rows = [...totals]
    .filter(([, day]) => day.workedMs > 0)
    .map(([date, day]) => ({ user_id: userId, date, worked_ms: day.workedMs, break_ms: day.breakMs }));
  for (let index = 0; index < rows.length; index += ROWS_PER_STATEMENT) {
    await executor
      .insertInto('daily_totals')
      .values(rows.slice(index, index + ROWS_PER_STATEMENT))
      .onConflict((conflict) => conflict.columns(['user_id', 'date']).doUpdateSet({ worked_ms: sql`excluded.worked_ms`, break_ms: sql`excluded.break_ms` }))
      .execute();
  }
}
