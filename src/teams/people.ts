// Accounts as the team layer administers them (docs/teams.md, docs/api.md "Users"): the list of every
// account, one account, its role. Each call asks `can` first, with how the actor stands to the account.
import { createRoleService, type RoleDeps, type UserWithRole } from '../auth/accounts/index.js';
import type { UserPageQuery } from '../auth/accounts/roles.js';
import { ServiceError } from '../common/errors.js';
import type { TransactionalDatabase } from '../db/database.js';
import type { UserRole } from '../db/types.js';
import { OPERATOR, requireAllowed, type Actor } from './access.js';
import { relationToPerson } from './members.js';

export type PeopleDeps = RoleDeps;

interface PeopleContext {
  database: Pick<TransactionalDatabase, 'db'>;
  roles: ReturnType<typeof createRoleService>;
}

function noSuchAccount(): ServiceError {
  return new ServiceError('NOT_FOUND', 'No such account');
}

async function readPerson(deps: PeopleContext, actor: Actor, userId: number): Promise<UserWithRole> {
  requireAllowed(actor, 'users.read', { kind: 'person', relation: await relationToPerson(deps.database.db, actor.userId, userId) }, noSuchAccount);
  const user = await deps.roles.userWithRole(userId);
  if (!user) throw noSuchAccount();
  return user;
}

/** The session of the actor: the one whose password counts when `admin` is granted or removed. */
export interface ActingSession {
  actor: Actor;
  tokenHash: string;
}

async function changeRole(deps: PeopleContext, acting: ActingSession, userId: number, role: UserRole, password: string | undefined) {
  const { actor } = acting;
  requireAllowed(actor, 'users.role', { kind: 'person', relation: await relationToPerson(deps.database.db, actor.userId, userId) }, noSuchAccount);
  return deps.roles.changeRoleBySession({ tokenHash: acting.tokenHash, userId: actor.userId }, userId, role, password);
}

export function createPeopleService(given: PeopleDeps) {
  const deps: PeopleContext = { database: given.database, roles: createRoleService(given) };
  return {
    list(actor: Actor, query: UserPageQuery) {
      requireAllowed(actor, 'users.list', { kind: 'everyone' }, noSuchAccount);
      return deps.roles.listUsers(query);
    },
    read: (actor: Actor, userId: number) => readPerson(deps, actor, userId),
    hasActiveAdmin: () => deps.roles.hasActiveAdmin(),
    /** `timetrack user role`: the operator sets any role, no password asked (the shell is the proof). */
    setRole(userId: number, role: UserRole) {
      requireAllowed(OPERATOR, 'users.role', { kind: 'person', relation: 'none' }, noSuchAccount);
      return deps.roles.setRole(userId, role);
    },
    changeRole: (acting: ActingSession, userId: number, role: UserRole, password: string | undefined) => changeRole(deps, acting, userId, role, password),
  };
}

export type PeopleService = ReturnType<typeof createPeopleService>;
