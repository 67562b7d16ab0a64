// Login and password change (docs/api.md, "Sessions and accounts: the rules", rules 1, 2 and 5).
import type { Kysely, Transaction } from 'kysely';
import { LRUCache } from 'lru-cache';
import type { BestEffortWriter, TransactionalDatabase } from '../../db/database.js';
import type { Database } from '../../db/types.js';
import { secondsUntil, type Clock } from '../../common/clock.js';
import { ServiceError } from '../../common/errors.js';
import { normalizeLoginIdentifier } from '../accounts/fields.js';
import { accountLockedError, type AttemptReservation, type LockoutService, type LockoutSubject } from '../passwords/lockout.js';
import type { PasswordHasher } from '../passwords/hasher.js';
import { checkNewPassword } from '../passwords/policy.js';
import { createSessionPasswordCheck } from './password-guesses.js';
import { unauthorized, type AuthenticatedSession, type SignedSession } from './records.js';
import { identifierMatches, PUBLIC_USER_COLUMNS, type PublicUser } from '../accounts/users.js';

export interface LoginResult {
  token: string;
  expiresAt: Date;
  user: PublicUser;
}

/** A right password that needs a second step (two-factor sign-in, or its set-up under REQUIRE_2FA): no session yet. */
export interface LoginChallenge {
  challenge: { purpose: 'sign_in' | 'setup'; challenge: string; expiresAt: Date };
}

/** Called after a right password (src/auth/two-factor/two-factor.ts): the second step's challenge, or undefined to sign in now. */
export type SecondStep = (
  account: { id: number; password_hash: string; status: string },
  reservation: AttemptReservation,
) => Promise<LoginChallenge['challenge'] | undefined>;

/** Password changes (right or wrong old password) per account and window, counted in this process. */
const CHANGE_PASSWORD_BUDGET = 5;
const CHANGE_PASSWORD_WINDOW_SECONDS = 15 * 60;
const CHANGE_PASSWORD_TRACKED_ACCOUNTS = 10_000;

function invalidCredentials(): ServiceError {
  return new ServiceError('INVALID_CREDENTIALS', 'The e-mail address or username, or the password, is wrong');
}

/** What a password change ends besides the other sessions: the account's API tokens unless kept. */
export interface PasswordChangeOptions {
  revokeApiTokens: boolean;
}

export interface AuthenticationDeps {
  database: TransactionalDatabase;
  clock: Clock;
  hasher: PasswordHasher;
  lockout: LockoutService;
  /** The session service (./index.ts): signing and storing a new session, revoking one. */
  sessions: {
    signSession(userId: number): Promise<SignedSession>;
    storeSession(signed: SignedSession, trx: Transaction<Database>): Promise<void>;
    revokeSession(tokenHash: string): Promise<number>;
  };
  bestEffort: BestEffortWriter;
  /** After a right password: the second step's challenge (src/auth/two-factor/challenges.ts), if any. */
  secondStep?: SecondStep;
}

/** The dependencies with the counts this process keeps (see newCounters). */
type AuthenticationContext = AuthenticationDeps &
  ReturnType<typeof newCounters> & {
    db: TransactionalDatabase['db'];
    /** Wrong old passwords count against the calling session, not the account's sign-in lock (./password-guesses.ts). */
    sessionPassword: ReturnType<typeof createSessionPasswordCheck>;
  };

function newCounters() {
  // Each password change costs two argon2 computations even with the right old password: a budget
  // per account, so that one signed-in account (or a stolen token) cannot keep the hashing busy.
  const changeBudgets = new LRUCache<number, { spent: number; since: number }>({ max: CHANGE_PASSWORD_TRACKED_ACCOUNTS });
  return { changeBudgets };
}

async function findAccount(context: AuthenticationContext, identifier: string) {
  const { db } = context;
  const { kind, value } = normalizeLoginIdentifier(identifier);
  return db
    .selectFrom('users')
    .innerJoin('auth_info', 'auth_info.user_id', 'users.id')
    .select([...PUBLIC_USER_COLUMNS, 'auth_info.password_hash', 'auth_info.status'])
    .where(identifierMatches(kind, value))
    .executeTakeFirst();
}

