// One account as one JSON document, both ways: `timetrack user export|import` moves a person
// between instances, and GET /api/settings/export hands people their own data. The document holds
// the account's fields (never a password, hash or token), settings, entries and absences. It joins
// the two domains (accounts from auth/, the rest from time/), which never import each other.
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database } from '../db/types.js';
import type { AccountService } from '../auth/accounts.js';
import type { UserDirectory } from '../auth/users.js';
import type { Clock } from '../common/clock.js';
import { ServiceError, validationError } from '../common/errors.js';
import type { AbsenceService } from '../time/absences.js';
import type { BookingService } from '../time/bookings.js';
import type { EntryCsvService, ImportProblem } from '../time/entries-csv.js';
import { entriesOverlapping } from '../time/entries-store.js';
import type { Settings, SettingsService } from '../time/settings.js';
import { storedSchedules, type NewSchedule, type ScheduleService } from '../time/schedules.js';

export const ACCOUNT_DOCUMENT_FORMAT = 'timetrack-account';
export const ACCOUNT_DOCUMENT_VERSION = 1;

export interface AccountDocument {
  format: typeof ACCOUNT_DOCUMENT_FORMAT;
  version: typeof ACCOUNT_DOCUMENT_VERSION;
  exported_at: string;
  user: { email: string; full_name: string; username: string | null; created_at: string };
  settings: Settings;
  /** Weekly targets by date (docs/time-model.md); documents written before schedules have none. */
  schedules?: NewSchedule[];
  entries: Array<{ start_at: string; end_at: string | null; note: string }>;
  absences: Array<{ date: string; type: string; portion?: string; note: string }>;
  /** Bookings on the balance; documents written before bookings have none. */
  bookings?: Array<{ date: string; minutes: number; kind: string; note: string }>;
}

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

/** Entry and absence problems name their place in the document (entries[3] is the 3rd entry). */
export class AccountImportError extends ServiceError {
  constructor(readonly problems: ImportProblem[]) {
    super('VALIDATION_ERROR', `${problems.length} problem(s) in the document; nothing was written`);
  }
}

export function createAccountDataService(
  db: Kysely<Database>,
  clock: Clock,
  deps: { users: UserDirectory; accounts: AccountService; settings: SettingsService; schedules: ScheduleService; absences: AbsenceService; bookings: BookingService; entriesCsv: EntryCsvService },
) {
  async function exportAccount(userId: number): Promise<AccountDocument> {
    const user = await db.selectFrom('users').select(['email', 'full_name', 'username', 'created_at']).where('id', '=', userId).executeTakeFirstOrThrow();
    const entries = await entriesOverlapping(db, userId, {});
    const absences = await db.selectFrom('absences').select(['date', 'type', 'portion', 'note']).where('user_id', '=', userId).orderBy('date').execute();
    return {
      format: ACCOUNT_DOCUMENT_FORMAT,
      version: ACCOUNT_DOCUMENT_VERSION,
      exported_at: clock.now().toISOString(),
      user,
      settings: await deps.settings.getSettings(userId),
      schedules: (await storedSchedules(db, userId)).map(({ valid_from, weekly_target_minutes }) => ({ valid_from, weekly_target_minutes })),
      entries: entries.map((entry) => ({ start_at: entry.start_at, end_at: entry.end_at, note: entry.note })),
      absences,
      bookings: await db.selectFrom('bookings').select(['date', 'minutes', 'kind', 'note']).where('user_id', '=', userId).orderBy('date').orderBy('id').execute(),
    };
  }

  /**
   * Creates the account (with an unusable random password: its owner sets one through a reset) or
   * fills the existing one with the same e-mail: settings, then entries (all or none, the checks
   * of the CSV import), then absences. With `skipExisting`, entries and absences already there are
   * left out instead of refused, so running the same import twice is harmless.
   */
  async function importAccount(document: unknown, options: { skipExisting: boolean }): Promise<AccountImportResult> {
    const doc = checkDocument(document);
    let created = false;
    let user = await deps.users.requireUser(doc.user.email).catch((error: unknown) => {
      if (error instanceof ServiceError && error.code === 'USER_NOT_FOUND') return undefined;
      throw error;
    });
    const dryRun = await (user ? deps.entriesCsv.importEntries(user.id, doc.entries, { apply: false, skipExisting: options.skipExisting }) : undefined);
    if (dryRun && dryRun.problems.length > 0) throw new AccountImportError(dryRun.problems.map((p) => ({ line: p.line, message: `entries[${p.line}]: ${p.message}` })));
    if (!user) {
      user = await deps.accounts.createAccount({ email: doc.user.email, full_name: doc.user.full_name, username: doc.user.username, password: randomBytes(32).toString('base64url') });
      created = true;
    }
    const { tracking_start, ...settings } = doc.settings;
    await deps.settings.updateSettings(user.id, { ...settings, tracking_start });
    if (Array.isArray(doc.schedules)) await deps.schedules.replaceSchedules(user.id, doc.schedules);
    const entries = await deps.entriesCsv.importEntries(user.id, doc.entries, { apply: true, skipExisting: options.skipExisting });
    if (entries.problems.length > 0) throw new AccountImportError(entries.problems.map((p) => ({ line: p.line, message: `entries[${p.line}]: ${p.message}` })));
    let absences = 0;
    let skippedAbsences = 0;
    for (const absence of doc.absences) {
      try {
        await deps.absences.createAbsence(user.id, absence);
        absences += 1;
      } catch (error) {
        if (!(options.skipExisting && error instanceof ServiceError && error.code === 'ABSENCE_EXISTS')) throw error;
        skippedAbsences += 1;
      }
    }
    // A booking with the same date, minutes, kind and note is already there (with --skip-existing).
    let bookings = 0;
    let skippedBookings = 0;
    const existing = options.skipExisting ? await deps.bookings.listBookings(user.id) : [];
    for (const booking of doc.bookings ?? []) {
      if (existing.some((b) => b.date === booking.date && b.minutes === booking.minutes && b.kind === booking.kind && b.note === (booking.note ?? '').trim())) {
        skippedBookings += 1;
        continue;
      }
      await deps.bookings.createBooking(user.id, booking);
      bookings += 1;
    }
    return {
      user: { id: user.id, email: user.email },
      created,
      entries: entries.entries.length,
      skipped_entries: entries.skipped,
      absences,
      skipped_absences: skippedAbsences,
      bookings,
      skipped_bookings: skippedBookings,
    };
  }

  return { exportAccount, importAccount };
}

function checkDocument(document: unknown): AccountDocument {
  const doc = document as Partial<AccountDocument> | null;
  if (typeof doc !== 'object' || doc === null || doc.format !== ACCOUNT_DOCUMENT_FORMAT) throw validationError(`not an account document (format "${ACCOUNT_DOCUMENT_FORMAT}")`);
  if (doc.version !== ACCOUNT_DOCUMENT_VERSION) throw validationError(`account document version ${String(doc.version)} is not supported (this version reads ${ACCOUNT_DOCUMENT_VERSION})`);
  if (typeof doc.user?.email !== 'string' || typeof doc.user.full_name !== 'string') throw validationError('the document lacks user.email or user.full_name');
  if (!Array.isArray(doc.entries) || !Array.isArray(doc.absences) || typeof doc.settings !== 'object' || doc.settings === null) {
    throw validationError('the document lacks settings, entries or absences');
  }
  return doc as AccountDocument;
}

