import { sql, type Kysely } from 'kysely';
import type { Database } from '../db/types.js';

/** True when the database answers a query and accepts a write lock (a read-only or full disk does not). */
export async function checkDatabase(db: Kysely<Database>): Promise<boolean> {
  try {
    await sql`select 1`.execute(db);
    return true;
  } catch {
    return false;
  }
}
