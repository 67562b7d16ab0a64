// The export of an account document (./account-document.ts), streamed (src/time/exports.ts): the
// account's fields, settings and schedules first, then entries, absences and bookings a batch at a
// time, one JSON value per line, never the whole account in memory.
import type { Kysely, Selectable } from 'kysely';
import type { TransactionalDatabase } from '../db/database.js';
import type { AbsenceRow, BookingsTable, Database } from '../db/types.js';
import type { Clock } from '../common/clock.js';
import { ServiceError } from '../common/errors.js';
import { entryBatchesOverlapping } from '../time/entries/store.js';
import type { ExportGate, ExportOwner, ExportStream } from '../time/exports.js';
import { storedSchedules } from '../time/schedules.js';
import type { SettingsService } from '../time/settings/settings.js';
import { json } from './check.js';
import { ACCOUNT_DOCUMENT_FORMAT, ACCOUNT_DOCUMENT_VERSION } from './schema.js';

/** Entries and absences per read of an export. */
export const DOCUMENT_BATCH_ROWS = 250;
/** Entries or absences per piece of text (one macrotask of work each). */
const DOCUMENT_PIECE_ROWS = 50;

export interface ExportDeps {
  database: Pick<TransactionalDatabase, 'db'>;
  clock: Clock;
  settings: Pick<SettingsService, 'getSettings'>;
  exportGate: ExportGate;
}

/** The members of a JSON array, one a line, DOCUMENT_PIECE_ROWS to a piece (one macrotask of work each). */
async function* arrayMembers<T>(batches: AsyncIterable<T[]>, shape: (row: T) => unknown): AsyncGenerator<string> {
  let separator = '\n';
  for await (const batch of batches) {
    for (let first = 0; first < batch.length; first += DOCUMENT_PIECE_ROWS) {
      let piece = '';
      for (const row of batch.slice(first, first + DOCUMENT_PIECE_ROWS)) {
        piece += `${separator}${json(shape(row))}`;
        separator = ',\n';
      }
      yield piece;
    }
  }
}

type DatedKey = { date: string; id: number };

/**
 * A user's absences or bookings, DOCUMENT_BATCH_ROWS at a time, each batch read by keyset after the
 * last row of the one before (by date, then id).
 */
function datedRows(db: Kysely<Database>, table: 'absences', userId: number): AsyncGenerator<AbsenceRow[]>;
function datedRows(db: Kysely<Database>, table: 'bookings', userId: number): AsyncGenerator<Selectable<BookingsTable>[]>;
async function* datedRows(db: Kysely<Database>, table: 'absences' | 'bookings', userId: number): AsyncGenerator<DatedKey[]> {
  let after: DatedKey | undefined;
  for (;;) {
    const key = after;
    // One query for both tables: the columns it names are the ones they share.
    const batch = await db
      .selectFrom(table as 'absences')
      .selectAll()
      .where('user_id', '=', userId)
      .$if(key !== undefined, (query) => query.where((eb) => eb(eb.refTuple('date', 'id'), '>', eb.tuple(key!.date, key!.id))))
      .orderBy('date')
      .orderBy('id')
      .limit(DOCUMENT_BATCH_ROWS)
      .execute();
    yield batch;
    if (batch.length < DOCUMENT_BATCH_ROWS) return;
    after = batch[batch.length - 1];
  }
}

/**
 * The account as a document, streamed: refused before the first byte while another export of the
 * account runs (EXPORT_RUNNING). Entries, absences and bookings are read DOCUMENT_BATCH_ROWS at a time by
 * keyset; the batches are not one snapshot (an entry written meanwhile may be in or out).
 */
export async function exportAccount({ database: { db }, clock, settings, exportGate }: ExportDeps, owner: ExportOwner): Promise<ExportStream> {
  const { userId } = owner;
  const user = await db.selectFrom('users').select(['email', 'full_name', 'username', 'created_at']).where('id', '=', userId).executeTakeFirst();
  if (!user) throw new ServiceError('USER_NOT_FOUND', 'no such account');
  const { zones, ...userSettings } = await settings.getSettings(userId);
  // At most MAX_SCHEDULES: part of the head.
  const schedules = (await storedSchedules(db, userId)).map(({ valid_from, weekly_target_minutes }) => ({ valid_from, weekly_target_minutes }));
  const head = {
    format: ACCOUNT_DOCUMENT_FORMAT,
    version: ACCOUNT_DOCUMENT_VERSION,
    exported_at: clock.now().toISOString(),
    user,
    settings: userSettings,
    schedules,
    zones,
  };
  return exportGate.open(owner, async function* () {
    yield `${json(head).slice(0, -1)},\n"entries":[`;
    yield* arrayMembers(entryBatchesOverlapping(db, userId, {}, DOCUMENT_BATCH_ROWS), (entry) => ({
      start_at: entry.start_at,
      end_at: entry.end_at,
      note: entry.note,
    }));
    yield '\n],\n"absences":[';
    yield* arrayMembers(datedRows(db, 'absences', userId), (absence) => ({
      date: absence.date,
      type: absence.type,
      portion: absence.portion,
      note: absence.note,
      request_id: absence.request_id,
      state: absence.state,
    }));
    yield '\n],\n"bookings":[';
    yield* arrayMembers(datedRows(db, 'bookings', userId), (booking) => ({
      date: booking.date,
      minutes: booking.minutes,
      kind: booking.kind,
      note: booking.note,
    }));
    yield '\n]}\n';
  });
}
