// The owner of a session proves it again before a change that could take the account over or end it
// (turning two-factor sign-in off, new recovery codes, closing the account): the current password and,
// when two-factor sign-in is on, a code, each counted against the lockout like a sign-in. The change
// then runs in one transaction in which the calling session still exists (it may have been revoked
// meanwhile) and the code is used once.
import type { Transaction } from 'kysely';
import type { Database } from '../../db/types.js';
import { ServiceError, validationError } from '../../common/errors.js';
import type { PublicUser } from '../accounts/users.js';
import { requireLiveSession } from '../sessions/records.js';
import { consume, invalidCode, isEnabled, newRecoveryCodes, removeTwoFactor, replaceRecoveryCodes, revokeOtherSessions } from './codes.js';
import { checkCodeCounted, checkPasswordCounted, settleCount } from './counting.js';
import type { TwoFactorDeps } from './deps.js';

/** The calling session: its account and its token hash. */
export interface CallingSession {
  user: PublicUser;
  tokenHash: string;
}

export interface ReauthenticationOptions {
  /** Refuse with TWO_FACTOR_NOT_ENABLED when the account has no two-factor sign-in (rather than asking the password alone). */
  twoFactorRequired?: boolean;
}

function notEnabled(): ServiceError {
  return new ServiceError('TWO_FACTOR_NOT_ENABLED', 'Two-factor sign-in is not on for this account');
}

/**
 * The password and, when two-factor sign-in is on, a code (TOTP or recovery), both counted like a
 * sign-in; then `change` in one transaction, only while the calling session still exists.
 */
export async function reauthenticate<T>(
  deps: TwoFactorDeps,
  session: CallingSession,
  password: string,
  code: string | undefined,
  change: (trx: Transaction<Database>) => Promise<T>,
  options: ReauthenticationOptions = {},
): Promise<T> {
  const { database } = deps;
  const { user } = session;
  const withCode = await isEnabled(deps, user.id);
  if (!withCode && options.twoFactorRequired) throw notEnabled();
  if (withCode && code === undefined) throw validationError('code is required: two-factor sign-in is on for this account', 'code');
  const first = await checkPasswordCounted(deps, user.id, password);
  const second = withCode ? await checkCodeCounted(deps, user.id, user.email, code!, true, [first.reservation]) : undefined;
  return database.transact(async (trx) => {
    await database.lockUser(trx, user.id);
    await requireLiveSession(trx, session.tokenHash);
    if (second) {
      if (!(await consume(deps, trx, user.id, second.checked))) throw invalidCode();
      await settleCount(deps, trx, user.id, second.reservation);
    } else {
      // A right password alone (no two-factor sign-in) gives its slot back, as at sign-in: else every
      // confirmed change (a new API token) would spend one, and a few would lock the owner out.
      await settleCount(deps, trx, user.id, first.reservation);
    }
    return change(trx);
  });
}

/** Turns two-factor sign-in off (password and a code); every other session of the account ends. */
export async function disable(deps: TwoFactorDeps, user: PublicUser, password: string, code: string, tokenHash: string): Promise<{ revokedSessions: number }> {
  if (deps.options.required) throw new ServiceError('TWO_FACTOR_REQUIRED', 'This server requires two-factor sign-in (REQUIRE_2FA); it cannot be turned off');
  const session = { user, tokenHash };
  return reauthenticate(
    deps,
    session,
    password,
    code,
    async (trx) => {
      await removeTwoFactor(trx, user.id);
      return { revokedSessions: await revokeOtherSessions(trx, user.id, tokenHash) };
    },
    { twoFactorRequired: true },
  );
}

/** A new set of recovery codes (password and a code); the old set stops working. */
export async function regenerateRecoveryCodes(deps: TwoFactorDeps, user: PublicUser, password: string, code: string, tokenHash: string): Promise<string[]> {
  const { codes, hashes } = newRecoveryCodes();
  await reauthenticate(deps, { user, tokenHash }, password, code, (trx) => replaceRecoveryCodes(deps, trx, user.id, hashes), { twoFactorRequired: true });
  return codes;
}
