// Brute-force lockout (docs/api.md, Sessions and accounts: the rules). The count and the lock live in the database and
// change in one atomic UPDATE per attempt, so parallel requests and several processes never count
// past the limit: once the lock is set, the WHERE clause matches no row and the attempt is refused.
import { sql, type Kysely, type Transaction } from 'kysely';
import type { BestEffortWriter } from '../db/database.js';
import type { Database } from '../db/types.js';
import { addSeconds, secondsUntil, type Clock } from '../shared/clock.js';
import { ServiceError } from '../shared/errors.js';

/** Whom a failed attempt counts against: an account, or an identifier that matches none. */
export type LockoutSubject = { userId: number } | { identifier: string };

export interface LockoutSettings {
  attempts: number;
  durationSeconds: number;
}

/** No lock, or one that has passed (a lock end is an ISO instant, so text order is time order). */
function notLockedAt(nowIso: string) {
  return sql<boolean>`(locked_until is null or locked_until <= ${nowIso})`;
}

export function accountLockedError(lockedUntil: Date, now: Date): ServiceError {
  return new ServiceError('ACCOUNT_LOCKED', 'Too many failed attempts; the account is locked for a while', secondsUntil(lockedUntil, now));
}

export function createLockoutService(db: Kysely<Database>, clock: Clock, bestEffort: BestEffortWriter, settings: LockoutSettings) {
  /** Throws ACCOUNT_LOCKED while the subject is locked. */
  async function assertNotLocked(subject: LockoutSubject): Promise<void> {
    const now = clock.now();
    const row =
      'userId' in subject
        ? await db.selectFrom('auth_info').select('locked_until').where('user_id', '=', subject.userId).executeTakeFirst()
        : await db.selectFrom('unknown_login_failures').select('locked_until').where('identifier', '=', subject.identifier).executeTakeFirst();
    if (row?.locked_until && new Date(row.locked_until) > now) throw accountLockedError(new Date(row.locked_until), now);
  }

  /**
   * Counts one failure. Returns the ACCOUNT_LOCKED error when this failure locked the subject or it was
   * already locked (by a parallel attempt), else undefined. An expired lock starts the count again at 1.
   */
  async function recordFailure(subject: LockoutSubject): Promise<ServiceError | undefined> {
    // A count lost to a power loss gives at most a few more guesses: not worth an fsync per guess.
    return bestEffort((executor) => countFailure(executor, subject));
  }

  async function countFailure(db: Kysely<Database>, subject: LockoutSubject): Promise<ServiceError | undefined> {
    const now = clock.now();
    const nowIso = now.toISOString();
    const lockEnd = addSeconds(now, settings.durationSeconds).toISOString();
    // Old values on the right-hand side: a row with a (necessarily expired) lock restarts at 1.
    const nextCount = sql<number>`case when locked_until is not null then 1 else failed_attempts + 1 end`;
    const nextLock = sql<string | null>`case when (${nextCount}) >= ${settings.attempts} then ${lockEnd} else null end`;

    const row =
      'userId' in subject
        ? await db
            .updateTable('auth_info')
            .set({ failed_attempts: nextCount, locked_until: nextLock, updated_at: nowIso })
            .where('user_id', '=', subject.userId)
            .where(notLockedAt(nowIso))
            .returning(['locked_until'])
            .executeTakeFirst()
        : await db
            .insertInto('unknown_login_failures')
            .values({
              identifier: subject.identifier,
              failed_attempts: 1,
              locked_until: settings.attempts <= 1 ? lockEnd : null,
              updated_at: nowIso,
            })
            .onConflict((conflict) =>
              conflict
                .column('identifier')
                .doUpdateSet({ failed_attempts: nextCount, locked_until: nextLock, updated_at: nowIso })
                .where(sql<boolean>`(unknown_login_failures.locked_until is null or unknown_login_failures.locked_until <= ${nowIso})`),
            )
            .returning(['locked_until'])
            .executeTakeFirst();

    if (!row) {
      // Nothing updated: a parallel attempt set the lock first (or the account is gone).
      return accountLockedError(addSeconds(now, settings.durationSeconds), now);
    }
    return row.locked_until ? accountLockedError(new Date(row.locked_until), now) : undefined;
  }

  /**
   * After a correct password: count back to 0 unless the account was locked meanwhile (then
   * ACCOUNT_LOCKED), inside the caller's transaction.
   */
  async function recordSuccess(userId: number, trx: Transaction<Database>): Promise<void> {
    const now = clock.now();
    const nowIso = now.toISOString();
    const row = await trx
      .updateTable('auth_info')
      .set({ failed_attempts: 0, locked_until: null, updated_at: nowIso })
      .where('user_id', '=', userId)
      .where(notLockedAt(nowIso))
      .returning(['user_id'])
      .executeTakeFirst();
    if (!row) {
      const current = await trx.selectFrom('auth_info').select('locked_until').where('user_id', '=', userId).executeTakeFirst();
      throw accountLockedError(current?.locked_until ? new Date(current.locked_until) : now, now);
    }
  }

  /** Clears the count and the lock (admin unlock, successful reset). */
  async function unlockAccount(userId: number): Promise<void> {
    await db
      .updateTable('auth_info')
      .set({ failed_attempts: 0, locked_until: null, updated_at: clock.now().toISOString() })
      .where('user_id', '=', userId)
      .execute();
  }

  return { assertNotLocked, recordFailure, recordSuccess, unlockAccount };
}

export type LockoutService = ReturnType<typeof createLockoutService>;
