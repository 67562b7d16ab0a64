// The seal of an approved month as the timesheet prints it and the month's JSON carries it (docs/teams.md,
// "The seal"): the digest, who submitted and approved the month and when, as plain data for time/.
import type { Kysely } from 'kysely';
import type { Database } from '../../db/types.js';
import type { SealPerson, SheetSeal } from '../../time/timesheet/timesheet.js';

async function personOf(db: Kysely<Database>, id: number | null): Promise<SealPerson | null> {
  if (id === null) return null;
  const row = await db.selectFrom('users').select(['id', 'full_name', 'email']).where('id', '=', id).executeTakeFirst();
  // An account deleted since is named by its id alone.
  return row ? { id: row.id, name: row.full_name, email: row.email } : { id, name: `account ${id}`, email: '' };
}

/** The month's seal while it is approved and sealed; null otherwise (open, submitted, returned, locked, reopened). */
export async function sheetSeal(db: Kysely<Database>, userId: number, month: string): Promise<SheetSeal | null> {
  const row = await db
    .selectFrom('months')
    .select(['state', 'digest', 'submitted_at', 'submitted_by', 'decided_at', 'decided_by'])
    .where('user_id', '=', userId)
    .where('month', '=', month)
    .executeTakeFirst();
  if (!row || row.state !== 'approved' || !row.digest || !row.decided_at) return null;
  return {
    digest: row.digest,
    submitted_at: row.submitted_at,
    submitted_by: await personOf(db, row.submitted_by),
    approved_at: row.decided_at,
    approved_by: await personOf(db, row.decided_by),
  };
}
