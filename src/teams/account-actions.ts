// What an admin does to accounts in the browser (docs/teams.md, "Administration"; docs/api.md "Users"):
// disable, enable, unlock, a reset link, a two-factor reset, and the audit trail. Each asks `can` first
// (`users.manage`, `audit.read`), then calls the very service function of its command (`timetrack user
// disable|enable|unlock|2fa-reset`, `timetrack reset issue`, `timetrack audit list`) and records the
// same audit row, with the signed-in admin as its actor (`user:<id>`; the commands record `os:<login>`).
import type { createAccountAdminService, PublicUser, UserDirectory } from '../auth/accounts/index.js';
import type { AccountSummary } from '../auth/accounts/users.js';
import type { AuditFilter, AuditService } from '../auth/audit.js';
import type { createResetService } from '../auth/passwords/index.js';
import type { TwoFactorService } from '../auth/two-factor/index.js';
import { ServiceError } from '../common/errors.js';
import type { TransactionalDatabase } from '../db/database.js';
import { requireAllowed, type Actor } from './access.js';
import { relationToPerson } from './members.js';

export interface AccountActionDeps {
  database: Pick<TransactionalDatabase, 'db'>;
  users: UserDirectory;
  accountAdmin: ReturnType<typeof createAccountAdminService>;
  resets: Pick<ReturnType<typeof createResetService>, 'issueAndSendForAdmin'>;
  twoFactor: Pick<TwoFactorService, 'resetByOperator'>;
  audit: Pick<AuditService, 'record' | 'list' | 'accountIds'>;
}

function noSuchAccount(): ServiceError {
  return new ServiceError('NOT_FOUND', 'No such account');
}

/** The account `userId` once the actor may manage it: 404 outside its reach, 403 inside it (docs/teams.md). */
async function managed(deps: AccountActionDeps, actor: Actor, userId: number): Promise<PublicUser> {
  requireAllowed(actor, 'users.manage', { kind: 'person', relation: await relationToPerson(deps.database.db, actor.userId, userId) }, noSuchAccount);
  const user = await deps.users.userById(userId);
  if (!user) throw noSuchAccount();
  return user;
}

const actorLabel = (actor: Actor) => `user:${actor.userId}`;

async function summaryOf(deps: AccountActionDeps, user: PublicUser): Promise<AccountSummary> {
  return deps.accountAdmin.showAccount(user.email);
}

async function disable(deps: AccountActionDeps, actor: Actor, userId: number) {
  const target = await managed(deps, actor, userId);
  // An admin does not lock themselves out from the browser (403 FORBIDDEN; the shell still may, as the operator).
  if (target.id === actor.userId) throw new ServiceError('FORBIDDEN', 'You cannot disable your own account; ask another admin');
  const { user, revokedSessions } = await deps.accountAdmin.disableAccount(target.email);
  await deps.audit.record({ action: 'account_disabled', actor: actorLabel(actor), user, detail: { revoked_sessions: revokedSessions } });
  return { summary: await summaryOf(deps, user), revokedSessions };
}

async function enable(deps: AccountActionDeps, actor: Actor, userId: number) {
  const target = await managed(deps, actor, userId);
  const { user } = await deps.accountAdmin.enableAccount(target.email);
  await deps.audit.record({ action: 'account_enabled', actor: actorLabel(actor), user });
  return { summary: await summaryOf(deps, user) };
}

async function unlock(deps: AccountActionDeps, actor: Actor, userId: number) {
  const target = await managed(deps, actor, userId);
  const user = await deps.accountAdmin.unlockAccount(target.email);
  await deps.audit.record({ action: 'account_unlocked', actor: actorLabel(actor), user });
  return { summary: await summaryOf(deps, user) };
}

async function resetLink(deps: AccountActionDeps, actor: Actor, userId: number) {
  const target = await managed(deps, actor, userId);
  const { issued, delivery } = await deps.resets.issueAndSendForAdmin(target.email);
  const expiresAt = issued.expiresAt.toISOString();
  await deps.audit.record({ action: 'reset_issued', actor: actorLabel(actor), user: target, detail: { expires_at: expiresAt, delivery } });
  return { issued, delivery, expiresAt };
}

async function resetTwoFactor(deps: AccountActionDeps, actor: Actor, userId: number) {
  const target = await managed(deps, actor, userId);
  const { wasEnabled, revokedSessions } = await deps.twoFactor.resetByOperator(target.id);
  await deps.audit.record({
    action: 'two_factor_reset',
    actor: actorLabel(actor),
    user: target,
    detail: { was_enabled: wasEnabled, revoked_sessions: revokedSessions },
  });
  return { summary: await summaryOf(deps, target), wasEnabled, revokedSessions };
}

/** The trail filter of GET /api/audit: `user` an account id, e-mail address, username or closed-account label. */
export type TrailQuery = Omit<AuditFilter, 'userIds'> & { user?: string };

async function trail(deps: AccountActionDeps, actor: Actor, query: TrailQuery) {
  requireAllowed(actor, 'audit.read', { kind: 'everyone' }, noSuchAccount);
  const { user, ...filter } = query;
  let userIds: number[] | undefined;
  if (user !== undefined) userIds = /^[1-9][0-9]{0,14}$/.test(user) ? [Number(user)] : await deps.audit.accountIds(user);
  return deps.audit.list({ ...filter, userIds });
}

/** A page of accounts with how each stands (status, lock, two-factor, last sign-in), for whoever may list them. */
async function withState<User extends PublicUser>(deps: AccountActionDeps, actor: Actor, users: User[]) {
  requireAllowed(actor, 'users.list', { kind: 'everyone' }, noSuchAccount);
  const states = new Map((await deps.accountAdmin.summariesOf(users.map((user) => user.id))).map((state) => [state.user.id, state]));
  return users.map((user) => {
    const state = states.get(user.id);
    return {
      ...user,
      status: state?.status ?? 'active',
      locked_until: state?.locked_until ?? null,
      two_factor: state?.two_factor ?? false,
      last_sign_in_at: state?.last_sign_in_at ?? null,
    };
  });
}

export function createAccountActionService(deps: AccountActionDeps) {
  return {
    disable: (actor: Actor, userId: number) => disable(deps, actor, userId),
    enable: (actor: Actor, userId: number) => enable(deps, actor, userId),
    unlock: (actor: Actor, userId: number) => unlock(deps, actor, userId),
    resetLink: (actor: Actor, userId: number) => resetLink(deps, actor, userId),
    resetTwoFactor: (actor: Actor, userId: number) => resetTwoFactor(deps, actor, userId),
    trail: (actor: Actor, query: TrailQuery) => trail(deps, actor, query),
    withState: <User extends PublicUser>(actor: Actor, users: User[]) => withState(deps, actor, users),
  };
}

export type AccountActionService = ReturnType<typeof createAccountActionService>;
