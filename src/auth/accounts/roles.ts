// Roles (docs/teams.md): reading and changing an account's role, the list of accounts an admin sees,
// and the rule that the last active admin stays one. Every transaction that could take away the last
// active admin (a demotion, `user disable`, `user delete`, closing one's own account) first locks the
// rows of all active admins (`lockActiveAdmins`) and counts them again under those locks: two such
// changes, even from two processes on PostgreSQL, wait for each other and the second sees the first.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { TransactionalDatabase } from '../../db/database.js';
import type { Database, UserRole } from '../../db/types.js';
import { ServiceError, validationError } from '../../common/errors.js';
import { createSessionPasswordCheck, type SessionPasswordDeps } from '../sessions/password-guesses.js';
import { PUBLIC_USER_COLUMNS, type PublicUser } from './users.js';

export const ROLES: readonly UserRole[] = ['admin', 'lead', 'member'];

/** A role named on the command line or in a request, or VALIDATION_ERROR. */
export function parseRole(value: string): UserRole {
  const role = ROLES.find((candidate) => candidate === value);
  if (!role) throw validationError(`role must be one of ${ROLES.join(', ')}`, 'role');
  return role;
}

/** What `serve` and `timetrack check` say while no account is an active admin. */
export const NO_ADMIN_NOTICE =
  'no active admin: make one with `timetrack user role <account> admin`, or with the one-time setup link `serve` prints at its start (docs/teams.md, "The first admin")';

export function lastAdmin(): ServiceError {
  return new ServiceError('LAST_ADMIN', 'This is the last active admin: make another account an admin first');
}

/** The ids of the active admins, read again after their rows are locked in id order (no deadlock between two such transactions). */
export async function lockActiveAdmins(database: Pick<TransactionalDatabase, 'lockUser'>, trx: Transaction<Database>): Promise<number[]> {
  const activeAdmins = () =>
    trx
      .selectFrom('users')
      .innerJoin('auth_info', 'auth_info.user_id', 'users.id')
      .select('users.id')
      .where('users.role', '=', 'admin')
      .where('auth_info.status', '=', 'active')
      .orderBy('users.id')
      .execute();
  for (const { id } of await activeAdmins()) await database.lockUser(trx, id);
  // Read committed: this statement sees every change committed before the locks were granted.
  return (await activeAdmins()).map(({ id }) => id);
}

/** LAST_ADMIN when `userId` is the only active admin; call it before the change that ends its being one. */
export async function refuseLastAdmin(database: Pick<TransactionalDatabase, 'lockUser'>, trx: Transaction<Database>, userId: number): Promise<void> {
  const admins = await lockActiveAdmins(database, trx);
  if (admins.length === 1 && admins[0] === userId) throw lastAdmin();
}

/** A public user with its role: the shape of GET /api/users and `user role`. */
export interface UserWithRole extends PublicUser {
  role: UserRole;
}

export interface RoleDeps {
  database: TransactionalDatabase;
  hasher: SessionPasswordDeps['hasher'];
}

export interface RoleChange {
  user: UserWithRole;
  from: UserRole;
}

const USER_WITH_ROLE_COLUMNS = [...PUBLIC_USER_COLUMNS, 'users.role'] as const;

export async function userWithRole(deps: Pick<RoleDeps, 'database'>, userId: number): Promise<UserWithRole | undefined> {
  return deps.database.db.selectFrom('users').select(USER_WITH_ROLE_COLUMNS).where('users.id', '=', userId).executeTakeFirst();
}

/** Sets the role of account `userId`; LAST_ADMIN when that would leave no active admin. */
async function setRole(deps: Pick<RoleDeps, 'database'>, userId: number, role: UserRole): Promise<RoleChange> {
  const { database } = deps;
  return database.transact(async (trx) => {
    // The admins first, in id order, then the account (an admin's row is locked already): two
    // demotions lock in the same order and never wait on each other in a circle.
    const admins = await lockActiveAdmins(database, trx);
    await database.lockUser(trx, userId);
    const before = await trx.selectFrom('users').select('role').where('id', '=', userId).executeTakeFirst();
    if (!before) throw new ServiceError('NOT_FOUND', 'No such account');
    if (before.role === 'admin' && role !== 'admin' && admins.length === 1 && admins[0] === userId) throw lastAdmin();
    const user = await trx
      .updateTable('users')
      .set({ role })
      .where('id', '=', userId)
      .returning(['id', 'email', 'full_name', 'username', 'created_at', 'role'])
      .executeTakeFirstOrThrow();
    return { user, from: before.role };
  });
}

/**
 * A change of role asked for by a signed-in admin (PATCH /api/users/:id): granting or removing `admin`
 * needs the actor's own current password, counted against the session like every password it sends.
 */
async function changeRoleBySession(
  deps: RoleDeps,
  session: { tokenHash: string; userId: number },
  userId: number,
  role: UserRole,
  password: string | undefined,
): Promise<RoleChange> {
  const current = await userWithRole(deps, userId);
  if (!current) throw new ServiceError('NOT_FOUND', 'No such account');
  if ((current.role === 'admin') !== (role === 'admin')) {
    if (password === undefined) throw validationError('granting or removing admin needs your current password', 'password');
    await createSessionPasswordCheck(deps).check(session, password);
  }
  return setRole(deps, userId, role);
}

/** Whether some account is an active admin. */
export async function hasActiveAdmin(db: Kysely<Database>): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .innerJoin('auth_info', 'auth_info.user_id', 'users.id')
    .select('users.id')
    .where('users.role', '=', 'admin')
    .where('auth_info.status', '=', 'active')
    .executeTakeFirst();
  return row !== undefined;
}

export interface UserPageQuery {
  /** Part of the e-mail address or the name, without regard to case. */
  q?: string;
  limit: number;
  /** The id after which the page starts (the last one of the page before). */
  after?: number;
}

/** One page of every account, by id. */
async function listUsers(deps: Pick<RoleDeps, 'database'>, query: UserPageQuery): Promise<{ users: UserWithRole[]; nextAfter: number | null }> {
  let select = deps.database.db
    .selectFrom('users')
    .select(USER_WITH_ROLE_COLUMNS)
    .orderBy('users.id')
    .limit(query.limit + 1);
  if (query.after !== undefined) select = select.where('users.id', '>', query.after);
  if (query.q !== undefined && query.q !== '') {
    const pattern = `%${query.q.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    select = select.where(sql<boolean>`(lower(users.email) like ${pattern} escape '\\' or lower(users.full_name) like ${pattern} escape '\\')`);
  }
  const rows = await select.execute();
  const users = rows.slice(0, query.limit);
  return { users, nextAfter: rows.length > query.limit ? users[users.length - 1]!.id : null };
}

export function createRoleService(deps: RoleDeps) {
  return {
    userWithRole: (userId: number) => userWithRole(deps, userId),
    setRole: (userId: number, role: UserRole) => setRole(deps, userId, role),
    changeRoleBySession: (session: { tokenHash: string; userId: number }, userId: number, role: UserRole, password: string | undefined) =>
      changeRoleBySession(deps, session, userId, role, password),
    listUsers: (query: UserPageQuery) => listUsers(deps, query),
    /** Whether some account is an active admin (`serve` and `timetrack check` warn while none is). */
    hasActiveAdmin: () => hasActiveAdmin(deps.database.db),
  };
}
