// Teams (docs/teams.md, docs/api.md "Teams"): making, naming, listing, reading and deleting them.
// A name is trimmed, 1 to 100 characters without control or invisible ones, and unique without
// regard to case: the unique index on its key (`teamNameKey`, computed here alike for both engines)
// decides, also between two processes (TEAM_NAME_TAKEN).
import type { Kysely } from 'kysely';
import { violatedRule, type TransactionalDatabase } from '../db/database.js';
import type { AbsenceApproval, Database } from '../db/types.js';
import { ServiceError, validationError } from '../common/errors.js';
import type { Clock } from '../common/clock.js';

export const TEAM_NAME_MAX_LENGTH = 100;
const INVISIBLE_CHARACTERS = /[\p{C}\p{Zl}\p{Zp}]/u;

export interface Team {
  id: number;
  name: string;
  created_at: string;
  /** Whether its people's vacation waits for a lead's approval (docs/teams.md, "Leave requests"). */
  absence_approval: AbsenceApproval;
  /** Days after a month's end when its members' months lock by themselves (docs/teams.md, "Closed months"); null: never. */
  auto_lock_after_days: number | null;
}

export function teamNotFound(): ServiceError {
  return new ServiceError('NOT_FOUND', 'No such team');
}

function nameTaken(): ServiceError {
  return new ServiceError('TEAM_NAME_TAKEN', 'A team with this name exists already');
}

export function normalizeTeamName(raw: string): string {
  const name = raw.normalize('NFC').trim();
  if (name.length === 0 || name.length > TEAM_NAME_MAX_LENGTH || INVISIBLE_CHARACTERS.test(name)) {
    throw validationError(`name must be 1 to ${TEAM_NAME_MAX_LENGTH} characters without control or invisible characters`, 'name');
  }
  return name;
}

/** What two names share when they are the same name without regard to case: NFC, then Unicode lower case. */
export function teamNameKey(name: string): string {
  return name.normalize('NFC').toLowerCase();
}

async function rethrowNameTaken<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (violatedRule(error) === 'team_name') throw nameTaken();
    throw error;
  }
}

const TEAM_COLUMNS = ['teams.id', 'teams.name', 'teams.created_at', 'teams.absence_approval', 'teams.auto_lock_after_days'] as const;

export async function createTeam(deps: { database: TransactionalDatabase; clock: Clock }, rawName: string): Promise<Team> {
  const name = normalizeTeamName(rawName);
  return rethrowNameTaken(
    deps.database.db
      .insertInto('teams')
      .values({ name, name_key: teamNameKey(name), created_at: deps.clock.now().toISOString() })
      .returning(['id', 'name', 'created_at', 'absence_approval', 'auto_lock_after_days'])
      .executeTakeFirstOrThrow(),
  );
}

export async function renameTeam(db: Kysely<Database>, teamId: number, rawName: string): Promise<Team> {
  const name = normalizeTeamName(rawName);
  const team = await rethrowNameTaken(
    db
      .updateTable('teams')
      .set({ name, name_key: teamNameKey(name) })
      .where('id', '=', teamId)
      .returning(['id', 'name', 'created_at', 'absence_approval', 'auto_lock_after_days'])
      .executeTakeFirst(),
  );
  if (!team) throw teamNotFound();
  return team;
}

/** Sets whether the team's people's vacation waits for a lead's approval (requests already made stay as they are). */
export async function setAbsenceApproval(db: Kysely<Database>, teamId: number, approval: AbsenceApproval): Promise<Team> {
  const team = await db
    .updateTable('teams')
    .set({ absence_approval: approval })
    .where('id', '=', teamId)
    .returning(['id', 'name', 'created_at', 'absence_approval', 'auto_lock_after_days'])
    .executeTakeFirst();
  if (!team) throw teamNotFound();
  return team;
}

/** Sets or clears (null) the team's auto_lock_after_days (0 to 366). */
export async function setAutoLock(db: Kysely<Database>, teamId: number, days: number | null): Promise<Team> {
  if (days !== null && (!Number.isInteger(days) || days < 0 || days > 366))
    throw validationError('auto_lock_after_days must be 0 to 366, or null', 'auto_lock_after_days');
  const team = await db
    .updateTable('teams')
    .set({ auto_lock_after_days: days })
    .where('id', '=', teamId)
    .returning(['id', 'name', 'created_at', 'absence_approval', 'auto_lock_after_days'])
    .executeTakeFirst();
  if (!team) throw teamNotFound();
  return team;
}

/** Deletes the team and its memberships (ON DELETE CASCADE); the accounts stay. */
export async function deleteTeam(db: Kysely<Database>, teamId: number): Promise<void> {
  const deleted = await db.deleteFrom('teams').where('id', '=', teamId).executeTakeFirst();
  if (Number(deleted.numDeletedRows) === 0) throw teamNotFound();
}

export async function teamById(db: Kysely<Database>, teamId: number): Promise<Team | undefined> {
  return db.selectFrom('teams').select(TEAM_COLUMNS).where('teams.id', '=', teamId).executeTakeFirst();
}

/** A team by its id (digits) or its name (without regard to case), as the CLI names one; NOT_FOUND otherwise. */
export async function findTeam(db: Kysely<Database>, reference: string): Promise<Team> {
  const byId = /^[0-9]{1,15}$/.test(reference) ? await teamById(db, Number(reference)) : undefined;
  if (byId) return byId;
  // By the key the unique index compares.
  const byName = await db.selectFrom('teams').select(TEAM_COLUMNS).where('teams.name_key', '=', teamNameKey(reference.trim())).executeTakeFirst();
  if (!byName) throw new ServiceError('NOT_FOUND', `no team named ${reference}`);
  return byName;
}

/** Every team (an admin's reach), or the teams `userId` is in; by name. */
export async function listTeams(db: Kysely<Database>, userId: number | 'all'): Promise<Team[]> {
  let query = db.selectFrom('teams').select(TEAM_COLUMNS).orderBy('teams.name').orderBy('teams.id');
  if (userId !== 'all') {
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('team_members')
          .select('team_members.team_id')
          .whereRef('team_members.team_id', '=', 'teams.id')
          .where('team_members.user_id', '=', userId),
      ),
    );
  }
  return query.execute();
}