/** A verification the hashing queue refused (BUSY) verified nothing: its lockout slot is given back. */
async function verifyOrRelease(context: AuthenticationContext, reservation: AttemptReservation, verify: () => Promise<boolean>): Promise<boolean> {
  const { lockout } = context;
  try {
    return await verify();
  } catch (error) {
    if (error instanceof ServiceError && error.code === 'BUSY') await lockout.releaseAttempt(reservation);
    throw error;
  }
}

function spendChangeBudget(context: AuthenticationContext, userId: number): void {
  const { clock, changeBudgets } = context;
  const now = clock.now().getTime();
  const windowEnd = (since: number) => since + CHANGE_PASSWORD_WINDOW_SECONDS * 1000;
  let budget = changeBudgets.get(userId);
  if (!budget || windowEnd(budget.since) <= now) budget = { spent: 0, since: now };
  if (budget.spent >= CHANGE_PASSWORD_BUDGET) {
    throw new ServiceError('RATE_LIMITED', 'Too many password changes; try again later', secondsUntil(new Date(windowEnd(budget.since)), new Date(now)));
  }
  budget.spent += 1;
  changeBudgets.set(userId, budget);
}

/**
 * An unknown identifier goes through the same steps as a wrong password (a reserved attempt, a
 * dummy verification), so status, body and time do not tell whether an account exists.
 */
async function login(context: AuthenticationContext, identifier: string, password: string): Promise<LoginResult | LoginChallenge> {
  const { clock, hasher, lockout, sessions, bestEffort, secondStep, db } = context;
  const account = await findAccount(context, identifier);
  const subject: LockoutSubject = account ? { userId: account.id } : { identifier: normalizeLoginIdentifier(identifier).value };
  const reservation = await lockout.reserveAttempt(subject);
  const passwordMatches = await verifyOrRelease(context, reservation, () =>
    account ? hasher.verify(account.password_hash, password) : hasher.verifyAgainstDummy(password),
  );
  if (!account || !passwordMatches) throw lockout.failureOf(reservation) ?? invalidCredentials();
  // Locked by a parallel attempt meanwhile: refused like every attempt that found no slot, before signing.
  const locked = await lockout.lockedSince(reservation);
  if (locked) throw locked;
  // Two-factor sign-in: the password's slot is kept, and no session until the second step.
  const challenge = await secondStep?.(account, reservation);
  if (challenge) return { challenge };
  // argon2 and signing happen before the transaction, which must not wait for them.
  const upgradedHash = account.status === 'active' && hasher.needsRehash(account.password_hash) ? await hasher.hash(password) : undefined;
  const session = account.status === 'active' ? await sessions.signSession(account.id) : undefined;
  // One commit for the count reset, the rehash and the new session, and only if the hash that was
  // verified and the status are still the account's (a reset, a password change or `user disable`
  // may have happened during the verification). Without an fsync unless it rehashes: a session
  // lost to a power loss only means signing in again.
  const store = (executor: Kysely<Database>) =>
    executor.transaction().execute(async (trx) => {
      const nowIso = clock.now().toISOString();
      const settled = await trx
        .updateTable('auth_info')
        .set({ failed_attempts: 0, locked_until: null, updated_at: nowIso, ...(upgradedHash ? { password_hash: upgradedHash } : {}) })
        .where('user_id', '=', account.id)
        .where('password_hash', '=', account.password_hash)
        .where('status', '=', account.status)
        .where(lockout.openFor(reservation, nowIso))
        .returning('user_id')
        .executeTakeFirst();
      if (!settled) return refusalAfterVerification(context, trx, account.id, account.password_hash);
      if (session) await sessions.storeSession(session, trx);
      return undefined;
    });
  const refusal = await (upgradedHash ? store(db) : bestEffort(store));
  if (refusal) throw refusal;
  // Checked only after the password: a disabled account is not revealed to someone without it.
  if (!session) throw new ServiceError('ACCOUNT_DISABLED', 'This account is disabled');
  const { password_hash: _hash, status: _status, ...user } = account;
  return { token: session.token, expiresAt: session.expiresAt, user };
}

