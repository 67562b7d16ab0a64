// Setting two-factor sign-in up (docs/api.md, "Two-factor sign-in"): a pending secret first, then a
// code of it before it counts; enabling ends every other session of the account.
import { Secret } from 'otpauth';
import { ServiceError } from '../../common/errors.js';
import type { PublicUser } from '../accounts/users.js';
import { requireLiveSession } from '../sessions/records.js';
import { challengeAccount, invalidChallenge, passwordFingerprint, useChallenge } from './challenges.js';
import { consume, invalidCode, isEnabled, newRecoveryCodes, replaceRecoveryCodes, revokeOtherSessions, totpOf, twoFactorRow } from './codes.js';
import { checkCodeCounted, settleCode } from './counting.js';
import type { TwoFactorDeps } from './deps.js';

export function alreadyEnabled(): ServiceError {
  return new ServiceError('TWO_FACTOR_ALREADY_ENABLED', 'Two-factor sign-in is already on; turn it off first to set up another device');
}

/** A new (pending) secret for the account: `secret` (base32) and the `otpauth://` URI for an app. */
async function setUp(deps: TwoFactorDeps, user: PublicUser): Promise<{ secret: string; otpauth_uri: string }> {
  const { database } = deps;
  const secret = new Secret({ size: 20 });
  const nowIso = deps.clock.now().toISOString();
  const sealed = deps.box.seal(secret.base32, `two-factor:${user.id}`);
  await database.transact(async (trx) => {
    await database.lockUser(trx, user.id);
    if ((await twoFactorRow(trx, user.id))?.enabled_at != null) throw alreadyEnabled();
    await trx.deleteFrom('two_factor').where('user_id', '=', user.id).execute();
    await trx
      .insertInto('two_factor')
      .values({ user_id: user.id, secret_ciphertext: sealed, enabled_at: null, last_used_step: null, created_at: nowIso, updated_at: nowIso })
      .execute();
  });
  return { secret: secret.base32, otpauth_uri: totpOf(secret.base32, user.email).toString() };
}

/** POST /2fa/setup with a session: the current password first (counted against the session). */
export async function setUpWithPassword(
  deps: TwoFactorDeps,
  user: PublicUser,
  password: string,
  tokenHash: string,
): Promise<{ secret: string; otpauth_uri: string }> {
  if (await isEnabled(deps, user.id)) throw alreadyEnabled();
  await deps.sessionPassword.check({ tokenHash, userId: user.id }, password);
  return setUp(deps, user);
}

/** POST /2fa/setup with a set-up challenge (REQUIRE_2FA): the challenge is the proof of the password. */
export async function setUpWithChallenge(deps: TwoFactorDeps, challenge: string): Promise<{ secret: string; otpauth_uri: string }> {
  const { user, fingerprint } = await challengeAccount(deps, challenge, 'setup');
  // Made with a password that is no longer the account's (a reset since): void, as at enabling.
  const auth = await deps.database.db.selectFrom('auth_info').select('password_hash').where('user_id', '=', user.id).executeTakeFirst();
  if (!auth || passwordFingerprint(auth.password_hash) !== fingerprint) throw invalidChallenge();
  return setUp(deps, user);
}

/**
 * Confirms the pending secret with a code: two-factor sign-in is on, 10 new recovery codes are made
 * (answered once), and every session of the account but `keepTokenHash` ends. With a set-up
 * challenge instead, the challenge is used and a new session answered.
 */
async function enable(
  deps: TwoFactorDeps,
  user: PublicUser,
  code: string,
  keepTokenHash: string | undefined,
  finish?: { challengeId: number; fingerprint: string },
) {
  const { database, clock, sessions } = deps;
  const current = await twoFactorRow(database.db, user.id);
  if (!current) throw new ServiceError('TWO_FACTOR_NOT_ENABLED', 'Set two-factor sign-in up first (POST /api/auth/2fa/setup)');
  if (current.enabled_at !== null) throw alreadyEnabled();
  const { checked } = await checkCodeCounted(deps, user, code, { allowRecovery: false, afterPassword: false });
  const { codes, hashes } = newRecoveryCodes();
  const session = finish ? await sessions.signSession(user.id) : undefined;
  const revoked = await database.transact(async (trx) => {
    await database.lockUser(trx, user.id);
    if (finish && !(await useChallenge(deps, trx, finish.challengeId, user.id, finish.fingerprint))) throw invalidChallenge();
    if (keepTokenHash !== undefined) await requireLiveSession(trx, keepTokenHash);
    const enabled = await trx
      .updateTable('two_factor')
      .set({ enabled_at: clock.now().toISOString(), updated_at: clock.now().toISOString() })
      .where('user_id', '=', user.id)
      .where('enabled_at', 'is', null)
      .where('secret_ciphertext', '=', current.secret_ciphertext)
      .returning('user_id')
      .executeTakeFirst();
    if (!enabled) throw invalidCode();
    if (!(await consume(deps, trx, user.id, checked))) throw invalidCode();
    await settleCode(trx, user.id);
    await replaceRecoveryCodes(deps, trx, user.id, hashes);
    const count = await revokeOtherSessions(trx, user.id, keepTokenHash);
    if (session) await sessions.storeSession(session, trx);
    return count;
  });
  return { recoveryCodes: codes, revokedSessions: revoked, session };
}

export async function enableWithSession(deps: TwoFactorDeps, user: PublicUser, code: string, tokenHash: string) {
  return enable(deps, user, code, tokenHash);
}

export async function enableWithChallenge(deps: TwoFactorDeps, challenge: string, code: string) {
  const { challengeId, fingerprint, user } = await challengeAccount(deps, challenge, 'setup');
  const result = await enable(deps, user, code, undefined, { challengeId, fingerprint });
  return { ...result, user };
}
