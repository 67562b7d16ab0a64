// What an operator does to accounts from the shell (docs/cli.md): list, show, disable, enable,
// delete. Unlocking is the lockout service's, session revocation the session service's.
import type { Kysely } from 'kysely';
import type { AccountStatus, Database } from '../db/types.js';
import type { Clock } from '../shared/clock.js';
import type { LockoutService } from './lockout.js';
import { PUBLIC_USER_COLUMNS, type AccountSummary, type PublicUser, type UserDirectory } from './users.js';

export function createAccountAdminService(db: Kysely<Database>, clock: Clock, users: UserDirectory, lockout: LockoutService) {
  async function summaries(email?: string): Promise<AccountSummary[]> {
    const now = clock.now().toISOString();
    let query = db
      .selectFrom('users')
      .innerJoin('auth_info', 'auth_info.user_id', 'users.id')
      .select([
        ...PUBLIC_USER_COLUMNS,
        'auth_info.status',
        'auth_info.failed_attempts',
        'auth_info.locked_until',
        (eb) =>
          eb
            .selectFrom('auth_tokens')
            .select((count) => count.fn.countAll<number>().as('n'))
            .whereRef('auth_tokens.user_id', '=', 'users.id')
            .where('auth_tokens.expires_at', '>', now)
            .as('active_sessions'),
      ])
      .orderBy('users.email');
    if (email !== undefined) query = query.where('users.email', '=', email);
    const rows = await query.execute();
    return rows.map(({ status, failed_attempts, locked_until, active_sessions, ...user }) => ({
      user,
      status,
      failed_attempts,
      // A lock that has passed is no lock: show it as none.
      locked_until: locked_until !== null && locked_until > now ? locked_until : null,
      active_sessions: Number(active_sessions ?? 0),
    }));
  }

  async function listAccounts(): Promise<AccountSummary[]> {
    return summaries();
  }

  async function showAccount(email: string): Promise<AccountSummary> {
    const user = await users.requireUserByEmail(email);
    const [summary] = await summaries(user.email);
    return summary!;
  }

  async function unlockAccount(email: string): Promise<PublicUser> {
    const user = await users.requireUserByEmail(email);
    await lockout.unlockAccount(user.id);
    return user;
  }

  /**
   * Disabling also revokes every session and every pending reset token, in the same transaction:
   * nobody stays signed in, and no link issued before can sign anyone in again.
   */
  async function setAccountStatus(email: string, status: AccountStatus): Promise<{ user: PublicUser; revokedSessions: number }> {
    const user = await users.requireUserByEmail(email);
    return db.transaction().execute(async (trx) => {
      await trx.updateTable('auth_info').set({ status, updated_at: clock.now().toISOString() }).where('user_id', '=', user.id).execute();
      if (status === 'active') return { user, revokedSessions: 0 };
      const revoked = await trx.deleteFrom('auth_tokens').where('user_id', '=', user.id).executeTakeFirst();
      await trx.deleteFrom('reset_tokens').where('user_id', '=', user.id).where('used_at', 'is', null).execute();
      return { user, revokedSessions: Number(revoked.numDeletedRows) };
    });
  }

  /**
   * Deletes the account and everything that is its own. Every table that belongs to a user references
   * users(id) ON DELETE CASCADE (auth data, sessions, reset tokens, settings, entries, absences, totals),
   * so this one DELETE statement (atomic like any transaction) removes all of it or nothing.
   */
  async function deleteAccount(email: string): Promise<PublicUser> {
    const user = await users.requireUserByEmail(email);
    await db.deleteFrom('users').where('id', '=', user.id).execute();
    return user;
  }

  return {
    listAccounts,
    showAccount,
    unlockAccount,
    disableAccount: (email: string) => setAccountStatus(email, 'disabled'),
    enableAccount: (email: string) => setAccountStatus(email, 'active'),
    deleteAccount,
  };
}
