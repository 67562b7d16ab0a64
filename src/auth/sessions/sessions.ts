// Session records (docs/api.md, Authentication): a token is stored only as the SHA-256 of the whole
// token, and accepted only when its record exists, has not expired and its signature is valid
// (src/auth/sessions/credentials.ts). Storing, listing and revoking them is here.
import type { Transaction } from 'kysely';
import type { Database } from '../../db/types.js';
import { hashToken, type SessionClient, type SessionRecord, type SignedSession } from './records.js';
import { currentKeyId, type SessionContext } from './signing.js';

/**
 * The most sessions an account keeps. A sign-in beyond it revokes the oldest (the one signed in
 * earliest): a person signs in on a new device without first signing out of an old one, and a
 * script that signs in without signing out cannot grow the table. Refusing the new sign-in instead
 * would lock the owner out until sessions expire.
 */
export const MAX_SESSIONS_PER_USER = 50;

/** Longer user agents are cut: the column is for telling devices apart, not for storing headers. */
const USER_AGENT_MAX_LENGTH = 256;

/**
 * Stores a signed session, inside the caller's transaction (login's), and revokes the account's
 * oldest sessions beyond MAX_SESSIONS_PER_USER in the same commit.
 */
export async function storeSession(signed: SignedSession, trx: Transaction<Database>): Promise<void> {
  await trx
    .insertInto('auth_tokens')
    .values({
      user_id: signed.userId,
      token_hash: signed.tokenHash,
      created_at: signed.createdAt.toISOString(),
      expires_at: signed.expiresAt.toISOString(),
      key_id: signed.keyId,
    })
    .execute();
  const newest = trx.selectFrom('auth_tokens').select('id').where('user_id', '=', signed.userId).orderBy('id', 'desc').limit(MAX_SESSIONS_PER_USER);
  await trx.deleteFrom('auth_tokens').where('user_id', '=', signed.userId).where('id', 'not in', newest).execute();
}

/** Notes where a new session signed in from (after login; a lost write only loses the note). */
export async function recordClient(context: SessionContext, token: string, client: SessionClient): Promise<void> {
  await context.database.bestEffort((connection) =>
    connection
      .updateTable('auth_tokens')
      .set({ client_address: client.clientAddress, user_agent: client.userAgent?.slice(0, USER_AGENT_MAX_LENGTH) ?? null })
      .where('token_hash', '=', hashToken(token))
      .execute(),
  );
}

export async function revokeSession(context: SessionContext, tokenHash: string): Promise<number> {
  const result = await context.database.db.deleteFrom('auth_tokens').where('token_hash', '=', tokenHash).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Deletes every session of the account (`token revoke --user`). */
export async function revokeSessionsOfUser(context: SessionContext, userId: number): Promise<number> {
  const result = await context.database.db.deleteFrom('auth_tokens').where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Deletes the session of a token (`token revoke --token`), saying whose it was. */
export async function revokeSessionByHash(context: SessionContext, tokenHash: string): Promise<{ id: number; userId: number } | undefined> {
  const row = await context.database.db.deleteFrom('auth_tokens').where('token_hash', '=', tokenHash).returning(['id', 'user_id']).executeTakeFirst();
  return row ? { id: row.id, userId: row.user_id } : undefined;
}

/** Deletes one session of the account by its id (`token revoke --id`): the lost phone, not the rest. */
export async function revokeSessionById(context: SessionContext, id: number): Promise<{ userId: number } | undefined> {
  const row = await context.database.db.deleteFrom('auth_tokens').where('id', '=', id).returning('user_id').executeTakeFirst();
  return row ? { userId: row.user_id } : undefined;
}

/**
 * Deletes the sessions signed with a secret that is no longer configured (at start of `serve`):
 * their tokens cannot be verified any more, and restoring that secret must not revive them.
 * Sessions from before key ids were stored are left to expire.
 */
export async function deleteSessionsOfRetiredSecrets(context: SessionContext): Promise<number> {
  const current = await currentKeyId(context);
  const result = await context.database.db.deleteFrom('auth_tokens').where('key_id', 'is not', null).where('key_id', '!=', current).executeTakeFirst();
  return Number(result.numDeletedRows);
}

export async function revokeAllSessions(context: SessionContext): Promise<number> {
  const result = await context.database.db.deleteFrom('auth_tokens').executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The account's sessions that have not expired (never the token, which is not stored). */
export async function listSessionsOfUser(context: SessionContext, userId: number): Promise<SessionRecord[]> {
  return context.database.db
    .selectFrom('auth_tokens')
    .select(['id', 'created_at', 'expires_at', 'client_address', 'user_agent'])
    .where('user_id', '=', userId)
    .where('expires_at', '>', context.clock.now().toISOString())
    .orderBy('created_at')
    .execute();
}
