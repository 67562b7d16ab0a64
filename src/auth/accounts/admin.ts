// What an operator does to accounts from the shell (docs/cli.md): list, show, set a password, update, disable,
// enable, delete. Unlocking is the lockout service's, session revocation the session service's.
import type { TransactionalDatabase } from '../../db/database.js';
import type { AccountStatus } from '../../db/types.js';
import type { Clock } from '../../common/clock.js';
import { normalizeEmail, normalizeFullName, normalizeUsername } from './fields.js';
import type { LockoutService } from '../passwords/lockout.js';
import type { PasswordHasher } from '../passwords/hasher.js';
import { checkNewPassword } from '../passwords/policy.js';
import { emailTaken, rethrowTaken, usernameTaken } from './accounts.js';
import { refuseLastAdmin } from './roles.js';
import { identifierMatches, PUBLIC_USER_COLUMNS, type AccountSummary, type PublicUser, type UserDirectory } from './users.js';

export interface AccountChanges {
  email?: string;
  full_name?: string;
  /** null removes the username. */
  username?: string | null;
}

export interface AccountAdminDeps {
  database: TransactionalDatabase;
  clock: Clock;
  hasher: PasswordHasher;
  users: UserDirectory;
  lockout: LockoutService;
}

/** The accounts by e-mail address (one), by ids (a page of the browser's list), or all. */
type SummaryFilter = { email: string } | { ids: readonly number[] } | undefined;

async function summaries(context: AccountAdminDeps, filter?: SummaryFilter): Promise<AccountSummary[]> {
  const { clock } = context;
  const { db } = context.database;
  const now = clock.now().toISOString();
  let query = db
    .selectFrom('users')
    .innerJoin('auth_info', 'auth_info.user_id', 'users.id')
    .select([
      ...PUBLIC_USER_COLUMNS,
      'users.role',
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
      (eb) =>
        eb
          .selectFrom('two_factor')
          .select((count) => count.fn.countAll<number>().as('n'))
          .whereRef('two_factor.user_id', '=', 'users.id')
          .where('two_factor.enabled_at', 'is not', null)
          .as('two_factor'),
      (eb) =>
        eb
          .selectFrom('auth_tokens')
          .select((latest) => latest.fn.max('auth_tokens.created_at').as('at'))
          .whereRef('auth_tokens.user_id', '=', 'users.id')
          .as('last_sign_in_at'),
    ])
    .orderBy('users.email');
  if (filter !== undefined && 'email' in filter) query = query.where('users.email', '=', filter.email);
  if (filter !== undefined && 'ids' in filter) {
    if (filter.ids.length === 0) return [];
    query = query.where('users.id', 'in', filter.ids);
  }
  const rows = await query.execute();
  return rows.map(({ role, status, failed_attempts, locked_until, active_sessions, two_factor, last_sign_in_at, ...user }) => ({
    user,
    role,
    status,
    failed_attempts,
    // A lock that has passed is no lock: show it as none.
    locked_until: locked_until !== null && locked_until > now ? locked_until : null,
    active_sessions: Number(active_sessions ?? 0),
    two_factor: Number(two_factor ?? 0) > 0,
    last_sign_in_at: last_sign_in_at ?? null,
  }));
}

async function listAccounts(context: AccountAdminDeps): Promise<AccountSummary[]> {
  return summaries(context);
}

async function showAccount(context: AccountAdminDeps, identifier: string): Promise<AccountSummary> {
  const { users } = context;
  const user = await users.requireUser(identifier);
  const [summary] = await summaries(context, { email: user.email });
  return summary!;
}

async function unlockAccount(context: AccountAdminDeps, identifier: string): Promise<PublicUser> {
  const { users, lockout } = context;
  const user = await users.requireUser(identifier);
  await lockout.unlockAccount(user.id);
  return user;
}

/**
 * Sets a new password, as a reset does: in one transaction the hash is stored, the lock cleared,
 * every session, API token and pending reset token of the account deleted.
 */
async function setPassword(context: AccountAdminDeps, identifier: string, newPassword: string): Promise<{ user: PublicUser; revokedSessions: number }> {
  const { database, clock, hasher, users } = context;
  const user = await users.requireUser(identifier);
  await checkNewPassword(newPassword);
  // Outside the transaction, which must never wait for argon2.
  const passwordHash = await hasher.hash(newPassword);
  return database.transact(async (trx) => {
    const now = clock.now().toISOString();
    await trx
      .updateTable('auth_info')
      .set({ password_hash: passwordHash, failed_attempts: 0, locked_until: null, updated_at: now })
      .where('user_id', '=', user.id)
      .execute();
    const revoked = await trx.deleteFrom('auth_tokens').where('user_id', '=', user.id).executeTakeFirst();
    await trx.deleteFrom('api_tokens').where('user_id', '=', user.id).execute();
    await trx.deleteFrom('reset_tokens').where('user_id', '=', user.id).where('used_at', 'is', null).execute();
    return { user, revokedSessions: Number(revoked.numDeletedRows) };
  });
}

