// Between the password and the code is a challenge: 256 random bits, stored hashed, 5 minutes,
// bound to its account and to the password hash that was verified, used once (docs/security.md,
// "Two-factor sign-in").
import { createHash, randomBytes } from 'node:crypto';
import type { Transaction } from 'kysely';
import type { ChallengePurpose, Database } from '../../db/types.js';
import { addSeconds } from '../../common/clock.js';
import { ServiceError } from '../../common/errors.js';
import { PUBLIC_USER_COLUMNS, type PublicUser } from '../accounts/users.js';
import { accountLockedError, type AttemptReservation } from '../passwords/lockout.js';
import { hashToken } from '../sessions/records.js';
import { consume, invalidCode, isEnabled } from './codes.js';
import { checkCodeCounted, invalidPassword, settleCode, settleCount } from './counting.js';
import type { TwoFactorDeps } from './deps.js';

/** A sign-in challenge lives this long; a set-up challenge (REQUIRE_2FA) longer, for scanning a QR code. */
export const SIGN_IN_CHALLENGE_SECONDS = 5 * 60;
export const SETUP_CHALLENGE_SECONDS = 15 * 60;

/** What a right password leads to when a second step is needed. */
export interface SignInChallenge {
  purpose: ChallengePurpose;
  challenge: string;
  expiresAt: Date;
}

export interface CompletedSignIn {
  token: string;
  expiresAt: Date;
  user: PublicUser;
}

export function invalidChallenge(): ServiceError {
  return new ServiceError('INVALID_CHALLENGE', 'The sign-in challenge is unknown, expired or already used; enter the password again');
}

/** SHA-256 of a password hash: binds a challenge to the password that was verified, without copying the hash. */
export function passwordFingerprint(passwordHash: string): string {
  return createHash('sha256').update(passwordHash).digest('hex');
}

/**
 * After a right password: the challenge of the second step when the account has two-factor sign-in
 * on (or, with REQUIRE_2FA, has to set it up), else undefined (sign in as before). Called by login
 * with the password's lockout reservation: a right password in the last slot is refused like every
 * attempt of a locked account.
 */
export async function challengeAfterPassword(
  deps: TwoFactorDeps,
  account: { id: number; password_hash: string; status: string },
  reservation: AttemptReservation,
): Promise<SignInChallenge | undefined> {
  const { database, lockout } = deps;
  if (account.status !== 'active') return undefined;
  const enabled = await isEnabled(deps, account.id);
  if (!enabled && !deps.options.required) return undefined;
  const refusal = lockout.failureOf(reservation);
  if (refusal) throw refusal;
  const purpose: ChallengePurpose = enabled ? 'sign_in' : 'setup';
  const challenge = randomBytes(32).toString('base64url');
  const now = deps.clock.now();
  const expiresAt = addSeconds(now, purpose === 'sign_in' ? SIGN_IN_CHALLENGE_SECONDS : SETUP_CHALLENGE_SECONDS);
  await database.transact(async (trx) => {
    await database.lockUser(trx, account.id);
    // Without two-factor sign-in the password was the whole proof: the count ends as after a sign-in.
    if (purpose === 'setup' && !(await settleCount(deps, trx, account.id, reservation))) throw lockout.failureOf(reservation) ?? invalidPassword();
    await trx
      .insertInto('login_challenges')
      .values({
        user_id: account.id,
        token_hash: hashToken(challenge),
        purpose,
        password_fingerprint: passwordFingerprint(account.password_hash),
        created_at: now.toISOString(),
        expires_at: expiresAt.toISOString(),
        used_at: null,
      })
      .execute();
  });
  return { purpose, challenge, expiresAt };
}

/** The account of an unused, unexpired challenge of that purpose, or INVALID_CHALLENGE. */
export async function challengeAccount(deps: TwoFactorDeps, challenge: string, purpose: ChallengePurpose) {
  const found = await deps.database.db
    .selectFrom('login_challenges')
    .innerJoin('users', 'users.id', 'login_challenges.user_id')
    .select(['login_challenges.id as challenge_id', 'login_challenges.password_fingerprint', ...PUBLIC_USER_COLUMNS])
    .where('login_challenges.token_hash', '=', hashToken(challenge))
    .where('login_challenges.purpose', '=', purpose)
    .where('login_challenges.used_at', 'is', null)
    .where('login_challenges.expires_at', '>', deps.clock.now().toISOString())
    .executeTakeFirst();
  if (!found) throw invalidChallenge();
  const { challenge_id, password_fingerprint, ...user } = found;
  return { challengeId: challenge_id, fingerprint: password_fingerprint, user };
}

/**
 * In the transaction that finishes a challenge: marks it used (once), and checks that the account
 * is active and its password is still the one verified. False: a parallel request or a password
 * change got there first.
 */
export async function useChallenge(
  deps: TwoFactorDeps,
  trx: Transaction<Database>,
  challengeId: number,
  userId: number,
  fingerprint: string,
): Promise<boolean> {
  const used = await trx
    .updateTable('login_challenges')
    .set({ used_at: deps.clock.now().toISOString() })
    .where('id', '=', challengeId)
    .where('used_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  if (!used) return false;
  const auth = await trx.selectFrom('auth_info').select(['password_hash', 'status']).where('user_id', '=', userId).executeTakeFirst();
  return auth !== undefined && auth.status === 'active' && passwordFingerprint(auth.password_hash) === fingerprint;
}

/** Why a right code can no longer sign in: a parallel wrong password locked the account, or it was disabled. */
async function refusalAfterCode(deps: TwoFactorDeps, trx: Transaction<Database>, userId: number): Promise<ServiceError> {
  const auth = await trx.selectFrom('auth_info').select(['locked_until', 'status']).where('user_id', '=', userId).executeTakeFirst();
  const now = deps.clock.now();
  if (auth?.locked_until && new Date(auth.locked_until) > now) return accountLockedError(new Date(auth.locked_until), now);
  return invalidChallenge();
}

/** POST /api/auth/login/2fa: the challenge and a TOTP or recovery code; answers what login answers. */
export async function completeSignIn(deps: TwoFactorDeps, challenge: string, code: string): Promise<CompletedSignIn & { recoveryCodeUsed: boolean }> {
  const { database, sessions } = deps;
  const { challengeId, fingerprint, user } = await challengeAccount(deps, challenge, 'sign_in');
  // The password step's slot (kept until the whole sign-in succeeds) is given back too if the server cannot check codes.
  const passwordSlot: AttemptReservation = { subject: { userId: user.id }, lockedUntil: null };
  const { checked } = await checkCodeCounted(deps, user, code, { allowRecovery: true, afterPassword: true, earlier: [passwordSlot] });
  const session = await sessions.signSession(user.id);
  await database.transact(async (trx) => {
    await database.lockUser(trx, user.id);
    if (!(await useChallenge(deps, trx, challengeId, user.id, fingerprint))) throw invalidChallenge();
    if (!(await consume(deps, trx, user.id, checked))) throw invalidCode();
    await settleCode(trx, user.id);
    if (!(await settleCount(deps, trx, user.id, passwordSlot))) throw await refusalAfterCode(deps, trx, user.id);
    await sessions.storeSession(session, trx);
  });
  return { token: session.token, expiresAt: session.expiresAt, user, recoveryCodeUsed: checked.kind === 'recovery' };
}
