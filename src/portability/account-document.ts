// One account as one JSON document, both ways: `timetrack user export|import` moves a person
// between instances, and GET /api/settings/export hands people their own data. The document holds
// the account's fields (never a password, hash or token), settings, schedules, entries, absences and
// bookings. It joins
// the two domains (accounts from auth/, the rest from time/), which never import each other.
//
// The export streams (src/time/exports.ts): the account's fields, settings and schedules first, then
// entries, absences and bookings a batch at a time, one JSON value per line, never the whole account in memory. The import
// reads the whole document (at most MAX_ACCOUNT_DOCUMENT_BYTES), checks every field's type and value
// first (each problem names its field: `entries[3].end_at`, 1-based like the lines of a CSV), and then
// writes the account, its settings, schedules, entries, absences, bookings and the audit record in one
// transaction: all of it, or nothing. Schedules and bookings are optional (documents written before
// them have none; their weekly targets then hold from the tracking start on).
import { randomBytes } from 'node:crypto';
import type { Kysely, Selectable, Transaction } from 'kysely';
import type { TransactionalDatabase } from '../db/database.js';
import type { AbsenceRow, BookingsTable, Database } from '../db/types.js';
import { insertAccountIn, rethrowTaken } from '../auth/accounts.js';
import { normalizeEmail, normalizeFullName, normalizeUsername } from '../auth/account-fields.js';
import type { AuditAction } from '../auth/audit.js';
import type { PasswordHasher } from '../auth/password-hasher.js';
import type { PublicUser } from '../auth/users.js';
import type { Clock } from '../common/clock.js';
import { ServiceError } from '../common/errors.js';
import { checkAbsence, insertAbsencesIn, MAX_ABSENCES_PER_USER, type CheckedAbsence } from '../time/absences.js';
import { assertRoomForBookings, checkBooking, MAX_BOOKINGS_PER_USER, type Booking } from '../time/bookings.js';
import { parseDate, parseInstant } from '../time/calendar/dates.js';
import { checkSpan, MAX_ENTRIES_PER_USER, normalizeNote, type EntrySpan } from '../time/entries/rules.js';
import type { EntryCsvService } from '../time/entries/csv.js';
import type { ImportProblem, ParsedRow } from '../time/entries/csv-text.js';
import { entryBatchesOverlapping } from '../time/entries/store.js';
import type { ExportGate, ExportStream } from '../time/exports.js';
import { checkSettingsPatch, type SettingsPatch, type SettingsService } from '../time/settings.js';
import { checkWeeklyTarget, DEFAULT_TARGET, MAX_SCHEDULES, storedSchedules, writeSchedules, writeSchedule, type WeeklyTarget } from '../time/schedules.js';

export const ACCOUNT_DOCUMENT_FORMAT = 'timetrack-account';
export const ACCOUNT_DOCUMENT_VERSION = 1;
/**
 * The largest document `user import` reads. Every account fits: 50,000 entries with 1,000-character
 * notes are about 55 MB in a Latin script and 155 MB at three bytes a character.
 */
export const MAX_ACCOUNT_DOCUMENT_BYTES = 256 * 1024 * 1024;
/** Entries and absences per read of an export. */
export const DOCUMENT_BATCH_ROWS = 250;
/** Entries or absences per piece of text (one macrotask of work each). */
const DOCUMENT_PIECE_ROWS = 50;

export interface AccountImportResult {
  user: { id: number; email: string };
  created: boolean;
  entries: number;
  skipped_entries: number;
  absences: number;
  skipped_absences: number;
  bookings: number;
  skipped_bookings: number;
}

/** Every problem of a document, each naming its field; nothing was written. */
export class AccountImportError extends ServiceError {
  constructor(readonly problems: ImportProblem[]) {
    super('VALIDATION_ERROR', `${problems.length} problem(s) in the document; nothing was written`);
  }
}

