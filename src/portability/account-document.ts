// One account as one JSON document, both ways: `timetrack user export|import` moves a person
// between instances, and GET /api/settings/export hands people their own data. The document holds
// the account's fields (never a password, hash or token), settings, entries and absences. It joins
// the two domains (accounts from auth/, the rest from time/), which never import each other.
//
// The export streams (src/time/exports.ts): the account's fields and settings first, then entries and
// absences a batch at a time, one JSON value per line, never the whole account in memory. The import
// reads the whole document (at most MAX_ACCOUNT_DOCUMENT_BYTES), checks every field's type and value
// first (each problem names its field: `entries[3].end_at`, 1-based like the lines of a CSV), and then
// writes the account, its settings, entries, absences and the audit record in one transaction: all
// of it, or nothing.
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { TransactionalDatabase } from '../db/database.js';
import type { Database } from '../db/types.js';
import { insertAccountIn, rethrowTaken } from '../auth/accounts.js';
import { normalizeEmail, normalizeFullName, normalizeUsername } from '../auth/account-fields.js';
import type { AuditAction } from '../auth/audit.js';
import type { PasswordHasher } from '../auth/password-hasher.js';
import type { PublicUser } from '../auth/users.js';
import type { Clock } from '../common/clock.js';
import { ServiceError } from '../common/errors.js';
import { checkAbsence, insertAbsencesIn, MAX_ABSENCES_PER_USER, type CheckedAbsence } from '../time/absences.js';
import { parseInstant } from '../time/calendar.js';
import { checkSpan, MAX_ENTRIES_PER_USER, normalizeNote, type EntrySpan } from '../time/entries.js';
import type { EntryCsvService, ImportProblem, ParsedRow } from '../time/entries-csv.js';
import { entryBatchesOverlapping } from '../time/entries-store.js';
import type { ExportGate, ExportStream } from '../time/exports.js';
import { checkSettingsPatch, type SettingsPatch, type SettingsService } from '../time/settings.js';

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
   * account runs (EXPORT_RUNNING). Entries and absences are read DOCUMENT_BATCH_ROWS at a time by
   * keyset; the batches are not one snapshot (an entry written meanwhile may be in or out).
   */
  async function exportAccount(userId: number): Promise<ExportStream> {
    const user = await db.selectFrom('users').select(['email', 'full_name', 'username', 'created_at']).where('id', '=', userId).executeTakeFirst();
    if (!user) throw new ServiceError('USER_NOT_FOUND', 'no such account');
    const settings = await deps.settings.getSettings(userId);
    const head = { format: ACCOUNT_DOCUMENT_FORMAT, version: ACCOUNT_DOCUMENT_VERSION, exported_at: clock.now().toISOString(), user, settings };
    return deps.exportGate.open(userId, async function* () {
      yield `${json(head).slice(0, -1)},\n"entries":[`;
      let separator = '\n';
      for await (const batch of entryBatchesOverlapping(db, userId, {}, DOCUMENT_BATCH_ROWS)) {
        for (let first = 0; first < batch.length; first += DOCUMENT_PIECE_ROWS) {
          let piece = '';
          for (const entry of batch.slice(first, first + DOCUMENT_PIECE_ROWS)) {
            piece += `${separator}${json({ start_at: entry.start_at, end_at: entry.end_at, note: entry.note })}`;
            separator = ',\n';
          }
          yield piece;
        }
      }
      yield '\n],\n"absences":[';
      separator = '\n';
      let after: { date: string; id: number } | undefined;
      for (;;) {
        let query = db.selectFrom('absences').select(['id', 'date', 'type', 'note']).where('user_id', '=', userId);
        if (after) {
          const { date, id } = after;
          query = query.where((eb) => eb(eb.refTuple('date', 'id'), '>', eb.tuple(date, id)));
        }
        const batch = await query.orderBy('date').orderBy('id').limit(DOCUMENT_BATCH_ROWS).execute();
        for (let first = 0; first < batch.length; first += DOCUMENT_PIECE_ROWS) {
          let piece = '';
          for (const absence of batch.slice(first, first + DOCUMENT_PIECE_ROWS)) {
            piece += `${separator}${json({ date: absence.date, type: absence.type, note: absence.note })}`;
            separator = ',\n';
          }
          yield piece;
        }
        if (batch.length < DOCUMENT_BATCH_ROWS) break;
        after = batch[batch.length - 1];
      }
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
        await deps.settings.writeSettingsIn(trx, user.id, checked.settings);
        const late = await deps.entriesCsv.writeImportIn(trx, user.id, entries, { skipExisting: options.skipExisting });
        if (late.length > 0) throw new AccountImportError(late.map((p) => ({ line: p.line, message: `entries[${p.line}]: ${p.message}` })));
        const absences = await insertAbsencesIn(trx, user.id, checked.absences, { skipExisting: options.skipExisting, now });
        const result: AccountImportResult = {
          user: { id: user.id, email: user.email },
          created,
          entries: entries.entries.length,
          skipped_entries: entries.skipped,
          absences: absences.created,
          skipped_absences: absences.skipped,
        };
        await deps.audit.record(
          { action: 'account_imported', actor: options.actor, user: result.user, detail: { created, entries: result.entries, absences: result.absences } },
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
}

type Json = unknown;

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
    if (typeof date !== 'string' || typeof type !== 'string' || (absence.note !== undefined && note === undefined)) return;
    const checked = problems.check(at, () => checkAbsence({ date, type, note: note ?? '' }));
    if (!checked) return;
    const earlier = days.get(checked.date);
    if (earlier !== undefined) return problems.add(`${at}.date`, `${checked.date} is also the date of absences[${earlier}]; an account has one absence a day`);
    days.set(checked.date, index + 1);
    absences.push(checked);
  });

  if (problems.list.length > 0 || email === undefined || fullName === undefined || username === undefined || settings === undefined) {
    throw new AccountImportError(problems.list);
  }
  return { account: { email, full_name: fullName, username }, settings, entries, absences };
}
