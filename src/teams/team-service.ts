// The team service (docs/teams.md, docs/api.md "Teams"): every operation asks `can` (access.ts) with
// how the actor stands to the team, then does the one thing. The operator at the shell is OPERATOR.
import type { OpenedDatabase, TransactionalDatabase } from '../db/database.js';
import type { AbsenceApproval, TeamRole } from '../db/types.js';
import type { Clock } from '../common/clock.js';
import { requireAllowed, type Actor } from './access.js';
import { membersOf, membersOfTeams, membershipRole, putMember, relationToTeam, removeMember, teamsOfReader } from './members.js';
import { createTeam, deleteTeam, findTeam, listTeams, renameTeam, setAbsenceApproval, setAutoLock, teamById, teamNotFound } from './teams.js';

export interface TeamDeps {
  database: TransactionalDatabase & Pick<OpenedDatabase, 'prepareRowsById'>;
  clock: Clock;
}

async function allowedOnTeam(deps: TeamDeps, actor: Actor, action: 'teams.read' | 'teams.manage', teamId: number): Promise<void> {
  requireAllowed(actor, action, { kind: 'team', relation: await relationToTeam(deps.database.db, actor.userId, teamId) }, teamNotFound);
}

async function showTeam(deps: TeamDeps, actor: Actor, teamId: number) {
  await allowedOnTeam(deps, actor, 'teams.read', teamId);
  const team = await teamById(deps.database.db, teamId);
  if (!team) throw teamNotFound();
  return { team, members: await membersOf(deps.database.db, teamId) };
}

/**
 * Adds an account to a team or changes its role there (`role` given), or removes it (`role` null).
 * A lead may do it only to a membership that is and stays `member`.
 */
async function changeMembership(deps: TeamDeps, actor: Actor, teamId: number, userId: number, role: TeamRole | null): Promise<void> {
  const { db } = deps.database;
  const current = await membershipRole(db, teamId, userId);
  const memberRole = role === 'lead' || current === 'lead' ? 'lead' : 'member';
  requireAllowed(actor, 'teams.members', { kind: 'membership', relation: await relationToTeam(db, actor.userId, teamId), memberRole }, teamNotFound);
  if (role === null) await removeMember(deps.database, teamId, userId);
  else await putMember(deps.database, teamId, userId, role);
}

export function createTeamService(deps: TeamDeps) {
  const { db } = deps.database;
  const teamsOf = teamsOfReader(deps.database);
  /** The teams within the actor's reach: all for an admin, its own for anyone else. */
  const list = (actor: Actor) => {
    requireAllowed(actor, 'teams.read', { kind: 'everyone' }, teamNotFound);
    return listTeams(db, actor.role === 'admin' ? 'all' : actor.userId);
  };
  return {
    list,
    /** The same teams, each with the members GET /api/teams/:id answers (read for all of them at once). */
    async listWithMembers(actor: Actor) {
      const teams = await list(actor);
      const members = await membersOfTeams(
        db,
        teams.map((team) => team.id),
      );
      return teams.map((team) => ({ ...team, members: members.get(team.id) ?? [] }));
    },
    create(actor: Actor, name: string) {
      requireAllowed(actor, 'teams.create', { kind: 'everyone' }, teamNotFound);
      return createTeam(deps, name);
    },
    show: (actor: Actor, teamId: number) => showTeam(deps, actor, teamId),
    async rename(actor: Actor, teamId: number, name: string) {
      await allowedOnTeam(deps, actor, 'teams.manage', teamId);
      return renameTeam(db, teamId, name);
    },
    /** Whether the team's vacation waits for a lead (an admin's, like renaming). */
    async setAbsenceApproval(actor: Actor, teamId: number, approval: AbsenceApproval) {
      await allowedOnTeam(deps, actor, 'teams.manage', teamId);
      return setAbsenceApproval(db, teamId, approval);
    },
    /** auto_lock_after_days (docs/teams.md, "Closed months"): an admin's, like renaming. */
    async setAutoLock(actor: Actor, teamId: number, days: number | null) {
      await allowedOnTeam(deps, actor, 'teams.manage', teamId);
      return setAutoLock(db, teamId, days);
    },
    async remove(actor: Actor, teamId: number) {
      await allowedOnTeam(deps, actor, 'teams.manage', teamId);
      await deleteTeam(db, teamId);
    },
    putMember: (actor: Actor, teamId: number, userId: number, role: TeamRole) => changeMembership(deps, actor, teamId, userId, role),
    removeMember: (actor: Actor, teamId: number, userId: number) => changeMembership(deps, actor, teamId, userId, null),
    /** The teams of an account with its role in each (GET /api/auth/me). */
    teamsOf,
    /** A team by id or name, as the CLI names one. */
    find: (reference: string) => findTeam(db, reference),
  };
}

export type TeamService = ReturnType<typeof createTeamService>;
