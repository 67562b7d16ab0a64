// The import of an account document (./account-document.ts): the whole document checked first
// (./check.ts), then the account, its settings, schedules, entries, absences, bookings and the audit
// record written in one transaction: all of it, or nothing.
import { randomBytes } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import type { TransactionalDatabase } from '../db/database.js';
import type { Database } from '../db/types.js';
import { insertAccountIn, rethrowTaken } from '../auth/accounts/accounts.js';
import type { AuditAction } from '../auth/audit.js';
import type { PasswordHasher } from '../auth/passwords/hasher.js';
import type { PublicUser } from '../auth/accounts/users.js';
import type { Clock } from '../common/clock.js';
import { ServiceError } from '../common/errors.js';
import { insertAbsencesIn } from '../time/absences/absences.js';
import { assertRoomForBookings, type Booking } from '../time/bookings.js';
import type { EntryCsvService } from '../time/entries/csv.js';
import { writeSchedules, writeSchedule } from '../time/schedules.js';
import type { SettingsService } from '../time/settings/settings.js';
import { AccountImportError, checkDocument } from './check.js';

export interface AccountImportResult {
  user: { id: number; email: string };
  created: boolean;
  entries: number;
  skipped_entries: number;
  absences: number;
  skipped_absences: number;
  /** Days of vacation the document held as waiting for approval: left out. */
  requested_absences_left_out: number;
  bookings: number;
  skipped_bookings: number;
}

export interface ImportDeps {
  database: TransactionalDatabase;
  clock: Clock;
  settings: Pick<SettingsService, 'writeSettingsIn'>;
  entriesCsv: Pick<EntryCsvService, 'checkImport' | 'writeImportIn'>;
  hasher: Pick<PasswordHasher, 'hash'>;
  audit: {
    record(
      event: { action: AuditAction; actor: string; user: { id: number; email: string }; detail: Record<string, unknown> },
      executor: Kysely<Database>,
    ): Promise<void>;
  };
}

/** The account with exactly this (normalised) e-mail address: never a username, never a look-alike. */
async function accountByEmail(executor: Kysely<Database>, email: string): Promise<PublicUser | undefined> {
  return executor.selectFrom('users').select(['id', 'email', 'full_name', 'username', 'created_at']).where('email', '=', email).executeTakeFirst();
}

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

/**
 * Creates the account (with an unusable random password: its owner sets one through a reset) or
 * fills the one with exactly the document's e-mail address: settings, entries (the checks of the CSV
 * import), absences, and the audit record, in one transaction. With `skipExisting`, entries and
 * absences already there are left out instead of refused, so running the same import twice is harmless.
 */
export async function importAccount(deps: ImportDeps, document: unknown, options: { skipExisting: boolean; actor: string }): Promise<AccountImportResult> {
  const { database, clock } = deps;
  const { db } = database;
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
        if (passwordHash === undefined)
          throw new ServiceError('USER_NOT_FOUND', `the account ${checked.account.email} was deleted during the import; run it again`);
        user = await insertAccountIn(trx, checked.account, passwordHash, now).catch((error: unknown) => {
          if (error instanceof ServiceError && error.code === 'USERNAME_TAKEN') {
            throw new ServiceError(
              'USERNAME_TAKEN',
              `user.username: ${checked.account.username} is the username of another account; change or remove it in the document`,
            );
          }
          throw error;
        });
      }
      await database.lockUser(trx, user.id);
      const { targets, values } = checked.settings;
      // The document's zones replace the account's; a document from before them has one zone, for every day.
      const zone = checked.settings.zone && { timezone: checked.settings.zone.timezone, validFrom: '1970-01-01' };
      const written = await deps.settings.writeSettingsIn(trx, user.id, { values, ...(checked.zones ? { zones: checked.zones } : zone ? { zone } : {}) });
      if (checked.schedules !== undefined) {
        // The document's schedules replace the account's.
        await writeSchedules(trx, user.id, checked.schedules, now);
      } else if (targets !== undefined) {
        // A document from before schedules: its weekly targets hold from the tracking start on.
        await writeSchedule(trx, user.id, {
          validFrom: written.tracking_start,
          patch: targets.patch,
          replace: true,
          trackingStart: written.tracking_start,
          now,
        });
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
        requested_absences_left_out: checked.requestedAbsences,
        bookings: bookings.created,
        skipped_bookings: bookings.skipped,
      };
      await deps.audit.record(
        {
          action: 'account_imported',
          actor: options.actor,
          user: result.user,
          detail: { created, entries: result.entries, absences: result.absences, bookings: result.bookings },
        },
        trx,
      );
      return result;
    }),
  );
}