/** Why a verified password can no longer succeed: its hash was replaced, the account disabled or locked. */
async function refusalAfterVerification(
  context: AuthenticationContext,
  trx: Transaction<Database>,
  userId: number,
  verifiedHash: string,
): Promise<ServiceError> {
  const { clock } = context;
  const current = await trx.selectFrom('auth_info').select(['password_hash', 'status', 'locked_until']).where('user_id', '=', userId).executeTakeFirst();
  if (!current || current.password_hash !== verifiedHash) return invalidCredentials();
  const now = clock.now();
  if (current.locked_until && new Date(current.locked_until) > now) return accountLockedError(new Date(current.locked_until), now);
  return new ServiceError('ACCOUNT_DISABLED', 'This account is disabled');
}

/**
 * Changes the password of the signed-in account. A wrong old password counts against the calling
 * session (revoked at its third wrong password on any route that asks for it: ./password-guesses.ts); every other session and every pending reset
 * token is revoked on success. The new hash is stored only if the calling session still exists and
 * the verified hash and the active status are still current.
 */
async function changePassword(
  context: AuthenticationContext,
  session: AuthenticatedSession,
  oldPassword: string,
  newPassword: string,
  options: PasswordChangeOptions,
): Promise<{ revokedApiTokens: number }> {
  const { database, clock, hasher, sessionPassword } = context;
  const userId = session.user.id;
  await checkNewPassword(newPassword, 'new_password');
  const verifiedHash = await sessionPassword.check(
    { tokenHash: session.tokenHash, userId },
    oldPassword,
    // A session out of guesses is signed out before the budget is looked at.
    { wrongMessage: 'The old password is wrong', beforeVerify: () => spendChangeBudget(context, userId) },
  );
  const current = { password_hash: verifiedHash };
  const newHash = await hasher.hash(newPassword, 'account');
  return database.transact(async (trx) => {
    const nowIso = clock.now().toISOString();
    // A lock from sign-in failures does not stop the owner (who knows the password) from changing it.
    const changed = await trx
      .updateTable('auth_info')
      .set({ password_hash: newHash, failed_attempts: 0, locked_until: null, updated_at: nowIso })
      .where('user_id', '=', userId)
      .where('password_hash', '=', current.password_hash)
      .where('status', '=', 'active')
      .where((eb) => eb.exists(eb.selectFrom('auth_tokens').select('id').where('token_hash', '=', session.tokenHash)))
      .returning('user_id')
      .executeTakeFirst();
    if (!changed) {
      const own = await trx.selectFrom('auth_tokens').select('id').where('token_hash', '=', session.tokenHash).executeTakeFirst();
      // The calling session was revoked (or its account disabled) meanwhile: it may no longer act.
      if (!own) throw unauthorized();
      const now = await trx.selectFrom('auth_info').select(['password_hash']).where('user_id', '=', userId).executeTakeFirst();
      if (!now || now.password_hash !== current.password_hash) throw new ServiceError('INVALID_PASSWORD', 'The old password is wrong');
      throw unauthorized();
    }
    await trx.deleteFrom('auth_tokens').where('user_id', '=', userId).where('token_hash', '!=', session.tokenHash).execute();
    const tokens = options.revokeApiTokens ? await trx.deleteFrom('api_tokens').where('user_id', '=', userId).executeTakeFirst() : undefined;
    await trx.deleteFrom('reset_tokens').where('user_id', '=', userId).where('used_at', 'is', null).execute();
    return { revokedApiTokens: Number(tokens?.numDeletedRows ?? 0) };
  });
}

export function createAuthenticationService(deps: AuthenticationDeps) {
  const context: AuthenticationContext = { ...deps, ...newCounters(), db: deps.database.db, sessionPassword: createSessionPasswordCheck(deps) };
  return {
    login: (identifier: string, password: string) => login(context, identifier, password),
    changePassword: (session: AuthenticatedSession, oldPassword: string, newPassword: string, options: PasswordChangeOptions = { revokeApiTokens: true }) =>
      changePassword(context, session, oldPassword, newPassword, options),
  };
}
