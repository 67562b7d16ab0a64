// Deletes records that can no longer be used, so the database does not grow without bound:
// expired sessions and API tokens, expired or used reset tokens, and failure counts of unknown
// identifiers that are neither locked nor recent.
import type { TransactionalDatabase } from '../db/database.js';
import { addSeconds, type Clock } from '../common/clock.js';

export interface HousekeepingResult {
  sessions: number;
  apiTokens: number;
  resetTokens: number;
  /** Expired or used challenges between a password and its second factor. */
  loginChallenges: number;
  unknownLoginFailures: number;
}

export interface HousekeepingDeps {
  database: TransactionalDatabase;
  clock: Clock;
  options: { lockoutDurationSeconds: number };
}

export function createHousekeeping({ database, clock, options }: HousekeepingDeps) {
  async function deleteExpiredRecords(): Promise<HousekeepingResult> {
    const now = clock.now();
    const nowIso = now.toISOString();
    // A failure count matters only until it could have locked: older ones are stale.
    const staleBefore = addSeconds(now, -options.lockoutDurationSeconds).toISOString();
    return database.transact(async (trx) => {
      const sessions = await trx.deleteFrom('auth_tokens').where('expires_at', '<=', nowIso).executeTakeFirst();
      const apiTokens = await trx.deleteFrom('api_tokens').where('expires_at', '<=', nowIso).executeTakeFirst();
      const resetTokens = await trx
        .deleteFrom('reset_tokens')
        .where((eb) => eb.or([eb('expires_at', '<=', nowIso), eb('used_at', 'is not', null)]))
        .executeTakeFirst();
      const loginChallenges = await trx
        .deleteFrom('login_challenges')
        .where((eb) => eb.or([eb('expires_at', '<=', nowIso), eb('used_at', 'is not', null)]))
        .executeTakeFirst();
      const failures = await trx
        .deleteFrom('unknown_login_failures')
        .where('updated_at', '<=', staleBefore)
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', nowIso)]))
        .executeTakeFirst();
      return {
        sessions: Number(sessions.numDeletedRows),
        apiTokens: Number(apiTokens.numDeletedRows),
        resetTokens: Number(resetTokens.numDeletedRows),
        loginChallenges: Number(loginChallenges.numDeletedRows),
        unknownLoginFailures: Number(failures.numDeletedRows),
      };
    });
  }

  return { deleteExpiredRecords };
}
