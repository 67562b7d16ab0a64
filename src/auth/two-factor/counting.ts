// Every factor checked is counted before it is checked. A code takes a slot of the account's own count
// of wrong codes (./code-lockout.ts), apart from the sign-in lockout of passwords
// (src/auth/passwords/lockout.ts), so that neither a password reset nor `user unlock` gives fresh
// guesses at the code. The password that a signed-in session gives again (set-up, turning off, new
// recovery codes, closing) counts against that session (src/auth/sessions/password-guesses.ts), never
// against the owner's sign-in lock.
import type { Transaction } from 'kysely';
import type { Database } from '../../db/types.js';
import { ServiceError } from '../../common/errors.js';
import type { AttemptReservation } from '../passwords/lockout.js';
import { clearCodeFailures, codeFailureOf, releaseCode, reserveCode, type CodeReservation } from './code-lockout.js';
import { checkCode, invalidCode, looksLikeRecoveryCode, type CheckedCode } from './codes.js';
import type { TwoFactorDeps } from './deps.js';

export function invalidPassword(): ServiceError {
  return new ServiceError('INVALID_PASSWORD', 'The password is wrong');
}

export interface CountedCode {
  checked: CheckedCode;
  /** The slot the code took; undefined for a recovery code checked while the codes were locked. */
  reservation: CodeReservation | undefined;
}

export interface CodeCheckOptions {
  /** Recovery codes are accepted (sign-in, re-authentication), not only codes of the secret (enabling). */
  allowRecovery: boolean;
  /** The account's password was right just before: the first lock of a run is mailed to the owner. */
  afterPassword: boolean;
  /** Slots of the sign-in lockout to give back when the server cannot check codes (the password's). */
  earlier?: AttemptReservation[];
}

/** While the codes are locked (or capped) a recovery code is still checked, unslotted; anything else gets the lock's answer. */
async function checkWhileLocked(deps: TwoFactorDeps, userId: number, email: string, code: string, options: CodeCheckOptions, lock: ServiceError) {
  if (!options.allowRecovery || !looksLikeRecoveryCode(code)) throw lock;
  const checked = await checkCode(deps, userId, email, code, true);
  if (!checked) throw lock;
  return { checked, reservation: undefined };
}

/**
 * A code checked under a slot of the account's count of wrong codes: a wrong one keeps the slot (and
 * may lock: 423). When the server cannot open the secret (SERVER_MISCONFIGURED) nothing was learnt of
 * the code: its slot and the `earlier` slots of the same sign-in are given back, so a misconfigured
 * server locks nobody out.
 */
export async function checkCodeCounted(
  deps: TwoFactorDeps,
  user: { id: number; email: string },
  code: string,
  options: CodeCheckOptions,
): Promise<CountedCode> {
  let reservation: CodeReservation;
  try {
    reservation = await reserveCode(deps, user.id);
  } catch (error) {
    if (error instanceof ServiceError && error.code === 'ACCOUNT_LOCKED') return checkWhileLocked(deps, user.id, user.email, code, options, error);
    throw error;
  }
  let checked: CheckedCode | undefined;
  try {
    checked = await checkCode(deps, user.id, user.email, code, options.allowRecovery);
  } catch (error) {
    if (error instanceof ServiceError && error.code === 'SERVER_MISCONFIGURED') {
      await releaseCode(deps, reservation);
      for (const slot of options.earlier ?? []) await deps.lockout.releaseAttempt(slot);
    }
    throw error;
  }
  if (checked) return { checked, reservation };
  if (reservation.firstLock && options.afterPassword) deps.notices?.codesLocked(user);
  throw codeFailureOf(deps, reservation) ?? invalidCode();
}

/** In the transaction that uses a right code or a recovery code: the run of wrong codes ends. */
export async function settleCode(trx: Transaction<Database>, userId: number): Promise<void> {
  await clearCodeFailures(trx, userId);
}

/** Ends the password failure count after a whole sign-in (all factors right), unless a parallel attempt locked meanwhile. */
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