/** JSON text of a value, with DEL and the C1 controls as \u escapes (still the same JSON; safe on a terminal). */
function json(value: unknown): string {
  return JSON.stringify(value).replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
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

export interface AccountDataDeps {
  settings: SettingsService;
  entriesCsv: EntryCsvService;
  exportGate: ExportGate;
  hasher: Pick<PasswordHasher, 'hash'>;
  audit: { record(event: { action: AuditAction; actor: string; user: { id: number; email: string }; detail: Record<string, unknown> }, executor: Kysely<Database>): Promise<void> };
}

export function createAccountDataService(database: TransactionalDatabase, clock: Clock, deps: AccountDataDeps) {
  const { db } = database;

  /**
   * The account as a document, streamed: refused before the first byte while another export of the
   * account runs (EXPORT_RUNNING). Entries, absences and bookings are read DOCUMENT_BATCH_ROWS at a time by
   * keyset; the batches are not one snapshot (an entry written meanwhile may be in or out).
   */
  async function exportAccount(userId: number): Promise<ExportStream> {
    const user = await db.selectFrom('users').select(['email', 'full_name', 'username', 'created_at']).where('id', '=', userId).executeTakeFirst();
    if (!user) throw new ServiceError('USER_NOT_FOUND', 'no such account');
    const settings = await deps.settings.getSettings(userId);
    // At most MAX_SCHEDULES: part of the head.
    const schedules = (await storedSchedules(db, userId)).map(({ valid_from, weekly_target_minutes }) => ({ valid_from, weekly_target_minutes }));
    const head = { format: ACCOUNT_DOCUMENT_FORMAT, version: ACCOUNT_DOCUMENT_VERSION, exported_at: clock.now().toISOString(), user, settings, schedules };
    return deps.exportGate.open(userId, async function* () {
      yield `${json(head).slice(0, -1)},\n"entries":[`;
      yield* arrayMembers(entryBatchesOverlapping(db, userId, {}, DOCUMENT_BATCH_ROWS), (entry) => ({ start_at: entry.start_at, end_at: entry.end_at, note: entry.note }));
      yield '\n],\n"absences":[';
      yield* arrayMembers(datedRows(db, 'absences', userId), (absence) => ({ date: absence.date, type: absence.type, portion: absence.portion, note: absence.note }));
      yield '\n],\n"bookings":[';
      yield* arrayMembers(datedRows(db, 'bookings', userId), (booking) => ({ date: booking.date, minutes: booking.minutes, kind: booking.kind, note: booking.note }));
      yield '\n]}\n';
    });
  }

  /** The account with exactly this (normalised) e-mail address: never a username, never a look-alike. */
  async function accountByEmail(executor: Kysely<Database>, email: string): Promise<PublicUser | undefined> {
    return executor.selectFrom('users').select(['id', 'email', 'full_name', 'username', 'created_at']).where('email', '=', email).executeTakeFirst();
  }

  /**
   * Creates the account (with an unusable random password: its owner sets one through a reset) or
   * fills the one with exactly the document's e-mail address: settings, entries (the checks of the CSV
   * import), absences, and the audit record, in one transaction. With `skipExisting`, entries and
   * absences already there are left out instead of refused, so running the same import twice is harmless.
   */
  async function importAccount(document: unknown, options: { skipExisting: boolean; actor: string }): Promise<AccountImportResult> {
    const checked = await checkDocument(document, clock.now().getTime());
    const existing = await accountByEmail(db, checked.account.email);
    const entries = await deps.entriesCsv.checkImport(existing?.id, checked.entries, { skipExisting: options.skipExisting });
    if (entries.problems.length > 0) throw new AccountImportError(entries.problems.map((p) => ({ line: p.line, message: `entries[${p.line}]: ${p.message}` })));
    // Hashed before the transaction, which must never wait for argon2.
    const passwordHash = existing ? undefined : await deps.hasher.hash(randomBytes(32).toString('base64url'));
    return rethrowTaken(
      database.transact(async (trx) => {
        const now = clock.now().toISOString();
        let user = await accountByEmail(trx, checked.account.email);
        const created = user === undefined;
        if (!user) {
          if (passwordHash === undefined) throw new ServiceError('USER_NOT_FOUND', `the account ${checked.account.email} was deleted during the import; run it again`);
          user = await insertAccountIn(trx, checked.account, passwordHash, now).catch((error: unknown) => {
            if (error instanceof ServiceError && error.code === 'USERNAME_TAKEN') {
              throw new ServiceError('USERNAME_TAKEN', `user.username: ${checked.account.username} is the username of another account; change or remove it in the document`);
            }
            throw error;
          });
        }
        await database.lockUser(trx, user.id);
        const { targets, values } = checked.settings;
        const written = await deps.settings.writeSettingsIn(trx, user.id, { values });
        if (checked.schedules !== undefined) {
          // The document's schedules replace the account's.
          await writeSchedules(trx, user.id, checked.schedules, now);
        } else if (targets !== undefined) {
          // A document from before schedules: its weekly targets hold from the tracking start on.
          await writeSchedule(trx, user.id, { validFrom: written.tracking_start, patch: targets.patch, replace: true, trackingStart: written.tracking_start, now });
        }
        const late = await deps.entriesCsv.writeImportIn(trx, user.id, entries, { skipExisting: options.skipExisting });
        if (late.length > 0) throw new AccountImportError(late.map((p) => ({ line: p.line, message: `entries[${p.line}]: ${p.message}` })));
        const absences = await insertAbsencesIn(trx, user.id, checked.absences, { skipExisting: options.skipExisting, now });
        const bookings = await insertBookingsIn(trx, user.id, checked.bookings, { skipExisting: options.skipExisting, now });
        const result: AccountImportResult = {
          user: { id: user.id, email: user.email },
          created,
          entries: entries.entries.length,
          skipped_entries: entries.skipped,
          absences: absences.created,
          skipped_absences: absences.skipped,
          bookings: bookings.created,
          skipped_bookings: bookings.skipped,
        };
        await deps.audit.record(
          { action: 'account_imported', actor: options.actor, user: result.user, detail: { created, entries: result.entries, absences: result.absences, bookings: result.bookings } },
          trx,
        );
        return result;
      }),
    );
  }

  return { exportAccount, importAccount };
}

interface CheckedDocument {
  account: { email: string; full_name: string; username: string | null };
  settings: Awaited<ReturnType<typeof checkSettingsPatch>>;
  entries: ParsedRow[];
  absences: CheckedAbsence[];
  /** Absent in a document from before schedules: the settings' weekly targets stand for them. */
  schedules?: Array<{ valid_from: string; weekly: WeeklyTarget }>;
  bookings: Array<Omit<Booking, 'id'>>;
}

type Json = unknown;

/**
 * Writes checked bookings inside the caller's transaction (which has locked the user): with
 * `skipExisting`, one with the same date, minutes, kind and note as a stored one is left out (so the
 * same import twice is harmless); then the quota.
 */
async function insertBookingsIn(
  trx: Transaction<Database>,
  userId: number,
  bookings: Array<Omit<Booking, 'id'>>,
  options: { skipExisting: boolean; now: string },
): Promise<{ created: number; skipped: number }> {
  const key = (booking: Omit<Booking, 'id'>) => JSON.stringify([booking.date, booking.minutes, booking.kind, booking.note]);
  const stored = new Set<string>();
  if (options.skipExisting && bookings.length > 0) {
    const rows = await trx.selectFrom('bookings').select(['date', 'minutes', 'kind', 'note']).where('user_id', '=', userId).execute();
    for (const row of rows) stored.add(key(row));
  }
  const toWrite = bookings.filter((booking) => !stored.has(key(booking)));
  await assertRoomForBookings(trx, userId, toWrite.length);
  for (let first = 0; first < toWrite.length; first += 500) {
    await trx
      .insertInto('bookings')
      .values(toWrite.slice(first, first + 500).map((booking) => ({ user_id: userId, ...booking, created_at: options.now })))
      .execute();
  }
  return { created: toWrite.length, skipped: bookings.length - toWrite.length };
}

/** Collects problems, each naming its field; a field that cannot be read is left out of the rest. */
class Problems {
  readonly list: ImportProblem[] = [];
  add(field: string, message: string): void {
    this.list.push({ line: this.list.length + 1, message: `${field}: ${message}` });
  }
  /** Runs a check that throws a VALIDATION_ERROR, as a problem of `field` (or of the field it names inside `field`). */
  check<T>(field: string, run: () => T): T | undefined {
    try {
      return run();
    } catch (error) {
      if (!(error instanceof ServiceError)) throw error;
      const named = error.field !== undefined && !field.endsWith(error.field) ? `${field}.${error.field}` : field;
      this.add(named, error.message);
      return undefined;
    }
  }
}

const isObject = (value: Json): value is Record<string, Json> => typeof value === 'object' && value !== null && !Array.isArray(value);
const typeName = (value: Json) => (value === null ? 'null' : Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}`);

function text(problems: Problems, field: string, value: Json, options: { nullable?: boolean; optional?: boolean } = {}): string | null | undefined {
  if (value === undefined && options.optional) return undefined;
  if (value === null && options.nullable) return null;
  if (typeof value === 'string') return value;
  problems.add(field, `must be a string${options.nullable ? ' or null' : ''}, not ${value === undefined ? 'missing' : typeName(value)}`);
  return undefined;
}

function integer(problems: Problems, field: string, value: Json): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value === 'number' && Number.isSafeInteger(value)) return value;
  problems.add(field, `must be a whole number, not ${typeName(value)}${typeof value === 'number' ? ` (${value})` : ''}`);
  return undefined;
}

/**
 * Every field of the document checked for its type, then its value, by the rules of the API: an
 * AccountImportError with every problem found (each naming its field), or the document's content,
 * normalised.
 */
async function checkDocument(document: Json, nowMs: number): Promise<CheckedDocument> {
  const problems = new Problems();
  if (!isObject(document) || document.format !== ACCOUNT_DOCUMENT_FORMAT) {
    throw new ServiceError('VALIDATION_ERROR', `not an account document (its "format" must be "${ACCOUNT_DOCUMENT_FORMAT}")`);
  }
  if (document.version !== ACCOUNT_DOCUMENT_VERSION) {
    throw new ServiceError('VALIDATION_ERROR', `account document version ${json(document.version)} is not supported (this version reads ${ACCOUNT_DOCUMENT_VERSION})`);
  }
  for (const part of ['user', 'settings'] as const) if (!isObject(document[part])) problems.add(part, `must be an object, not ${document[part] === undefined ? 'missing' : typeName(document[part])}`);
  for (const part of ['entries', 'absences'] as const) if (!Array.isArray(document[part])) problems.add(part, `must be an array, not ${document[part] === undefined ? 'missing' : typeName(document[part])}`);
  if (problems.list.length > 0) throw new AccountImportError(problems.list);
  const user = document.user as Record<string, Json>;
  const settingsIn = document.settings as Record<string, Json>;
  const entriesIn = document.entries as Json[];
  const absencesIn = document.absences as Json[];

  // The account: the e-mail address is the key, matched exactly (a username is no e-mail address).
  const emailText = text(problems, 'user.email', user.email);
  const email = emailText === undefined || emailText === null ? undefined : problems.check('user.email', () => normalizeEmail(emailText));
  const nameText = text(problems, 'user.full_name', user.full_name);
  const fullName = typeof nameText === 'string' ? problems.check('user.full_name', () => normalizeFullName(nameText)) : undefined;
  const usernameText = text(problems, 'user.username', user.username, { nullable: true, optional: true });
  const username = usernameText === undefined ? null : problems.check('user.username', () => normalizeUsername(usernameText));

  // Settings: the types here, the values by the rules of PATCH /api/settings.
  const patch: SettingsPatch = {};
  const timezone = text(problems, 'settings.timezone', settingsIn.timezone, { optional: true });
  if (typeof timezone === 'string') patch.timezone = timezone;
  const region = text(problems, 'settings.holiday_region', settingsIn.holiday_region, { nullable: true, optional: true });
  if (region !== undefined) patch.holiday_region = region;
  const offset = integer(problems, 'settings.overtime_offset_minutes', settingsIn.overtime_offset_minutes);
  if (offset !== undefined) patch.overtime_offset_minutes = offset;
  const trackingStart = text(problems, 'settings.tracking_start', settingsIn.tracking_start, { nullable: true, optional: true });
  if (trackingStart !== undefined) patch.tracking_start = trackingStart;
  const minBreak = integer(problems, 'settings.min_break_minutes', settingsIn.min_break_minutes);
  if (minBreak !== undefined) patch.min_break_minutes = minBreak;
  for (const field of ['timer_limit_minutes', 'vacation_days_per_year', 'vacation_carry_over_max_days'] as const) {
    const value = settingsIn[field];
    if (value === undefined) continue;
    if (value === null || typeof value === 'number') patch[field] = value;
    else problems.add(`settings.${field}`, `must be a number or null, not ${typeName(value)}`);
  }
  if (settingsIn.break_rules !== undefined) {
    if (Array.isArray(settingsIn.break_rules)) patch.break_rules = settingsIn.break_rules as SettingsPatch['break_rules'];
    else problems.add('settings.break_rules', `must be an array, not ${typeName(settingsIn.break_rules)}`);
  }
  const targets = settingsIn.weekly_target_minutes;
  if (targets !== undefined) {
    if (!isObject(targets)) problems.add('settings.weekly_target_minutes', `must be an object, not ${typeName(targets)}`);
    else {
      patch.weekly_target_minutes = {};
      for (const [day, minutes] of Object.entries(targets)) {
        const value = integer(problems, `settings.weekly_target_minutes.${day}`, minutes);
        if (value !== undefined) (patch.weekly_target_minutes as Record<string, number>)[day] = value;
      }
    }
  }
  let settings: CheckedDocument['settings'] | undefined;
  try {
    settings = await checkSettingsPatch(patch);
  } catch (error) {
    if (!(error instanceof ServiceError)) throw error;
    problems.add(`settings.${error.field ?? 'settings'}`, error.message);
  }

  // Entries: the checks of the API (and of the CSV import) on each; overlaps come later, against what is stored.
  if (entriesIn.length > MAX_ENTRIES_PER_USER) problems.add('entries', `${entriesIn.length} entries, and an account keeps at most ${MAX_ENTRIES_PER_USER}`);
  const entries: ParsedRow[] = [];
  entriesIn.forEach((entry, index) => {
    const at = `entries[${index + 1}]`;
    if (!isObject(entry)) return problems.add(at, `must be an object, not ${typeName(entry)}`);
    const start = text(problems, `${at}.start_at`, entry.start_at);
    const end = text(problems, `${at}.end_at`, entry.end_at, { nullable: true, optional: true });
    const note = text(problems, `${at}.note`, entry.note, { optional: true });
    if (typeof start !== 'string' || (entry.end_at !== undefined && end === undefined) || (entry.note !== undefined && note === undefined)) return;
    const span = problems.check(at, (): EntrySpan => {
      const checkedSpan = {
        startMs: parseInstant(start, 'start_at'),
        endMs: end === null || end === undefined ? null : parseInstant(end, 'end_at'),
        note: normalizeNote(note ?? ''),
      };
      checkSpan(checkedSpan, nowMs);
      return checkedSpan;
    });
    if (span) entries.push({ line: index + 1, span });
  });

  // Absences: the checks of the API, one per day (in the document too).
  if (absencesIn.length > MAX_ABSENCES_PER_USER) problems.add('absences', `${absencesIn.length} absences, and an account keeps at most ${MAX_ABSENCES_PER_USER}`);
  const absences: CheckedAbsence[] = [];
  const days = new Map<string, number>();
  absencesIn.forEach((absence, index) => {
    const at = `absences[${index + 1}]`;
    if (!isObject(absence)) return problems.add(at, `must be an object, not ${typeName(absence)}`);
    const date = text(problems, `${at}.date`, absence.date);
    const type = text(problems, `${at}.type`, absence.type);
    const note = text(problems, `${at}.note`, absence.note, { optional: true });
    const portion = text(problems, `${at}.portion`, absence.portion, { optional: true });
    if (typeof date !== 'string' || typeof type !== 'string' || (absence.note !== undefined && note === undefined) || (absence.portion !== undefined && portion === undefined)) return;
    const checked = problems.check(at, () => checkAbsence({ date, type, note: note ?? '', ...(portion === undefined || portion === null ? {} : { portion }) }));
    if (!checked) return;
    const earlier = days.get(checked.date);
    if (earlier !== undefined) return problems.add(`${at}.date`, `${checked.date} is also the date of absences[${earlier}]; an account has one absence a day`);
    days.set(checked.date, index + 1);
    absences.push(checked);
  });

  // Schedules (optional: documents from before them have none): the checks of the API.
  let schedules: CheckedDocument['schedules'];
  if (document.schedules !== undefined) {
    if (!Array.isArray(document.schedules)) problems.add('schedules', `must be an array, not ${typeName(document.schedules)}`);
    else {
      if (document.schedules.length > MAX_SCHEDULES) problems.add('schedules', `${document.schedules.length} schedules, and an account keeps at most ${MAX_SCHEDULES}`);
      schedules = [];
      const firstDays = new Map<string, number>();
      document.schedules.forEach((schedule: Json, index) => {
        const at = `schedules[${index + 1}]`;
        if (!isObject(schedule)) return problems.add(at, `must be an object, not ${typeName(schedule)}`);
        const validFrom = text(problems, `${at}.valid_from`, schedule.valid_from);
        const weeklyIn = schedule.weekly_target_minutes;
        if (!isObject(weeklyIn)) return problems.add(`${at}.weekly_target_minutes`, `must be an object, not ${weeklyIn === undefined ? 'missing' : typeName(weeklyIn)}`);
        const days: Record<string, number> = {};
        for (const [day, minutes] of Object.entries(weeklyIn)) {
          const value = integer(problems, `${at}.weekly_target_minutes.${day}`, minutes);
          if (value !== undefined) days[day] = value;
        }
        if (typeof validFrom !== 'string') return;
        const checkedDate = problems.check(`${at}.valid_from`, () => parseDate(validFrom, 'valid_from'));
        const weekly = problems.check(at, () => checkWeeklyTarget(days, DEFAULT_TARGET));
        if (checkedDate === undefined || weekly === undefined) return;
        const earlier = firstDays.get(checkedDate);
        if (earlier !== undefined) return problems.add(`${at}.valid_from`, `${checkedDate} is also the first day of schedules[${earlier}]`);
        firstDays.set(checkedDate, index + 1);
        schedules!.push({ valid_from: checkedDate, weekly });
      });
    }
  }

  // Bookings (optional: documents from before them have none): the checks of the API.
  const bookings: CheckedDocument['bookings'] = [];
  if (document.bookings !== undefined) {
    if (!Array.isArray(document.bookings)) problems.add('bookings', `must be an array, not ${typeName(document.bookings)}`);
    else {
      if (document.bookings.length > MAX_BOOKINGS_PER_USER) problems.add('bookings', `${document.bookings.length} bookings, and an account keeps at most ${MAX_BOOKINGS_PER_USER}`);
      document.bookings.forEach((booking: Json, index) => {
        const at = `bookings[${index + 1}]`;
        if (!isObject(booking)) return problems.add(at, `must be an object, not ${typeName(booking)}`);
        const date = text(problems, `${at}.date`, booking.date);
        const kind = text(problems, `${at}.kind`, booking.kind);
        const minutes = integer(problems, `${at}.minutes`, booking.minutes);
        if (booking.minutes === undefined) problems.add(`${at}.minutes`, 'must be a whole number, not missing');
        const note = text(problems, `${at}.note`, booking.note, { optional: true });
        if (typeof date !== 'string' || typeof kind !== 'string' || minutes === undefined || (booking.note !== undefined && note === undefined)) return;
        const checked = problems.check(at, () => checkBooking({ date, kind, minutes, note: note ?? '' }));
        if (checked) bookings.push(checked);
      });
    }
  }

  if (problems.list.length > 0 || email === undefined || fullName === undefined || username === undefined || settings === undefined) {
    throw new AccountImportError(problems.list);
  }
  return { account: { email, full_name: fullName, username }, settings, entries, absences, ...(schedules === undefined ? {} : { schedules }), bookings };
}
