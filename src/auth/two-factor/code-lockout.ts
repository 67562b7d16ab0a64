// Wrong two-factor codes count apart from wrong passwords (docs/security.md, "Guessing codes"), in the
// account's two_factor_failures row, which neither a password reset, a password change nor `user unlock`
// touches: whoever reads the owner's mailbox, or knows the password, gets no fresh guesses at the code.
//
// - A slot is taken before a code is checked, in a transaction that locks the account's row, so however
//   many codes run in parallel (or in several processes) at most CODES_PER_LOCK are checked per lock.
// - Every CODES_PER_LOCK wrong codes in a row lock the codes: the first lock lasts the TWO_FACTOR_LOCK
//   setting, each next one twice as long as the one before, at most MAX_LOCK_SECONDS.
// - After CODE_FAILURE_CAP wrong codes in a row (NIST SP 800-63B's limit) no code is checked any more
//   until a recovery code or `user 2fa-reset`; a recovery code (80 random bits) is still checked, even
//   while the codes are locked.
// - A right code, a recovery code or `user 2fa-reset` ends the run (the row goes).
import type { Transaction } from 'kysely';
import type { Database } from '../../db/types.js';
import { addSeconds, secondsUntil } from '../../common/clock.js';
import { ServiceError } from '../../common/errors.js';
import { insertAuditEvent } from '../audit.js';
import type { TwoFactorDeps } from './deps.js';

/** Wrong codes in a row between two locks (the LOCKOUT_ATTEMPTS − 1 codes a sign-in had before). */
export const CODES_PER_LOCK = 4;
/** Wrong codes in a row after which only a recovery code or `user 2fa-reset` helps (NIST SP 800-63B, 5.2.2). */
export const CODE_FAILURE_CAP = 100;
/** The longest lock, however many came before. */
export const MAX_LOCK_SECONDS = 24 * 60 * 60;

/** One checked code's slot: what its taking stored. */
export interface CodeReservation {
  userId: number;
  /** The lock this slot's code stored (it was the CODES_PER_LOCK-th wrong one in a row), else null. */
  lockedUntil: string | null;
  /** This slot stored the run's first lock: the owner is told (once per run). */
  firstLock: boolean;
  /** This slot reached CODE_FAILURE_CAP. */
  capped: boolean;
}

/** How long the lock after `locksBefore` earlier locks of the run lasts. */
export function lockSeconds(firstLockSeconds: number, locksBefore: number): number {
  return Math.min(MAX_LOCK_SECONDS, Math.max(1, firstLockSeconds) * 2 ** Math.min(locksBefore, 32));
}

export function codesLockedError(lockedUntil: Date, now: Date): ServiceError {
  return new ServiceError('ACCOUNT_LOCKED', 'Too many wrong two-factor codes; codes are refused for a while', secondsUntil(lockedUntil, now));
}

/** At the cap: no Retry-After, since waiting does not help. */
export function codesBlockedError(): ServiceError {
  return new ServiceError(
    'ACCOUNT_LOCKED',
    "Too many wrong two-factor codes in a row: only a recovery code signs in now, or the server's operator resets two-factor sign-in",
  );
}

/**
 * Takes a slot before a code is checked, counting it as wrong until `clearCodeFailures` says otherwise;
 * ACCOUNT_LOCKED when the codes are locked or capped (nothing taken then).
 */
export async function reserveCode(deps: TwoFactorDeps, userId: number): Promise<CodeReservation> {
  const { database, clock, options } = deps;
  return database.transact(async (trx) => {
    await database.lockUser(trx, userId);
    const now = clock.now();
    const nowIso = now.toISOString();
    const row = await trx.selectFrom('two_factor_failures').selectAll().where('user_id', '=', userId).executeTakeFirst();
    if (row?.locked_until && row.locked_until > nowIso) throw codesLockedError(new Date(row.locked_until), now);
    if ((row?.consecutive ?? 0) >= CODE_FAILURE_CAP) throw codesBlockedError();
    const consecutive = (row?.consecutive ?? 0) + 1;
    const sinceLock = (row?.since_lock ?? 0) + 1;
    const locksBefore = row?.locks ?? 0;
    const locks = sinceLock >= CODES_PER_LOCK ? locksBefore + 1 : locksBefore;
    const lockedUntil = locks > locksBefore ? addSeconds(now, lockSeconds(options.firstCodeLockSeconds, locksBefore)).toISOString() : null;
    const values = { consecutive, since_lock: lockedUntil ? 0 : sinceLock, locks, locked_until: lockedUntil, updated_at: nowIso };
    await trx
      .insertInto('two_factor_failures')
      .values({ user_id: userId, ...values })
      .onConflict((conflict) => conflict.column('user_id').doUpdateSet(values))
      .execute();
    // A lock of the codes is in the audit trail once, when it starts (docs/security.md, "The audit trail").
    if (lockedUntil !== null || consecutive === CODE_FAILURE_CAP) {
      const user = await trx.selectFrom('users').select(['id', 'email']).where('id', '=', userId).executeTakeFirst();
      const detail = { locked_until: lockedUntil, lock: locks, wrong_codes_in_a_row: consecutive, capped: consecutive >= CODE_FAILURE_CAP };
      await insertAuditEvent(trx, now, { action: 'two_factor_locked', actor: 'server', ...(user ? { user } : { userId }), detail });
    }
    return { userId, lockedUntil, firstLock: lockedUntil !== null && locksBefore === 0, capped: consecutive >= CODE_FAILURE_CAP };
  });
}

/** The answer to a wrong code in `reservation`'s slot: locked (423) when its slot stored a lock or the cap, else undefined. */
export function codeFailureOf(deps: TwoFactorDeps, reservation: CodeReservation): ServiceError | undefined {
  if (reservation.capped) return codesBlockedError();
  return reservation.lockedUntil ? codesLockedError(new Date(reservation.lockedUntil), deps.clock.now()) : undefined;
}

/** Gives a slot back when its code could not be checked (the server cannot open the secret): nothing was learnt. */
export async function releaseCode(deps: TwoFactorDeps, reservation: CodeReservation): Promise<void> {
  const { database, clock } = deps;
  await database.transact(async (trx) => {
    await database.lockUser(trx, reservation.userId);
    const row = await trx.selectFrom('two_factor_failures').selectAll().where('user_id', '=', reservation.userId).executeTakeFirst();
    if (!row) return;
    const storedHere = reservation.lockedUntil !== null && row.locked_until === reservation.lockedUntil;
    await trx
      .updateTable('two_factor_failures')
      .set({
        consecutive: Math.max(0, row.consecutive - 1),
        since_lock: storedHere ? CODES_PER_LOCK - 1 : Math.max(0, row.since_lock - 1),
        locks: storedHere ? Math.max(0, row.locks - 1) : row.locks,
        locked_until: storedHere ? null : row.locked_until,
        updated_at: clock.now().toISOString(),
      })
      .where('user_id', '=', reservation.userId)
      .execute();
  });
}

/** A right code or a recovery code, in the transaction that uses it: the run of wrong codes ends. */
export async function clearCodeFailures(trx: Transaction<Database>, userId: number): Promise<void> {
  await trx.deleteFrom('two_factor_failures').where('user_id', '=', userId).execute();
}
