// Memberships (docs/teams.md): how an actor stands to an account or a team (what `can` in access.ts is
// asked with), the teams of an account, and adding or removing a member. A change of one account's
// memberships locks that account's row first, so two changes of it wait for each other.
import type { Kysely } from 'kysely';
import type { OpenedDatabase, TransactionalDatabase } from '../db/database.js';
import type { Database, TeamRole } from '../db/types.js';
import { ServiceError } from '../common/errors.js';
import { PUBLIC_USER_COLUMNS, type PublicUser } from '../auth/accounts/users.js';
import type { PersonRelation, TeamRelation } from './access.js';

/** `self`, `led` (the account is in a team the actor leads) or `none`. */
export async function relationToPerson(db: Kysely<Database>, actorId: number, userId: number): Promise<PersonRelation> {
  if (actorId === userId) return 'self';
  const led = await db
    .selectFrom('team_members as lead')
    .innerJoin('team_members as member', 'member.team_id', 'lead.team_id')
    .select('lead.team_id')
    .where('lead.user_id', '=', actorId)
    .where('lead.role', '=', 'lead')
    .where('member.user_id', '=', userId)
    .executeTakeFirst();
  return led ? 'led' : 'none';
}

/** The accounts in the teams `leadId` leads, the lead itself left out (nobody decides their own): a subquery for `in`. */
export function peopleLedBy(db: Kysely<Database>, leadId: number) {
  return db
    .selectFrom('team_members as led')
    .innerJoin('team_members as lead', 'lead.team_id', 'led.team_id')
    .select('led.user_id')
    .where('lead.user_id', '=', leadId)
    .where('lead.role', '=', 'lead')
    .where('led.user_id', '!=', leadId);
}

/** The actor's role in the team, or `none`. */
export async function relationToTeam(db: Kysely<Database>, actorId: number, teamId: number): Promise<TeamRelation> {
  const row = await db.selectFrom('team_members').select('role').where('team_id', '=', teamId).where('user_id', '=', actorId).executeTakeFirst();
  return row?.role ?? 'none';
}

export interface OwnTeam {
  id: number;
  name: string;
  role: TeamRole;
}

/** The teams of an account, by name: a statement whose one parameter is the account's id. */
function teamsOfQuery(db: Kysely<Database>, userId: number) {
  return db
    .selectFrom('team_members')
    .innerJoin('teams', 'teams.id', 'team_members.team_id')
    .select(['teams.id', 'teams.name', 'team_members.role'])
    .where('team_members.user_id', '=', userId)
    .orderBy('teams.name');
}

/** A team row from its values in select order (teamsOfQuery), for prepareRowsById. */
const ownTeamOfValues = (values: unknown[]): OwnTeam => ({ id: values[0] as number, name: values[1] as string, role: values[2] as TeamRole });

/**
 * The reader of the teams an account is in, by name (GET /api/auth/me, on every call): the statement
 * compiled once and run by the engine port without Kysely's executor (prepareRowsById; building and
 * compiling it with Kysely on each call cost more than the session lookup and the read together:
 * docs/performance.md, "Deliberate optimisations").
 */
export function teamsOfReader(database: Pick<OpenedDatabase, 'db' | 'prepareRowsById'>): (userId: number) => Promise<OwnTeam[]> {
  return database.prepareRowsById(() => teamsOfQuery(database.db, 0).compile(), ownTeamOfValues);
}

export interface Member {
  user: PublicUser;
  role: TeamRole;
}

/** The members of a team, leads first, then by e-mail address. */
export async function membersOf(db: Kysely<Database>, teamId: number): Promise<Member[]> {
  return (await membersOfTeams(db, [teamId])).get(teamId) ?? [];
}

/** The members of each of these teams, in one statement: leads first, then by e-mail address (a team without any: absent). */
export async function membersOfTeams(db: Kysely<Database>, teamIds: readonly number[]): Promise<Map<number, Member[]>> {
  const byTeam = new Map<number, Member[]>();
  if (teamIds.length === 0) return byTeam;
  const rows = await db
    .selectFrom('team_members')
    .innerJoin('users', 'users.id', 'team_members.user_id')
    .select([...PUBLIC_USER_COLUMNS, 'team_members.team_id', 'team_members.role as team_role'])
    .where('team_members.team_id', 'in', teamIds)
    .orderBy('team_members.role')
    .orderBy('users.email')
    .execute();
  for (const { team_id, team_role, ...user } of rows) byTeam.set(team_id, [...(byTeam.get(team_id) ?? []), { user, role: team_role }]);
  return byTeam;
}

/** The role `userId` has in the team, if any. */
export async function membershipRole(db: Kysely<Database>, teamId: number, userId: number): Promise<TeamRole | undefined> {
  return (await db.selectFrom('team_members').select('role').where('team_id', '=', teamId).where('user_id', '=', userId).executeTakeFirst())?.role;
}

/** Adds the account to the team, or changes its role there. */
export async function putMember(database: TransactionalDatabase, teamId: number, userId: number, role: TeamRole): Promise<void> {
  await database.transact(async (trx) => {
    await database.lockUser(trx, userId);
    if (!(await trx.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst())) {
      throw new ServiceError('NOT_FOUND', 'No such account');
    }
    if (!(await trx.selectFrom('teams').select('id').where('id', '=', teamId).executeTakeFirst())) throw new ServiceError('NOT_FOUND', 'No such team');
    await trx
      .insertInto('team_members')
      .values({ team_id: teamId, user_id: userId, role })
      .onConflict((oc) => oc.columns(['team_id', 'user_id']).doUpdateSet({ role }))
      .execute();
  });
}

/** Removes the account from the team; NOT_FOUND when it is not in it. */
export async function removeMember(database: TransactionalDatabase, teamId: number, userId: number): Promise<void> {
  const removed = await database.db.deleteFrom('team_members').where('team_id', '=', teamId).where('user_id', '=', userId).executeTakeFirst();
  if (Number(removed.numDeletedRows) === 0) throw new ServiceError('NOT_FOUND', 'This account is not in the team');
}
