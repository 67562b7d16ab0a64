// Failed logins against unknown identifiers are now stored under a keyed hash of the identifier:
// the rows kept so far hold what people typed in clear (passwords typed into the e-mail field among
// them). They only feed a lock of at most LOCKOUT_DURATION, so they are deleted, not converted.
// Frozen in time: uses Kysely<any>, never the application's current table types.
import type { Kysely } from 'kysely';

export async function up(db: Kysely<any>): Promise<void> {
  await db.deleteFrom('unknown_login_failures').execute();
}

export async function down(): Promise<void> {
  // Nothing to restore: the deleted identifiers must not come back.
}
