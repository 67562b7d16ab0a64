// What a session is (docs/api.md, Authentication): its shapes, its stored hash, and the record lookup
// that runs on every request with a session token (prepared by src/auth/sessions/credentials.ts),
// with the mapper that builds its row from SQLite's array row, written beside the query it reads.
import { hash } from 'node:crypto';
import { sql, type CompiledQuery, type Kysely, type Transaction } from 'kysely';
import type { KeyCondition } from '../../db/database.js';
import type { Database, UserRole } from '../../db/types.js';
import { ServiceError } from '../../common/errors.js';
import { PUBLIC_USER_COLUMNS, type PublicUser } from '../accounts/users.js';

export interface AuthenticatedSession {
  user: PublicUser;
  /** The account's role (docs/teams.md), read with the session on every request. */
  role: UserRole;
  tokenHash: string;
  expiresAt: Date;
  /** Set when the credential is an API token (src/auth/sessions/api-tokens.ts): it may not manage the account. */
  apiTokenId?: number;
}

export interface IssuedSession {
  token: string;
  expiresAt: Date;
}

/** A signed token not stored yet (login stores it in the same transaction as the lockout reset). */
export interface SignedSession extends IssuedSession {
  userId: number;
  tokenHash: string;
  createdAt: Date;
  /** The key id of the secret that signed it (also the token's `kid` header). */
  keyId: string;
}

/** Where a session was signed in from, as the client said (shown by `token list`). */
export interface SessionClient {
  clientAddress: string;
  userAgent: string | undefined;
}

export interface SessionRecord {
  id: number;
  created_at: string;
  expires_at: string;
  client_address: string | null;
  user_agent: string | null;
}

/** SHA-256 of the token, hex. The one-shot `hash` costs half of a Hash object (it runs on every request). */
export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

export function unauthorized(): ServiceError {
  return new ServiceError('UNAUTHORIZED', 'Authentication required: a valid session token is missing');
}

/**
 * In a transaction that acts for a session (two-factor set-up and reauthentication, closing the
 * account): the calling session must still exist, since it may have been revoked meanwhile.
 */
export async function requireLiveSession(trx: Transaction<Database>, tokenHash: string): Promise<void> {
  if (!(await trx.selectFrom('auth_tokens').select('id').where('token_hash', '=', tokenHash).executeTakeFirst())) throw unauthorized();
}

/** The row of the per-request session lookup. */
export interface SessionRecordRow {
  lookup_key: string;
  expires_at: string;
  id: number;
  email: string;
  full_name: string;
  username: string | null;
  created_at: string;
  role: UserRole;
}

/** The record lookup of every protected request with a session token; its only parameter is the hash (or hashes). */
export function sessionLookupQuery(db: Kysely<Database>) {
  return (keyIs: KeyCondition): CompiledQuery<SessionRecordRow> =>
    db
      .selectFrom('auth_tokens')
      .innerJoin('users', 'users.id', 'auth_tokens.user_id')
      .innerJoin('auth_info', 'auth_info.user_id', 'auth_tokens.user_id')
      .select(['auth_tokens.token_hash as lookup_key', 'auth_tokens.expires_at', ...PUBLIC_USER_COLUMNS, 'users.role'])
      .where((eb) => keyIs(eb.ref('auth_tokens.token_hash')))
      // A disabled account's sessions are deleted when it is disabled; this also refuses any that
      // a login racing the disable could have stored.
      .where(sql<boolean>`auth_info.status = 'active'`) // a literal: the lookup's only parameter is the hash (or hashes)
      .compile();
}

/** The row of sessionLookupQuery from its values in select order (SQLite reads rows as arrays: docs/performance.md). */
export function sessionRecordOfValues(values: unknown[]): SessionRecordRow {
  return {
    lookup_key: values[0] as string,
    expires_at: values[1] as string,
    id: values[2] as number,
    email: values[3] as string,
    full_name: values[4] as string,
    username: values[5] as string | null,
    created_at: values[6] as string,
    role: values[7] as UserRole,
  };
}

/** The record of a live session: throws UNAUTHORIZED when there is none or it has expired. */
export function liveRecord(record: SessionRecordRow | undefined, now: Date): SessionRecordRow {
  if (!record || new Date(record.expires_at) <= now) throw unauthorized();
  return record;
}

export function sessionOfRecord(record: SessionRecordRow, tokenHash: string): AuthenticatedSession {
  const { lookup_key: _key, expires_at, role, ...user } = record;
  return { user, role, tokenHash, expiresAt: new Date(expires_at) };
}
