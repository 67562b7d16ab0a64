// The signed-in user's own sessions (docs/api.md, "Your sessions"): the list with a readable device,
// the address and when each was last used; revoking one, or every other. Revoking deletes the record,
// so the next request with that token is 401 at once, on every process. Another user's session id is
// 404, as if it did not exist. "Sign out all other devices" also deletes the account's API tokens
// unless the owner asks to keep them (docs/security.md, "an API token survives all seven recovery steps").
import type { TransactionalDatabase } from '../../db/database.js';
import type { Clock } from '../../common/clock.js';
import { ServiceError } from '../../common/errors.js';
import type { ActivityRecorder } from './activity.js';
import { deviceName } from './devices.js';
import type { AuthenticatedSession } from './records.js';

/** The most sessions the list answers (newest first); older ones still work and still expire. */
export const SESSION_LIST_LIMIT = 200;

export interface OwnSession {
  id: number;
  created_at: string;
  last_seen_at: string;
  expires_at: string;
  device: string | null;
  address: string | null;
  current: boolean;
}

export function sessionNotFound(): ServiceError {
  return new ServiceError('NOT_FOUND', 'No such session of this account');
}

export interface OwnSessionDeps {
  database: Pick<TransactionalDatabase, 'db' | 'transact'>;
  clock: Clock;
  activity: ActivityRecorder;
}

/** What "sign out all other devices" ended. */
export interface RevokedOthers {
  sessions: number;
  apiTokens: number;
}

export function createOwnSessionService({ database, clock, activity }: OwnSessionDeps) {
  const { db } = database;
  async function listSessions(session: AuthenticatedSession): Promise<OwnSession[]> {
    const rows = await db
      .selectFrom('auth_tokens')
      .select(['id', 'token_hash', 'created_at', 'last_seen_at', 'expires_at', 'client_address', 'user_agent'])
      .where('user_id', '=', session.user.id)
      .where('expires_at', '>', clock.now().toISOString())
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(SESSION_LIST_LIMIT)
      .execute();
    return rows.map((row) => {
      // What this process noted but has not written yet counts too (the current request above all).
      const noted = activity.notedAt('session', row.token_hash)?.toISOString();
      const stored = row.last_seen_at ?? row.created_at;
      return {
        id: row.id,
        created_at: row.created_at,
        last_seen_at: noted !== undefined && noted > stored ? noted : stored,
        expires_at: row.expires_at,
        device: deviceName(row.user_agent),
        address: row.client_address,
        current: row.token_hash === session.tokenHash,
      };
    });
  }

  /** Revokes one session of the account (the current one too: that is signing out). */
  async function revokeSession(session: AuthenticatedSession, id: number): Promise<{ current: boolean }> {
    const row = await db.deleteFrom('auth_tokens').where('id', '=', id).where('user_id', '=', session.user.id).returning('token_hash').executeTakeFirst();
    if (!row) throw sessionNotFound();
    return { current: row.token_hash === session.tokenHash };
  }

  /** Revokes every session of the account but the calling one, and (unless kept) its API tokens, in one transaction; how many. */
  async function revokeOtherSessions(session: AuthenticatedSession, options: { revokeApiTokens: boolean } = { revokeApiTokens: true }): Promise<RevokedOthers> {
    return database.transact(async (trx) => {
      const sessions = await trx
        .deleteFrom('auth_tokens')
        .where('user_id', '=', session.user.id)
        .where('token_hash', '!=', session.tokenHash)
        .executeTakeFirst();
      const apiTokens = options.revokeApiTokens ? await trx.deleteFrom('api_tokens').where('user_id', '=', session.user.id).executeTakeFirst() : undefined;
      return { sessions: Number(sessions.numDeletedRows), apiTokens: Number(apiTokens?.numDeletedRows ?? 0) };
    });
  }

  return { listSessions, revokeSession, revokeOtherSessions };
}
