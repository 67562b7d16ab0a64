// Two-factor sign-in with TOTP (RFC 6238: SHA-1, 6 digits, 30-second steps, by otpauth) and recovery
// codes (docs/api.md, "Two-factor sign-in"; docs/security.md, "Two-factor sign-in").
//
// - The secret is sealed with a key that is not in the database (src/auth/secret-box.ts).
// - A code is accepted once: the step of the last accepted code is stored, and only a later step is
//   accepted (one step of clock drift either way); the store is a conditional UPDATE in the
//   transaction that signs in, so two parallel uses of one code give one session.
// - Recovery codes: 10 of 80 random bits, shown once, stored as SHA-256, each used once (a
//   conditional UPDATE … WHERE used_at IS NULL).
// - Every code checked counts against the account's lockout like a password (src/auth/passwords/lockout.ts): a
//   slot is reserved before the code is checked, so however many run in parallel (or in several
//   processes) at most LOCKOUT_ATTEMPTS are checked per lock window. A right password of an account
//   with two-factor sign-in does not give its slot back (only the whole sign-in does), so knowing the
//   password does not buy fresh guesses at the code.
// - Between the password and the code is a challenge: 256 random bits, stored hashed, 5 minutes,
//   bound to its account and to the password hash that was verified, used once.
import { createHash, randomBytes, randomInt } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { Secret, TOTP } from 'otpauth';
import type { Logger } from 'pino';
import type { TransactionalDatabase } from '../../db/database.js';
import type { ChallengePurpose, Database } from '../../db/types.js';
import { addSeconds, type Clock } from '../../common/clock.js';
import { ServiceError } from '../../common/errors.js';
import { accountLockedError, type AttemptReservation, type LockoutService } from '../passwords/lockout.js';
import type { PasswordHasher } from '../passwords/hasher.js';
import { SealedSecretError, type SecretBox } from '../secret-box.js';
import { hashToken, type SessionService, type SignedSession } from '../sessions/sessions.js';
import { PUBLIC_USER_COLUMNS, type PublicUser } from '../accounts/users.js';

export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Steps of clock drift accepted either way. */
export const TOTP_WINDOW = 1;
export const RECOVERY_CODE_COUNT = 10;
/** A sign-in challenge lives this long; a set-up challenge (REQUIRE_2FA) longer, for scanning a QR code. */
export const SIGN_IN_CHALLENGE_SECONDS = 5 * 60;
export const SETUP_CHALLENGE_SECONDS = 15 * 60;
const ISSUER = 'timetrack';
/** Crockford's base32 alphabet: no i, l, o, u to misread. */
const RECOVERY_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const RECOVERY_CODE_LENGTH = 16;

export interface TwoFactorStatus {
  enabled: boolean;
  /** Set up (a secret made) but not yet confirmed with a code. */
  pending: boolean;
  recovery_codes_remaining: number;
  /** REQUIRE_2FA: the server asks it of every account, so it cannot be turned off. */
  required: boolean;
}

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

interface CheckedCode {
  kind: 'totp' | 'recovery';
  /** The TOTP step, or the recovery code's row id. */
  value: number;
}

export function invalidCode(): ServiceError {
  return new ServiceError('INVALID_TWO_FACTOR_CODE', 'The code is wrong, expired or already used');
}

export function invalidChallenge(): ServiceError {
  return new ServiceError('INVALID_CHALLENGE', 'The sign-in challenge is unknown, expired or already used; enter the password again');
}

function invalidPassword(): ServiceError {
  return new ServiceError('INVALID_PASSWORD', 'The password is wrong');
}

/** Digits and letters only, lower-case, with Crockford's look-alikes folded (o → 0, i and l → 1). */
function normalizeCode(code: string): string {
  return code.replace(/[\s-]/g, '').toLowerCase().replace(/o/g, '0').replace(/[il]/g, '1');
}

function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < RECOVERY_CODE_LENGTH; i += 1) code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return code.match(/.{4}/g)!.join('-');
}

