// Brute-force lockout (docs/security.md, "Lockout"). An attempt is charged before its password is
// verified: one atomic UPDATE reserves one of the LOCKOUT_ATTEMPTS slots of the lock window, and the
// reservation that takes the last slot stores the lock end at once. So however many attempts run in
// parallel (or in several processes), at most LOCKOUT_ATTEMPTS passwords are verified per window, and
// every attempt that finds no slot is refused the same way, from the stored lock end, unverified.
// A correct password gives its slot back (the count restarts at 0); a wrong one keeps it.
import { createHmac } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { BestEffortWriter } from '../../db/database.js';
import { instantValue } from '../../db/sql.js';
import type { Database } from '../../db/types.js';
import { addSeconds, secondsUntil, type Clock } from '../../common/clock.js';
import { ServiceError } from '../../common/errors.js';
import { insertAuditEvent } from '../audit.js';

/** Whom an attempt counts against: an account, or an identifier that matches none. */
export type LockoutSubject = { userId: number } | { identifier: string };

export interface LockoutSettings {
  attempts: number;
  durationSeconds: number;
  /** The server secret; identifiers that match no account are stored under a key derived from it, never in clear. */
  loadSecret: () => Uint8Array;
}

/** One slot of the lock window, held by an attempt whose password is being verified. */
export interface AttemptReservation {
  subject: LockoutSubject;
  /** The lock end this reservation stored when it took the last slot, else null. */
  lockedUntil: string | null;
}

export function accountLockedError(lockedUntil: Date, now: Date): ServiceError {
  return new ServiceError('ACCOUNT_LOCKED', 'Too many failed attempts; the account is locked for a while', secondsUntil(lockedUntil, now));
}

/** No lock, or one that has passed (a lock end is an ISO instant, so text order is time order). */
function notLockedAt(nowIso: string) {
  return sql<boolean>`(locked_until is null or locked_until <= ${nowIso})`;
}

export interface LockoutDeps {
  db: Kysely<Database>;
  clock: Clock;
  bestEffort: BestEffortWriter;
  settings: LockoutSettings;
}

/** The dependencies with the keys derived from the server secret on first use (one process). */
type LockoutContext = LockoutDeps & { keys: { identifier?: Buffer; log?: Buffer } };

/** The identifier as stored: a keyed hash, since people type passwords into the e-mail field. */
function storedIdentifier(context: LockoutContext, identifier: string): string {
  const { keys, settings } = context;
  keys.identifier ??= createHmac('sha256', settings.loadSecret()).update('failed-login identifiers').digest();
  return createHmac('sha256', keys.identifier).update(identifier).digest('hex');
}

/**
 * What a log line may say about a typed identifier: a keyed hash (HMAC-SHA-256 under a key derived
 * from the server secret, another key than the stored one), so repeated tries at one name can be
 * told apart from a spray, while a password typed into the e-mail field cannot be recovered from
 * the log by hashing a dictionary (the key never leaves the server).
 */
function logDigest(context: LockoutContext, identifier: string): string {
  const { keys, settings } = context;
  keys.log ??= createHmac('sha256', settings.loadSecret()).update('logged login identifiers').digest();
  return createHmac('sha256', keys.log).update(identifier.trim().toLowerCase()).digest('hex').slice(0, 16);
}

async function storedLockEnd(context: LockoutContext, executor: Kysely<Database>, subject: LockoutSubject): Promise<string | null | undefined> {
  const row =
    'userId' in subject
      ? await executor.selectFrom('auth_info').select('locked_until').where('user_id', '=', subject.userId).executeTakeFirst()
      : await executor
          .selectFrom('unknown_login_failures')
          .select('locked_until')
          .where('identifier', '=', storedIdentifier(context, subject.identifier))
          .executeTakeFirst();
  return row?.locked_until;
}

/**
 * The audit row of a lock that starts (docs/security.md, "The audit trail"): written by the one
 * reservation that took the last slot, in its transaction, so a lock has one row however many tries
 * it then refuses, in however many processes. Accounts only: an identifier that matches none is no
 * account, and rows for made-up identifiers would let a flood grow the table.
 */
async function recordLockStart(context: LockoutContext, trx: Kysely<Database>, userId: number, lockedUntil: string, now: Date): Promise<void> {
  const user = await trx.selectFrom('users').select(['id', 'email']).where('id', '=', userId).executeTakeFirst();
  await insertAuditEvent(trx, now, {
    action: 'account_locked',
    actor: 'server',
    ...(user ? { user } : { userId }),
    detail: { locked_until: lockedUntil, attempts: context.settings.attempts },
  });
}

/**
 * Takes one slot of the subject's lock window before its password is verified, or throws
 * ACCOUNT_LOCKED (Retry-After from the stored lock end) when none is left. An expired lock starts
 * a new window. A reservation is never handed back on failure, nor when the process dies.
 */