/** Changes e-mail, name or username with the checks of registration (format, uniqueness). */
async function updateAccount(context: AccountAdminDeps, identifier: string, changes: AccountChanges): Promise<PublicUser> {
  const { database, users } = context;
  const user = await users.requireUser(identifier);
  const email = changes.email === undefined ? undefined : normalizeEmail(changes.email);
  const fullName = changes.full_name === undefined ? undefined : normalizeFullName(changes.full_name);
  const username = changes.username === undefined ? undefined : normalizeUsername(changes.username);
  return rethrowTaken(
    database.transact(async (trx) => {
      if (email !== undefined) {
        const owner = await trx.selectFrom('users').select('id').where('email', '=', email).where('id', '!=', user.id).executeTakeFirst();
        if (owner) throw emailTaken();
      }
      if (username !== undefined && username !== null) {
        const owner = await trx.selectFrom('users').select('id').where(identifierMatches('username', username)).where('id', '!=', user.id).executeTakeFirst();
        if (owner) throw usernameTaken();
      }
      return trx
        .updateTable('users')
        .set({
          ...(email !== undefined ? { email } : {}),
          ...(fullName !== undefined ? { full_name: fullName } : {}),
          ...(username !== undefined ? { username } : {}),
        })
        .where('id', '=', user.id)
        .returning(['id', 'email', 'full_name', 'username', 'created_at'])
        .executeTakeFirstOrThrow();
    }),
  );
}

/**
 * Disabling also revokes every session, API token and pending reset token, in the same transaction:
 * nobody stays signed in, and no link issued before can sign anyone in again.
 */
async function setAccountStatus(context: AccountAdminDeps, identifier: string, status: AccountStatus): Promise<{ user: PublicUser; revokedSessions: number }> {
  const { database, clock, users } = context;
  const user = await users.requireUser(identifier);
  return database.transact(async (trx) => {
    // The last active admin stays one (docs/teams.md).
    if (status === 'disabled') await refuseLastAdmin(database, trx, user.id);
    await trx.updateTable('auth_info').set({ status, updated_at: clock.now().toISOString() }).where('user_id', '=', user.id).execute();
    if (status === 'active') return { user, revokedSessions: 0 };
    const revoked = await trx.deleteFrom('auth_tokens').where('user_id', '=', user.id).executeTakeFirst();
    await trx.deleteFrom('api_tokens').where('user_id', '=', user.id).execute();
    await trx.deleteFrom('reset_tokens').where('user_id', '=', user.id).where('used_at', 'is', null).execute();
    return { user, revokedSessions: Number(revoked.numDeletedRows) };
  });
}

/**
 * Deletes the account and everything that is its own. Every table that belongs to a user references
 * users(id) ON DELETE CASCADE (auth data, sessions, reset tokens, settings, entries, absences, totals),
 * so this one DELETE statement (atomic like any transaction) removes all of it or nothing.
 */
async function deleteAccount(context: AccountAdminDeps, identifier: string): Promise<PublicUser> {
  const { users, database } = context;
  const user = await users.requireUser(identifier);
  await database.transact(async (trx) => {
    await refuseLastAdmin(database, trx, user.id);
    await trx.deleteFrom('users').where('id', '=', user.id).execute();
  });
  return user;
}

export function createAccountAdminService(deps: AccountAdminDeps) {
  return {
    listAccounts: () => listAccounts(deps),
    showAccount: (identifier: string) => showAccount(deps, identifier),
    /** The summaries of these accounts (the browser's list of accounts: status, two-factor, last sign-in). */
    summariesOf: (ids: readonly number[]) => summaries(deps, { ids }),
    unlockAccount: (identifier: string) => unlockAccount(deps, identifier),
    setPassword: (identifier: string, newPassword: string) => setPassword(deps, identifier, newPassword),
    updateAccount: (identifier: string, changes: AccountChanges) => updateAccount(deps, identifier, changes),
    disableAccount: (identifier: string) => setAccountStatus(deps, identifier, 'disabled'),
    enableAccount: (identifier: string) => setAccountStatus(deps, identifier, 'active'),
    deleteAccount: (identifier: string) => deleteAccount(deps, identifier),
  };
}
