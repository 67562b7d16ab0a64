// Session tokens (docs/api.md, Authentication): HS256 JWTs with sub, iat, exp and a random jti, stored only as
// the SHA-256 of the whole token. A token is accepted only when its record exists, has not expired
// and its signature is valid. The record is looked up first: it is cheap and turns away unknown and
// revoked tokens before any cryptography. A verified signature is remembered (bounded, keyed by the
// token hash): it cannot change while the secret is the same, and the record and the expiry are
// still checked on every request, so logout and revoke take effect at once on every process.
import { createHash, hash, randomBytes, webcrypto } from 'node:crypto';
import { sql, type Kysely, type Transaction } from 'kysely';
import type { OpenedDatabase } from '../../db/database.js';
import type { Database } from '../../db/types.js';
import type { Clock } from '../../common/clock.js';
import { ServiceError } from '../../common/errors.js';
import { PUBLIC_USER_COLUMNS, type PublicUser } from '../accounts/users.js';

/** Longer than any token this server issues by far; larger headers are refused unread. */
const MAX_TOKEN_LENGTH = 2048;
const VERIFIED_CACHE_SIZE = 10_000;

export interface AuthenticatedSession {
  user: PublicUser;
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

/**
 * The most sessions an account keeps. A sign-in beyond it revokes the oldest (the one signed in
 * earliest): a person signs in on a new device without first signing out of an old one, and a
 * script that signs in without signing out cannot grow the table. Refusing the new sign-in instead
 * would lock the owner out until sessions expire.
 */
export const MAX_SESSIONS_PER_USER = 50;

/** Longer user agents are cut: the column is for telling devices apart, not for storing headers. */
const USER_AGENT_MAX_LENGTH = 256;

/** A secret's key id: the first 8 bytes of its SHA-256, hex (names the secret, reveals nothing of it). */
function keyIdOf(secret: Uint8Array): string {
  return createHash('sha256').update(secret).digest('hex').slice(0, 16);
}

interface SessionRecordRow {
  lookup_key: string;
  expires_at: string;
  id: number;
  email: string;
  full_name: string;
  username: string | null;
  created_at: string;
}

// jose is loaded on first use: admin commands that never sign or verify do not pay for it.
let joseModule: Promise<typeof import('jose')> | undefined;
const loadJose = () => (joseModule ??= import('jose'));

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

function sessionOfRecord(record: SessionRecordRow, tokenHash: string): AuthenticatedSession {
  const { lookup_key: _key, expires_at, ...user } = record;
  return { user, tokenHash, expiresAt: new Date(expires_at) };
}

export function unauthorized(): ServiceError {
  return new ServiceError('UNAUTHORIZED', 'Authentication required: a valid session token is missing');
}

export function createSessionService(
  database: Pick<OpenedDatabase, 'db' | 'prepareLookup' | 'bestEffort'>,
  clock: Clock,
  options: { expirationSeconds: number; loadSecret: () => Uint8Array },
) {
  const { db } = database;
  let key: Promise<webcrypto.CryptoKey> | undefined;
  let keyId: string | undefined;
  const verifiedSignatures = new Set<string>();

  /** The record lookup of every protected request, as a prepared statement (it runs on every request). */
  const lookupRecord = database.prepareLookup<SessionRecordRow>((keyIs) =>
    db
      .selectFrom('auth_tokens')
      .innerJoin('users', 'users.id', 'auth_tokens.user_id')
      .innerJoin('auth_info', 'auth_info.user_id', 'auth_tokens.user_id')
      .select(['auth_tokens.token_hash as lookup_key', 'auth_tokens.expires_at', ...PUBLIC_USER_COLUMNS])
      .where((eb) => keyIs(eb.ref('auth_tokens.token_hash')))
      // A disabled account's sessions are deleted when it is disabled; this also refuses any that
      // a login racing the disable could have stored.
      .where(sql<boolean>`auth_info.status = 'active'`) // a literal: the lookup's only parameter is the hash (or hashes)
      .compile(),
  );

  // Imported once: jose costs ~3x more per call with raw bytes than with a CryptoKey.
  function signingKey(): Promise<webcrypto.CryptoKey> {
    key ??= Promise.resolve().then(() => {
      const secret = options.loadSecret();
      keyId = keyIdOf(secret);
      return webcrypto.subtle.importKey('raw', secret, { name: 'HMAC', hash: 'SHA-256' }, false, ['sign', 'verify']);
    });
    return key;
  }

  /** The key id of the configured secret (loads it on first use). */
  async function currentKeyId(): Promise<string> {
    await signingKey();
    return keyId as string;
  }

  function rememberVerified(tokenHash: string): void {
    if (verifiedSignatures.size >= VERIFIED_CACHE_SIZE) {
      // Sets iterate in insertion order: drop the oldest entry.
      const oldest = verifiedSignatures.values().next().value;
      if (oldest !== undefined) verifiedSignatures.delete(oldest);
    }
    verifiedSignatures.add(tokenHash);
  }

  async function signSession(userId: number): Promise<SignedSession> {
    const { SignJWT } = await loadJose();
    const now = clock.now();
    const issuedAt = Math.floor(now.getTime() / 1000);
    const expiresAtSeconds = issuedAt + options.expirationSeconds;
    const signingKeyId = await currentKeyId();
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT', kid: signingKeyId })
      .setSubject(String(userId))
      .setIssuedAt(issuedAt)
      .setExpirationTime(expiresAtSeconds)
      .setJti(randomBytes(16).toString('base64url'))
      .sign(await signingKey());
    return { userId, token, tokenHash: hashToken(token), createdAt: now, expiresAt: new Date(expiresAtSeconds * 1000), keyId: signingKeyId };
  }

  /**
   * Stores a signed session, inside the caller's transaction (login's), and revokes the account's
   * oldest sessions beyond MAX_SESSIONS_PER_USER in the same commit.
   */
  async function storeSession(signed: SignedSession, trx: Transaction<Database>): Promise<void> {
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
  async function recordClient(token: string, client: SessionClient): Promise<void> {
    await database.bestEffort((connection) =>
      connection
        .updateTable('auth_tokens')
        .set({ client_address: client.clientAddress, user_agent: client.userAgent?.slice(0, USER_AGENT_MAX_LENGTH) ?? null })
        .where('token_hash', '=', hashToken(token))
        .execute(),
    );
  }

  /** The three checks of the contract; every failure is UNAUTHORIZED, whatever its cause. */
  async function verifySignature(token: string, tokenHash: string, record: SessionRecordRow, now: Date): Promise<AuthenticatedSession> {
    try {
      const { jwtVerify } = await loadJose();
      const { payload } = await jwtVerify(token, await signingKey(), {
        algorithms: ['HS256'],
        requiredClaims: ['sub', 'iat', 'exp', 'jti'],
        currentDate: now,
      });
      if (payload.sub !== String(record.id)) throw unauthorized();
    } catch {
      throw unauthorized();
    }
    rememberVerified(tokenHash);
    return sessionOfRecord(record, tokenHash);
  }

  function checkRecord(token: string, tokenHash: string, record: SessionRecordRow | undefined, now: Date): AuthenticatedSession | Promise<AuthenticatedSession> {
    if (!record || new Date(record.expires_at) <= now) throw unauthorized();
    // A signature verified once is remembered for its token; the record and its expiry are read every time.
    return verifiedSignatures.has(tokenHash) ? sessionOfRecord(record, tokenHash) : verifySignature(token, tokenHash, record, now);
  }

  /**
   * The session of a bearer token. Synchronous where it can be (SQLite answers the record at once,
   * and a known token's signature is not verified again): a request that needs no promise makes
   * none (docs/performance.md). Throws (or rejects with) UNAUTHORIZED.
   */
  function authenticate(token: string): AuthenticatedSession | Promise<AuthenticatedSession> {
    if (token.length === 0 || token.length > MAX_TOKEN_LENGTH) throw unauthorized();
    const tokenHash = hashToken(token);
    const now = clock.now();
    const record = lookupRecord(tokenHash);
    // On PostgreSQL the lookup answers a promise (one round trip, shared with the lookups of the same turn).
    return record instanceof Promise ? record.then((row) => checkRecord(token, tokenHash, row, now)) : checkRecord(token, tokenHash, record, now);
  }

  async function revokeSession(tokenHash: string): Promise<number> {
    const result = await db.deleteFrom('auth_tokens').where('token_hash', '=', tokenHash).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Deletes every session of the account (`token revoke --user`). */
  async function revokeSessionsOfUser(userId: number): Promise<number> {
    const result = await db.deleteFrom('auth_tokens').where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** Deletes the session of a token (`token revoke --token`), saying whose it was. */
  async function revokeSessionByHash(tokenHash: string): Promise<{ id: number; userId: number } | undefined> {
    const row = await db.deleteFrom('auth_tokens').where('token_hash', '=', tokenHash).returning(['id', 'user_id']).executeTakeFirst();
    return row ? { id: row.id, userId: row.user_id } : undefined;
  }

  /** Deletes one session of the account by its id (`token revoke --id`): the lost phone, not the rest. */
  async function revokeSessionById(id: number): Promise<{ userId: number } | undefined> {
    const row = await db.deleteFrom('auth_tokens').where('id', '=', id).returning('user_id').executeTakeFirst();
    return row ? { userId: row.user_id } : undefined;
  }

  /**
   * Deletes the sessions signed with a secret that is no longer configured (at start of `serve`):
   * their tokens cannot be verified any more, and restoring that secret must not revive them.
   * Sessions from before key ids were stored are left to expire.
   */
  async function deleteSessionsOfRetiredSecrets(): Promise<number> {
    const current = await currentKeyId();
    const result = await db.deleteFrom('auth_tokens').where('key_id', 'is not', null).where('key_id', '!=', current).executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  async function revokeAllSessions(): Promise<number> {
    const result = await db.deleteFrom('auth_tokens').executeTakeFirst();
    return Number(result.numDeletedRows);
  }

  /** The account's sessions that have not expired (never the token, which is not stored). */
  async function listSessionsOfUser(userId: number): Promise<SessionRecord[]> {
    return db
      .selectFrom('auth_tokens')
      .select(['id', 'created_at', 'expires_at', 'client_address', 'user_agent'])
      .where('user_id', '=', userId)
      .where('expires_at', '>', clock.now().toISOString())
      .orderBy('created_at')
      .execute();
  }

  /** Loads the key now, so a damaged secret file stops `serve` at start rather than at the first login. */
  async function warmUp(): Promise<void> {
    await signingKey();
  }

  return {
    signSession,
    storeSession,
    authenticate,
    revokeSession,
    revokeSessionsOfUser,
    revokeSessionById,
    revokeSessionByHash,
    revokeAllSessions,
    deleteSessionsOfRetiredSecrets,
    recordClient,
    listSessionsOfUser,
    warmUp,
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