async function reserveAttempt(context: LockoutContext, subject: LockoutSubject): Promise<AttemptReservation> {
  const { bestEffort, clock, settings } = context;
  // A count lost to a power loss gives at most a few more guesses: not worth an fsync per guess.
  const outcome = await bestEffort((executor) =>
    executor.transaction().execute(async (trx) => {
      const now = clock.now();
      const nowIso = now.toISOString();
      const lockEnd = addSeconds(now, settings.durationSeconds).toISOString();
      // Old values on the right-hand side: a row with a (necessarily expired) lock restarts at 1.
      const nextCount = sql<number>`case when locked_until is not null then 1 else failed_attempts + 1 end`;
      const nextLock = sql<string | null>`case when (${nextCount}) >= ${settings.attempts} then ${instantValue(trx, lockEnd)} else null end`;
      // In an upsert the inserted row (`excluded`) is in scope too: the stored row's columns are named in full.
      const nextStoredCount = sql<number>`case when unknown_login_failures.locked_until is not null then 1 else unknown_login_failures.failed_attempts + 1 end`;
      const nextStoredLock = sql<string | null>`case when (${nextStoredCount}) >= ${settings.attempts} then ${instantValue(trx, lockEnd)} else null end`;
      const reserved =
        'userId' in subject
          ? await trx
              .updateTable('auth_info')
              .set({ failed_attempts: nextCount, locked_until: nextLock, updated_at: nowIso })
              .where('user_id', '=', subject.userId)
              .where(notLockedAt(nowIso))
              .returning(['locked_until'])
              .executeTakeFirst()
          : await trx
              .insertInto('unknown_login_failures')
              .values({
                identifier: storedIdentifier(context, subject.identifier),
                failed_attempts: 1,
                locked_until: settings.attempts <= 1 ? lockEnd : null,
                updated_at: nowIso,
              })
              .onConflict((conflict) =>
                conflict
                  .column('identifier')
                  .doUpdateSet({ failed_attempts: nextStoredCount, locked_until: nextStoredLock, updated_at: nowIso })
                  .where(sql<boolean>`(unknown_login_failures.locked_until is null or unknown_login_failures.locked_until <= ${nowIso})`),
              )
              .returning(['locked_until'])
              .executeTakeFirst();
      if (reserved?.locked_until && 'userId' in subject) await recordLockStart(context, trx, subject.userId, reserved.locked_until, now);
      if (reserved) return { reserved: true as const, lockedUntil: reserved.locked_until };
      return { reserved: false as const, lockedUntil: (await storedLockEnd(context, trx, subject)) ?? null, now };
    }),
  );
  if (outcome.reserved) return { subject, lockedUntil: outcome.lockedUntil };
  // No row at all: the account was deleted since it was looked up; it has no password to check.
  if (!outcome.lockedUntil) throw new ServiceError('INVALID_CREDENTIALS', 'The e-mail address or username, or the password, is wrong');
  throw accountLockedError(new Date(outcome.lockedUntil), outcome.now);
}

/** The error of a wrong password: ACCOUNT_LOCKED when its reservation took the last slot, else undefined. */
function failureOf(context: LockoutContext, reservation: AttemptReservation): ServiceError | undefined {
  return reservation.lockedUntil ? accountLockedError(new Date(reservation.lockedUntil), context.clock.now()) : undefined;
}

/**
 * The condition under which a verified password may still succeed: no lock, an expired one, or
 * the lock this very reservation stored (a correct password in the last slot). A lock set by a
 * parallel attempt meanwhile refuses it, the same way as any attempt that found no slot.
 */
function openFor(reservation: AttemptReservation, nowIso: string) {
  return reservation.lockedUntil === null
    ? notLockedAt(nowIso)
    : sql<boolean>`(locked_until is null or locked_until <= ${nowIso} or locked_until = ${reservation.lockedUntil})`;
}

/** ACCOUNT_LOCKED from the stored lock end, when a parallel attempt locked the account since `reservation`. */
async function lockedSince(context: LockoutContext, reservation: AttemptReservation): Promise<ServiceError | undefined> {
  const now = context.clock.now();
  const lockedUntil = await storedLockEnd(context, context.db, reservation.subject);
  if (!lockedUntil || lockedUntil <= now.toISOString() || lockedUntil === reservation.lockedUntil) return undefined;
  return accountLockedError(new Date(lockedUntil), now);
}

/**
 * Gives a slot back when its password could not be verified at all (the hashing queue was full):
 * nothing was learnt, so it must not count. Lifts the lock only if this reservation stored it.
 */
async function releaseAttempt(context: LockoutContext, reservation: AttemptReservation): Promise<void> {
  const released = {
    failed_attempts: sql<number>`case when failed_attempts > 0 then failed_attempts - 1 else 0 end`,
    locked_until:
      reservation.lockedUntil === null
        ? sql<string | null>`locked_until`
        : sql<string | null>`case when locked_until = ${reservation.lockedUntil} then null else locked_until end`,
  };
  const { subject } = reservation;
  await context.bestEffort((executor) =>
    'userId' in subject
      ? executor.updateTable('auth_info').set(released).where('user_id', '=', subject.userId).execute()
      : executor.updateTable('unknown_login_failures').set(released).where('identifier', '=', storedIdentifier(context, subject.identifier)).execute(),
  );
}

/** Clears the count and the lock (admin unlock, successful reset). */
async function unlockAccount(context: LockoutContext, userId: number): Promise<void> {
  await context.db
    .updateTable('auth_info')
    .set({ failed_attempts: 0, locked_until: null, updated_at: context.clock.now().toISOString() })
    .where('user_id', '=', userId)
    .execute();
}

export function createLockoutService(deps: LockoutDeps) {
  const context: LockoutContext = { ...deps, keys: {} };
  return {
    reserveAttempt: (subject: LockoutSubject) => reserveAttempt(context, subject),
    releaseAttempt: (reservation: AttemptReservation) => releaseAttempt(context, reservation),
    failureOf: (reservation: AttemptReservation) => failureOf(context, reservation),
    openFor,
    lockedSince: (reservation: AttemptReservation) => lockedSince(context, reservation),
    unlockAccount: (userId: number) => unlockAccount(context, userId),
    logDigest: (identifier: string) => logDigest(context, identifier),
  };
}

export type LockoutService = ReturnType<typeof createLockoutService>;