/**
 * SHA-256 of a normalised recovery code, hex. 80 random bits need no slow or keyed hash (2^80 guesses
 * per code offline), and an unkeyed one keeps the codes working when the server secret changes, which
 * is when they are needed most (the sealed TOTP secrets then no longer open).
 */
function recoveryCodeHash(normalized: string): string {
  return createHash('sha256').update(normalized).digest('hex');
}

/** SHA-256 of a password hash: binds a challenge to the password that was verified, without copying the hash. */
export function passwordFingerprint(passwordHash: string): string {
  return createHash('sha256').update(passwordHash).digest('hex');
}

export interface TwoFactorOptions {
  /** REQUIRE_2FA: accounts without it sign in only far enough to set it up. */
  required: boolean;
}

export function createTwoFactorService(
  database: TransactionalDatabase,
  clock: Clock,
  hasher: PasswordHasher,
  lockout: LockoutService,
  sessions: SessionService,
  box: SecretBox,
  logger: Pick<Logger, 'error'>,
  options: TwoFactorOptions,
) {
  const { db } = database;

  function totpOf(secretBase32: string, label: string): TOTP {
    return new TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS, secret: Secret.fromBase32(secretBase32) });
  }

  async function row(userId: number, executor: Kysely<Database> = db) {
    return executor.selectFrom('two_factor').selectAll().where('user_id', '=', userId).executeTakeFirst();
  }

  async function isEnabled(userId: number): Promise<boolean> {
    return (await row(userId))?.enabled_at != null;
  }

  async function status(userId: number): Promise<TwoFactorStatus> {
    const current = await row(userId);
    const { count } = await db
      .selectFrom('two_factor_recovery_codes')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .executeTakeFirstOrThrow();
    return { enabled: current?.enabled_at != null, pending: current !== undefined && current.enabled_at === null, recovery_codes_remaining: current?.enabled_at != null ? Number(count) : 0, required: options.required };
  }

  /**
   * Checks a code against the account's secret (TOTP, with TOTP_WINDOW steps of drift and never a
   * step at or before the last one used) or, once enabled, its unused recovery codes. Does not store
   * the use: `consume` does that in the caller's transaction.
   */
  async function checkCode(userId: number, email: string, code: string, allowRecovery: boolean): Promise<CheckedCode | undefined> {
    const current = await row(userId);
    if (!current) return undefined;
    const normalized = normalizeCode(code);
    if (/^\d{6}$/.test(normalized)) {
      let secret: string;
      try {
        secret = box.open(current.secret_ciphertext, `two-factor:${userId}`);
      } catch (error) {
        if (!(error instanceof SealedSecretError)) throw error;
        // The server secret changed since it was set up (docs/security.md): recovery codes still work.
        logger.error({ user_id: userId }, 'a two-factor secret does not open with the configured server secret (was JWT_SECRET or the secret file changed?); the account can sign in with a recovery code');
        return undefined;
      }
      const timestamp = clock.now().getTime();
      const delta = totpOf(secret, email).validate({ token: normalized, timestamp, window: TOTP_WINDOW });
      if (delta === null) return undefined;
      const step = Math.floor(timestamp / 1000 / TOTP_PERIOD_SECONDS) + delta;
      if (current.last_used_step !== null && step <= current.last_used_step) return undefined;
      return { kind: 'totp', value: step };
    }
    if (!allowRecovery || current.enabled_at === null || normalized.length !== RECOVERY_CODE_LENGTH) return undefined;
    const found = await db
      .selectFrom('two_factor_recovery_codes')
      .select('id')
      .where('user_id', '=', userId)
      .where('code_hash', '=', recoveryCodeHash(normalized))
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return found ? { kind: 'recovery', value: found.id } : undefined;
  }

  /** Stores the use of a checked code; false when a parallel request used it (or a later step) first. */
  async function consume(trx: Transaction<Database>, userId: number, checked: CheckedCode): Promise<boolean> {
    const nowIso = clock.now().toISOString();
    if (checked.kind === 'totp') {
      const updated = await trx
        .updateTable('two_factor')
        .set({ last_used_step: checked.value, updated_at: nowIso })
        .where('user_id', '=', userId)
        .where((eb) => eb.or([eb('last_used_step', 'is', null), eb('last_used_step', '<', checked.value)]))
        .returning('user_id')
        .executeTakeFirst();
      return updated !== undefined;
    }
    const used = await trx
      .updateTable('two_factor_recovery_codes')
      .set({ used_at: nowIso })
      .where('id', '=', checked.value)
      .where('user_id', '=', userId)
      .where('used_at', 'is', null)
      .returning('id')
      .executeTakeFirst();
    return used !== undefined;
  }

  /** A code checked under a lockout slot: a wrong one keeps the slot (and may lock: 423). */
  async function checkCodeCounted(userId: number, email: string, code: string, allowRecovery: boolean): Promise<{ checked: CheckedCode; reservation: AttemptReservation }> {
    const reservation = await lockout.reserveAttempt({ userId });
    const checked = await checkCode(userId, email, code, allowRecovery);
    if (!checked) throw lockout.failureOf(reservation) ?? invalidCode();
    const locked = await lockout.lockedSince(reservation);
    if (locked) throw locked;
    return { checked, reservation };
  }

  /** The account's password checked under a lockout slot (account lane of the hashing queue). */
  async function checkPasswordCounted(userId: number, password: string): Promise<{ passwordHash: string; reservation: AttemptReservation }> {
    const { password_hash: passwordHash } = await db.selectFrom('auth_info').select('password_hash').where('user_id', '=', userId).executeTakeFirstOrThrow();
    const reservation = await lockout.reserveAttempt({ userId });
    let matches: boolean;
    try {
      matches = await hasher.verify(passwordHash, password, 'account');
    } catch (error) {
      if (error instanceof ServiceError && error.code === 'BUSY') await lockout.releaseAttempt(reservation);
      throw error;
    }
    if (!matches) throw lockout.failureOf(reservation) ?? invalidPassword();
    return { passwordHash, reservation };
  }

  /** Ends the failure count after a whole success (all factors right), unless a parallel attempt locked meanwhile. */
  async function settleCount(trx: Transaction<Database>, userId: number, reservation: AttemptReservation): Promise<boolean> {
    const nowIso = clock.now().toISOString();
    const settled = await trx
      .updateTable('auth_info')
      .set({ failed_attempts: 0, locked_until: null, updated_at: nowIso })
      .where('user_id', '=', userId)
      .where('status', '=', 'active')
      .where(lockout.openFor(reservation, nowIso))
      .returning('user_id')
      .executeTakeFirst();
    return settled !== undefined;
  }

  /** Why a right code can no longer sign in: a parallel attempt locked the account, or it was disabled. */
  async function refusalAfterCode(trx: Transaction<Database>, userId: number, reservation: AttemptReservation): Promise<ServiceError> {
    const own = lockout.failureOf(reservation);
    if (own) return own;
    const auth = await trx.selectFrom('auth_info').select(['locked_until', 'status']).where('user_id', '=', userId).executeTakeFirst();
    const now = clock.now();
    if (auth?.locked_until && new Date(auth.locked_until) > now) return accountLockedError(new Date(auth.locked_until), now);
    return invalidChallenge();
  }

  function newRecoveryCodes(): { codes: string[]; hashes: string[] } {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    return { codes, hashes: codes.map((code) => recoveryCodeHash(normalizeCode(code))) };
  }

  async function replaceRecoveryCodes(trx: Transaction<Database>, userId: number, hashes: string[]): Promise<void> {
    const nowIso = clock.now().toISOString();
    await trx.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
    await trx.insertInto('two_factor_recovery_codes').values(hashes.map((code_hash) => ({ user_id: userId, code_hash, created_at: nowIso, used_at: null }))).execute();
  }

  /** Deletes every session of the account but `keepTokenHash` (all when undefined). */
  async function revokeOtherSessions(trx: Transaction<Database>, userId: number, keepTokenHash: string | undefined): Promise<number> {
    let query = trx.deleteFrom('auth_tokens').where('user_id', '=', userId);
    if (keepTokenHash !== undefined) query = query.where('token_hash', '!=', keepTokenHash);
    return Number((await query.executeTakeFirst()).numDeletedRows);
  }

  // --- Challenges ---------------------------------------------------------------------------------

  /**
   * After a right password: the challenge of the second step when the account has two-factor sign-in
   * on (or, with REQUIRE_2FA, has to set it up), else undefined (sign in as before). Called by login
   * with the password's lockout reservation: a right password in the last slot is refused like every
   * attempt of a locked account.
   */
  async function challengeAfterPassword(account: { id: number; password_hash: string; status: string }, reservation: AttemptReservation): Promise<SignInChallenge | undefined> {
    if (account.status !== 'active') return undefined;
    const enabled = await isEnabled(account.id);
    if (!enabled && !options.required) return undefined;
    const refusal = lockout.failureOf(reservation);
    if (refusal) throw refusal;
    const purpose: ChallengePurpose = enabled ? 'sign_in' : 'setup';
    const challenge = randomBytes(32).toString('base64url');
    const now = clock.now();
    const expiresAt = addSeconds(now, purpose === 'sign_in' ? SIGN_IN_CHALLENGE_SECONDS : SETUP_CHALLENGE_SECONDS);
    await database.transact(async (trx) => {
      await database.lockUser(trx, account.id);
      // Without two-factor sign-in the password was the whole proof: the count ends as after a sign-in.
      if (purpose === 'setup' && !(await settleCount(trx, account.id, reservation))) throw lockout.failureOf(reservation) ?? invalidPassword();
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
  async function challengeAccount(challenge: string, purpose: ChallengePurpose) {
    const found = await db
      .selectFrom('login_challenges')
      .innerJoin('users', 'users.id', 'login_challenges.user_id')
      .select(['login_challenges.id as challenge_id', 'login_challenges.password_fingerprint', ...PUBLIC_USER_COLUMNS])
      .where('login_challenges.token_hash', '=', hashToken(challenge))
      .where('login_challenges.purpose', '=', purpose)
      .where('login_challenges.used_at', 'is', null)
      .where('login_challenges.expires_at', '>', clock.now().toISOString())
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
  async function useChallenge(trx: Transaction<Database>, challengeId: number, userId: number, fingerprint: string): Promise<boolean> {
    const used = await trx
      .updateTable('login_challenges')
      .set({ used_at: clock.now().toISOString() })
      .where('id', '=', challengeId)
      .where('used_at', 'is', null)
      .returning('id')
      .executeTakeFirst();
    if (!used) return false;
    const auth = await trx.selectFrom('auth_info').select(['password_hash', 'status']).where('user_id', '=', userId).executeTakeFirst();
    return auth !== undefined && auth.status === 'active' && passwordFingerprint(auth.password_hash) === fingerprint;
  }

  /** POST /api/auth/login/2fa: the challenge and a TOTP or recovery code; answers what login answers. */
  async function completeSignIn(challenge: string, code: string): Promise<CompletedSignIn & { recoveryCodeUsed: boolean }> {
    const { challengeId, fingerprint, user } = await challengeAccount(challenge, 'sign_in');
    const { checked, reservation } = await checkCodeCounted(user.id, user.email, code, true);
    const session: SignedSession = await sessions.signSession(user.id);
    await database.transact(async (trx) => {
      await database.lockUser(trx, user.id);
      if (!(await useChallenge(trx, challengeId, user.id, fingerprint))) throw invalidChallenge();
      if (!(await consume(trx, user.id, checked))) throw invalidCode();
      if (!(await settleCount(trx, user.id, reservation))) throw await refusalAfterCode(trx, user.id, reservation);
      await sessions.storeSession(session, trx);
    });
    return { token: session.token, expiresAt: session.expiresAt, user, recoveryCodeUsed: checked.kind === 'recovery' };
  }

  // --- Set-up, enable, disable, new recovery codes -------------------------------------------------

  /** A new (pending) secret for the account: `secret` (base32) and the `otpauth://` URI for an app. */
  async function setUp(user: PublicUser): Promise<{ secret: string; otpauth_uri: string }> {
    const secret = new Secret({ size: 20 });
    const nowIso = clock.now().toISOString();
    const sealed = box.seal(secret.base32, `two-factor:${user.id}`);
    await database.transact(async (trx) => {
      await database.lockUser(trx, user.id);
      if ((await row(user.id, trx))?.enabled_at != null) throw alreadyEnabled();
      await trx.deleteFrom('two_factor').where('user_id', '=', user.id).execute();
      await trx.insertInto('two_factor').values({ user_id: user.id, secret_ciphertext: sealed, enabled_at: null, last_used_step: null, created_at: nowIso, updated_at: nowIso }).execute();
    });
    return { secret: secret.base32, otpauth_uri: totpOf(secret.base32, user.email).toString() };
  }

  function alreadyEnabled(): ServiceError {
    return new ServiceError('TWO_FACTOR_ALREADY_ENABLED', 'Two-factor sign-in is already on; turn it off first to set up another device');
  }

  function notEnabled(): ServiceError {
    return new ServiceError('TWO_FACTOR_NOT_ENABLED', 'Two-factor sign-in is not on for this account');
  }

  /** POST /2fa/setup with a session: the current password first (counted like a sign-in). */
  async function setUpWithPassword(user: PublicUser, password: string): Promise<{ secret: string; otpauth_uri: string }> {
    if (await isEnabled(user.id)) throw alreadyEnabled();
    const { reservation } = await checkPasswordCounted(user.id, password);
    // The password alone is the whole proof of an account without two-factor sign-in.
    await database.transact(async (trx) => {
      await settleCount(trx, user.id, reservation);
    });
    return setUp(user);
  }

  /** POST /2fa/setup with a set-up challenge (REQUIRE_2FA): the challenge is the proof of the password. */
  async function setUpWithChallenge(challenge: string): Promise<{ secret: string; otpauth_uri: string }> {
    const { user } = await challengeAccount(challenge, 'setup');
    return setUp(user);
  }

  /**
   * Confirms the pending secret with a code: two-factor sign-in is on, 10 new recovery codes are made
   * (answered once), and every session of the account but `keepTokenHash` ends. With a set-up
   * challenge instead, the challenge is used and a new session answered.
   */
  async function enable(user: PublicUser, code: string, keepTokenHash: string | undefined, finish?: { challengeId: number; fingerprint: string }) {
    const current = await row(user.id);
    if (!current) throw new ServiceError('TWO_FACTOR_NOT_ENABLED', 'Set two-factor sign-in up first (POST /api/auth/2fa/setup)');
    if (current.enabled_at !== null) throw alreadyEnabled();
    const { checked, reservation } = await checkCodeCounted(user.id, user.email, code, false);
    const { codes, hashes } = newRecoveryCodes();
    const session = finish ? await sessions.signSession(user.id) : undefined;
    const revoked = await database.transact(async (trx) => {
      await database.lockUser(trx, user.id);
      if (finish && !(await useChallenge(trx, finish.challengeId, user.id, finish.fingerprint))) throw invalidChallenge();
      if (keepTokenHash !== undefined && !(await trx.selectFrom('auth_tokens').select('id').where('token_hash', '=', keepTokenHash).executeTakeFirst())) {
        throw new ServiceError('UNAUTHORIZED', 'Authentication required: a valid session token is missing');
      }
      const enabled = await trx
        .updateTable('two_factor')
        .set({ enabled_at: clock.now().toISOString(), updated_at: clock.now().toISOString() })
        .where('user_id', '=', user.id)
        .where('enabled_at', 'is', null)
        .where('secret_ciphertext', '=', current.secret_ciphertext)
        .returning('user_id')
        .executeTakeFirst();
      if (!enabled) throw invalidCode();
      if (!(await consume(trx, user.id, checked))) throw invalidCode();
      await settleCount(trx, user.id, reservation);
      await replaceRecoveryCodes(trx, user.id, hashes);
      const count = await revokeOtherSessions(trx, user.id, keepTokenHash);
      if (session) await sessions.storeSession(session, trx);
      return count;
    });
    return { recoveryCodes: codes, revokedSessions: revoked, session };
  }

  async function enableWithSession(user: PublicUser, code: string, tokenHash: string) {
    return enable(user, code, tokenHash);
  }

  async function enableWithChallenge(challenge: string, code: string) {
    const { challengeId, fingerprint, user } = await challengeAccount(challenge, 'setup');
    const result = await enable(user, code, undefined, { challengeId, fingerprint });
    return { ...result, user };
  }

  /** Password and a code (TOTP or recovery), both counted like a sign-in; then `change` in one transaction. */
  async function withBothFactors<T>(user: PublicUser, password: string, code: string, tokenHash: string, change: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
    if (!(await isEnabled(user.id))) throw notEnabled();
    await checkPasswordCounted(user.id, password);
    const { checked, reservation } = await checkCodeCounted(user.id, user.email, code, true);
    return database.transact(async (trx) => {
      await database.lockUser(trx, user.id);
      if (!(await trx.selectFrom('auth_tokens').select('id').where('token_hash', '=', tokenHash).executeTakeFirst())) {
        throw new ServiceError('UNAUTHORIZED', 'Authentication required: a valid session token is missing');
      }
      if (!(await consume(trx, user.id, checked))) throw invalidCode();
      await settleCount(trx, user.id, reservation);
      return change(trx);
    });
  }

  /** Turns two-factor sign-in off (password and a code); every other session of the account ends. */
  async function disable(user: PublicUser, password: string, code: string, tokenHash: string): Promise<{ revokedSessions: number }> {
    if (options.required) throw new ServiceError('TWO_FACTOR_REQUIRED', 'This server requires two-factor sign-in (REQUIRE_2FA); it cannot be turned off');
    return withBothFactors(user, password, code, tokenHash, async (trx) => {
      await trx.deleteFrom('two_factor_recovery_codes').where('user_id', '=', user.id).execute();
      await trx.deleteFrom('two_factor').where('user_id', '=', user.id).execute();
      await trx.deleteFrom('login_challenges').where('user_id', '=', user.id).execute();
      return { revokedSessions: await revokeOtherSessions(trx, user.id, tokenHash) };
    });
  }

  /** A new set of recovery codes (password and a code); the old set stops working. */
  async function regenerateRecoveryCodes(user: PublicUser, password: string, code: string, tokenHash: string): Promise<string[]> {
    const { codes, hashes } = newRecoveryCodes();
    await withBothFactors(user, password, code, tokenHash, (trx) => replaceRecoveryCodes(trx, user.id, hashes));
    return codes;
  }

  /** `timetrack user 2fa-reset`: off, recovery codes and challenges gone, every session ended. */
  async function resetByOperator(userId: number): Promise<{ wasEnabled: boolean; revokedSessions: number }> {
    return database.transact(async (trx) => {
      await database.lockUser(trx, userId);
      const wasEnabled = (await row(userId, trx))?.enabled_at != null;
      await trx.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
      await trx.deleteFrom('two_factor').where('user_id', '=', userId).execute();
      await trx.deleteFrom('login_challenges').where('user_id', '=', userId).execute();
      return { wasEnabled, revokedSessions: await revokeOtherSessions(trx, userId, undefined) };
    });
  }

  /**
   * At the start of `serve` with REQUIRE_2FA: ends the sessions of accounts without two-factor sign-in
   * (made before the setting), so that none of them goes on past what the setting allows.
   */
  async function deleteSessionsWithoutTwoFactor(): Promise<number> {
    const result = await db
      .deleteFrom('auth_tokens')
      .where((eb) => eb.not(eb.exists(eb.selectFrom('two_factor').select('two_factor.user_id').whereRef('two_factor.user_id', '=', 'auth_tokens.user_id').where('two_factor.enabled_at', 'is not', null))))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  return {
    deleteSessionsWithoutTwoFactor,
    isEnabled,
    status,
    challengeAfterPassword,
    completeSignIn,
    setUpWithPassword,
    setUpWithChallenge,
    enableWithSession,
    enableWithChallenge,
    disable,
    regenerateRecoveryCodes,
    resetByOperator,
    checkPasswordCounted,
    checkCodeCounted,
    consume,
    settleCount,
  };
}

