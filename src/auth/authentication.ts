// Login and password change (docs/api.md, Sessions and accounts: the rules).
import type { Kysely } from 'kysely';
import type { BestEffortWriter } from '../db/database.js';
import type { Database } from '../db/types.js';
import type { Clock } from '../shared/clock.js';
import { ServiceError } from '../shared/errors.js';
import { normalizeLoginIdentifier } from './account-fields.js';
import type { LockoutService, LockoutSubject } from './lockout.js';
import type { PasswordHasher } from './password-hasher.js';
import { checkNewPassword } from './password-policy.js';
import type { AuthenticatedSession, SessionService } from './sessions.js';
import { PUBLIC_USER_COLUMNS, type PublicUser } from './users.js';

export interface LoginResult {
  token: string;
  expiresAt: Date;
  user: PublicUser;
}

function invalidCredentials(): ServiceError {
  return new ServiceError('INVALID_CREDENTIALS', 'The e-mail address or username, or the password, is wrong');
}

export function createAuthenticationService(
  db: Kysely<Database>,
  clock: Clock,
  hasher: PasswordHasher,
  lockout: LockoutService,
  sessions: SessionService,
  bestEffort: BestEffortWriter,
) {
  async function findAccount(identifier: string) {
    const { kind, value } = normalizeLoginIdentifier(identifier);
    return db
      .selectFrom('users')
      .innerJoin('auth_info', 'auth_info.user_id', 'users.id')
      .select([...PUBLIC_USER_COLUMNS, 'auth_info.password_hash', 'auth_info.status'])
      .where(kind === 'email' ? 'users.email' : 'users.username', '=', value)
      .executeTakeFirst();
  }

  /**
   * An unknown identifier goes through the same steps as a wrong password (a dummy verification,
   * a counted failure), so status, body and time do not tell whether an account exists.
   */
  async function login(identifier: string, password: string): Promise<LoginResult> {
    const account = await findAccount(identifier);
    const subject: LockoutSubject = account ? { userId: account.id } : { identifier: normalizeLoginIdentifier(identifier).value };
    await lockout.assertNotLocked(subject);

    const passwordMatches = account ? await hasher.verify(account.password_hash, password) : await hasher.verifyAgainstDummy(password);
    if (!account || !passwordMatches) {
      throw (await lockout.recordFailure(subject)) ?? invalidCredentials();
    }
    // Checked only after the password: a disabled account is not revealed to someone without it.
    if (account.status === 'disabled') {
      await db.transaction().execute((trx) => lockout.recordSuccess(account.id, trx));
      throw new ServiceError('ACCOUNT_DISABLED', 'This account is disabled');
    }
    // argon2 and signing happen before the transaction, which must not wait for them.
    const upgradedHash = hasher.needsRehash(account.password_hash) ? await hasher.hash(password) : undefined;
    const session = await sessions.signSession(account.id);
    // One commit for the count reset, the rehash and the new session. Without an fsync unless it
    // rehashes: a session lost to a power loss only means signing in again.
    const store = (executor: Kysely<Database>) =>
      executor.transaction().execute(async (trx) => {
        await lockout.recordSuccess(account.id, trx);
        if (upgradedHash) {
          await trx.updateTable('auth_info').set({ password_hash: upgradedHash, updated_at: clock.now().toISOString() }).where('user_id', '=', account.id).execute();
        }
        await sessions.storeSession(session, trx);
      });
    await (upgradedHash ? store(db) : bestEffort(store));
    const { password_hash: _hash, status: _status, ...user } = account;
    return { token: session.token, expiresAt: session.expiresAt, user };
  }

  /**
   * Changes the password of the signed-in account. A wrong old password counts as a failed login
   * attempt (and may lock the account); every other session and every pending reset token is revoked.
   */
  async function changePassword(session: AuthenticatedSession, oldPassword: string, newPassword: string): Promise<void> {
    const subject = { userId: session.user.id };
    await checkNewPassword(newPassword, 'new_password');
    await lockout.assertNotLocked(subject);
    const current = await db.selectFrom('auth_info').select('password_hash').where('user_id', '=', session.user.id).executeTakeFirstOrThrow();
    if (!(await hasher.verify(current.password_hash, oldPassword))) {
      throw (await lockout.recordFailure(subject)) ?? new ServiceError('INVALID_PASSWORD', 'The old password is wrong');
    }
    await db.transaction().execute((trx) => lockout.recordSuccess(session.user.id, trx));
    const newHash = await hasher.hash(newPassword);
    await db.transaction().execute(async (trx) => {
      await trx.updateTable('auth_info').set({ password_hash: newHash, updated_at: clock.now().toISOString() }).where('user_id', '=', session.user.id).execute();
      await trx.deleteFrom('auth_tokens').where('user_id', '=', session.user.id).where('token_hash', '!=', session.tokenHash).execute();
      await trx.deleteFrom('reset_tokens').where('user_id', '=', session.user.id).where('used_at', 'is', null).execute();
    });
  }

  return { login, changePassword };
}
