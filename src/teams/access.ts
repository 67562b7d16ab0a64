// The one authorisation rule of the team layer (docs/teams.md, "Who may do what";
// docs/architecture.md, "The team layer"). `can` is pure: the caller finds how the actor stands to
// the target (src/teams/members.ts) and maps the answer at its edge with `requireAllowed`: outside the
// actor's reach 404 (an id does not tell who exists), inside it an action the role may not do 403.
import { ServiceError } from '../common/errors.js';
import type { UserRole } from '../db/types.js';

export interface Actor {
  userId: number;
  role: UserRole;
  /** The request came with an API token: it may read, never administer. */
  viaApiToken: boolean;
}

/** The operator at the shell (`timetrack user role`, `timetrack team …`): administers everything. */
export const OPERATOR: Actor = { userId: 0, role: 'admin', viaApiToken: false };

/** The actions that are administration: an API token is refused them (403 FORBIDDEN_FOR_API_TOKEN). */
export const ADMINISTRATION_ACTIONS = [
  'users.list',
  'users.read',
  'users.role',
  'teams.create',
  'teams.manage',
  'teams.members',
  /** Disable, enable, unlock, a reset link, a two-factor reset: an admin's only (docs/teams.md). */
  'users.manage',
  /** The audit trail of every account: an admin's only. */
  'audit.read',
  /** Approving or rejecting a person's leave request (docs/teams.md, "Leave requests"): its leads and admins. */
  'requests.decide',
  /** Approving or returning a person's month (docs/teams.md, "Closed months"): a lead of the person's team, an admin. */
  'months.decide',
  /** Reopening an approved or locked month: an admin's only. */
  'months.reopen',
  /** A correction booked for a person (POST /api/users/:id/bookings): a lead of the person's team, an admin. */
  'bookings.correct',
] as const;

/**
 * `teams.overview`: a team's week with every member's figures (src/teams/overview.ts): its leads and admins.
 * `teams.calendar`: a team's month of days and absences (src/teams/calendar.ts): its members, leads and admins.
 */
export type Action = (typeof ADMINISTRATION_ACTIONS)[number] | 'teams.read' | 'stats.read' | 'teams.overview' | 'teams.calendar';

/** How the actor stands to an account: itself, a member of a team it leads, or neither. */
export type PersonRelation = 'self' | 'led' | 'none';

/** The actor's membership of a team: its role there, or none. */
export type TeamRelation = 'lead' | 'member' | 'none';

export type Target =
  | { kind: 'everyone' }
  | { kind: 'person'; relation: PersonRelation }
  | { kind: 'team'; relation: TeamRelation }
  /** A membership of a team changed: the actor's place in the team, and the role the membership has or gets (its highest). */
  | { kind: 'membership'; relation: TeamRelation; memberRole: 'lead' | 'member' };

export type Verdict = 'allow' | 'not_found' | 'forbidden';

function isAdministration(action: Action): boolean {
  return (ADMINISTRATION_ACTIONS as readonly string[]).includes(action);
}

/** What a lead or a member may do; an admin may do everything (docs/teams.md, the table). */
function ruleFor(action: Action, target: Target): Verdict {
  switch (target.kind) {
    case 'everyone':
      // Listing every account, making a team: administration only. Reading the teams within reach is for all.
      return action === 'teams.read' ? 'allow' : 'forbidden';
    case 'person':
      if (target.relation === 'none') return 'not_found';
      if (action === 'users.read' || action === 'stats.read') return 'allow';
      // A lead decides the requests of the people it leads, never its own (SELF_APPROVAL comes first).
      if (action === 'requests.decide' && target.relation === 'led') return 'allow';
      // A lead decides the months and books corrections of the people it leads.
      if ((action === 'months.decide' || action === 'bookings.correct') && target.relation === 'led') return 'allow';
      return 'forbidden';
    case 'team':
      if (target.relation === 'none') return 'not_found';
      if (action === 'teams.overview') return target.relation === 'lead' ? 'allow' : 'forbidden';
      return action === 'teams.read' || action === 'teams.calendar' ? 'allow' : 'forbidden';
    case 'membership':
      if (target.relation === 'none') return 'not_found';
      return action === 'teams.members' && target.relation === 'lead' && target.memberRole === 'member' ? 'allow' : 'forbidden';
  }
}

/**
 * A team's lead acts as one only while the account's role is `lead`: an account with the role `member`
 * that a team still names as its lead is one of its members, and the people it led are out of its reach.
 */
function asRoleAllows(role: UserRole, target: Target): Target {
  if (role !== 'member') return target;
  if (target.kind === 'person' && target.relation === 'led') return { kind: 'person', relation: 'none' };
  if ((target.kind === 'team' || target.kind === 'membership') && target.relation === 'lead') return { ...target, relation: 'member' };
  return target;
}

/** May `actor` do `action` to `target`? */
export function can(actor: Actor, action: Action, target: Target): Verdict {
  const verdict = actor.role === 'admin' ? 'allow' : ruleFor(action, asRoleAllows(actor.role, target));
  // A token administers nothing, not even what its account may (outside the reach it still finds nothing).
  if (actor.viaApiToken && isAdministration(action) && verdict === 'allow') return 'forbidden';
  return verdict;
}

/** `can`, as the ServiceError each edge maps: NOT_FOUND (404), FORBIDDEN (403) or FORBIDDEN_FOR_API_TOKEN (403). */
export function requireAllowed(actor: Actor, action: Action, target: Target, notFound: () => ServiceError): void {
  const verdict = can(actor, action, target);
  if (verdict === 'allow') return;
  if (verdict === 'not_found') throw notFound();
  if (actor.viaApiToken && isAdministration(action)) {
    throw new ServiceError('FORBIDDEN_FOR_API_TOKEN', 'An API token cannot administer accounts or teams; sign in to do this');
  }
  throw new ServiceError('FORBIDDEN', `Your role may not do this (${action})`);
}
