// Every factor checked counts against the account's lockout like a password (src/auth/passwords/lockout.ts):
// a slot is reserved before the factor is checked, so however many run in parallel (or in several
// processes) at most LOCKOUT_ATTEMPTS are checked per lock window. A right password of an account
// with two-factor sign-in does not give its slot back (only the whole sign-in does), so knowing the
// password does not buy fresh guesses at the code.
import type { Transaction } from 'kysely';
import type { Database } from '../../db/types.js';
import { ServiceError } from '../../common/errors.js';
import type { AttemptReservation } from '../passwords/lockout.js';
import { checkCode, invalidCode, type CheckedCode } from './codes.js';
import type { TwoFactorDeps } from './deps.js';

export function invalidPassword(): ServiceError {
  return new ServiceError('INVALID_PASSWORD', 'The password is wrong');
}

/**
 * A code checked under a lockout slot: a wrong one keeps the slot (and may lock: 423). When the server
 * cannot open the secret (SERVER_MISCONFIGURED) nothing was learnt of the code: its slot and the
 * `earlier` slots of the same sign-in (the password's) are given back, so a misconfigured server
 * locks nobody out.
 */
export async function checkCodeCounted(
  deps: TwoFactorDeps,
  userId: number,
  email: string,
  code: string,
  allowRecovery: boolean,
  earlier: AttemptReservation[] = [],
): Promise<{ checked: CheckedCode; reservation: AttemptReservation }> {
  const { lockout } = deps;
  const reservation = await lockout.reserveAttempt({ userId });
  let checked: CheckedCode | undefined;
  try {
    checked = await checkCode(deps, userId, email, code, allowRecovery);
  } catch (error) {
    if (error instanceof ServiceError && error.code === 'SERVER_MISCONFIGURED') {
      for (const slot of [reservation, ...earlier]) await lockout.releaseAttempt(slot);
    }
    throw error;
  }
  if (!checked) throw lockout.failureOf(reservation) ?? invalidCode();
  const locked = await lockout.lockedSince(reservation);
  if (locked) throw locked;
  return { checked, reservation };
}

/** The account's password checked under a lockout slot (account lane of the hashing queue). */
export async function checkPasswordCounted(
  deps: TwoFactorDeps,
  userId: number,
  password: string,
): Promise<{ passwordHash: string; reservation: AttemptReservation }> {
  const { lockout } = deps;
  const { password_hash: passwordHash } = await deps.database.db
    .selectFrom('auth_info')
    .select('password_hash')
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
  const reservation = await lockout.reserveAttempt({ userId });
  let matches: boolean;
  try {
    matches = await deps.hasher.verify(passwordHash, password, 'account');
  } catch (error) {
    if (error instanceof ServiceError && error.code === 'BUSY') await lockout.releaseAttempt(reservation);
    throw error;
  }
  if (!matches) throw lockout.failureOf(reservation) ?? invalidPassword();
  return { passwordHash, reservation };
}

/** Ends the failure count after a whole success (all factors right), unless a parallel attempt locked meanwhile. */
export async function settleCount(deps: TwoFactorDeps, trx: Transaction<Database>, userId: number, reservation: AttemptReservation): Promise<boolean> {
  const nowIso = deps.clock.now().toISOString();
  const settled = await trx
    .updateTable('auth_info')
    .set({ failed_attempts: 0, locked_until: null, updated_at: nowIso })
    .where('user_id', '=', userId)
    .where('status', '=', 'active')
    .where(deps.lockout.openFor(reservation, nowIso))
    .returning('user_id')
    .executeTakeFirst();
  return settled !== undefined;
}
