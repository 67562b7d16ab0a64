// Named API tokens for scripts (docs/api.md, "API tokens"; docs/security.md, "API tokens"). A token is
// `ttpat_` and 32 random bytes in base64url: the prefix tells it from a session token (a JWT) at a
// glance, in a log or a secret scanner, and no JWT can start with it. Only its SHA-256 is stored.
// It reaches time tracking, statistics and /api/auth/me like a session, never account management
// (the routes check `apiTokenId`); it is checked on every request like a session (record, expiry,
// active account), so a revoked token is 401 at once.
import { randomBytes } from 'node:crypto';
import { sql, type CompiledQuery, type Kysely, type Transaction } from 'kysely';
import type { KeyCondition, TransactionalDatabase } from '../../db/database.js';
import type { Database, UserRole } from '../../db/types.js';
import { addSeconds, type Clock } from '../../common/clock.js';
import { ServiceError, validationError } from '../../common/errors.js';
import type { ActivityRecorder } from './activity.js';
import { hashToken, unauthorized, type AuthenticatedSession } from './records.js';
import { PUBLIC_USER_COLUMNS } from '../accounts/users.js';

export const API_TOKEN_PREFIX = 'ttpat_';
/** The whole token as the Authorization header carries it: the prefix and 43 base64url characters (256 bits). */
export const API_TOKEN_PATTERN = /^ttpat_[A-Za-z0-9_-]{43}$/;
export const API_TOKEN_NAME_MAX_LENGTH = 100;
export const API_TOKEN_MAX_DAYS = 365;
/** Unexpired tokens one account may hold: each is a standing credential, and the list stays short. */
export const API_TOKENS_PER_ACCOUNT = 50;

const INVISIBLE_CHARACTERS = /[\p{C}\p{Zl}\p{Zp}]/u;

export interface ApiTokenRecord {
  id: number;
  name: string;
  created_at: string;
  expires_at: string;
  last_used_at: string | null;
}

export interface AdminApiTokenRecord extends ApiTokenRecord {
  user_id: number;
  user_email: string;
}

/** The row of the per-request API token lookup. */
export interface ApiTokenRow {
  lookup_key: string;
  token_id: number;
  expires_at: string;
  id: number;
  email: string;
  full_name: string;
  username: string | null;
  created_at: string;
  role: UserRole;
}

function normalizeName(raw: string): string {
  const name = raw.normalize('NFC').trim();
  if (name.length === 0 || name.length > API_TOKEN_NAME_MAX_LENGTH || INVISIBLE_CHARACTERS.test(name)) {
    throw validationError(`name must be 1 to ${API_TOKEN_NAME_MAX_LENGTH} characters without control or invisible characters`, 'name');
  }
  return name;
}

export function apiTokenNotFound(): ServiceError {
  return new ServiceError('NOT_FOUND', 'No such API token of this account');
}

export interface ApiTokenDeps {
  database: Pick<TransactionalDatabase, 'db' | 'transact' | 'lockUser'>;
  clock: Clock;
  activity: ActivityRecorder;
}

/**
 * The record lookup of every request with an API token (prepared by src/auth/sessions/credentials.ts;
 * gathered per turn on PostgreSQL). With REQUIRE_2FA an account without two-factor sign-in reaches
 * nothing with a token made before it.
 */
export function apiTokenLookupQuery(db: Kysely<Database>, requireTwoFactor: boolean) {
  return (keyIs: KeyCondition): CompiledQuery<ApiTokenRow> => {
    let query = db
      .selectFrom('api_tokens')
      .innerJoin('users', 'users.id', 'api_tokens.user_id')
      .innerJoin('auth_info', 'auth_info.user_id', 'api_tokens.user_id')
      .select(['api_tokens.token_hash as lookup_key', 'api_tokens.id as token_id', 'api_tokens.expires_at', ...PUBLIC_USER_COLUMNS, 'users.role'])
      .where((eb) => keyIs(eb.ref('api_tokens.token_hash')))
      .where(sql<boolean>`auth_info.status = 'active'`); // a literal: the lookup's only parameter is the hash (or hashes)
    if (requireTwoFactor) {
      query = query.where((eb) =>
        eb.exists(
          eb
            .selectFrom('two_factor')
            .select('two_factor.user_id')
            .whereRef('two_factor.user_id', '=', 'api_tokens.user_id')
            .where('two_factor.enabled_at', 'is not', null),
        ),
      );
    }
    return query.compile();
  };
}

/** The row of apiTokenLookupQuery from its values in select order (SQLite reads rows as arrays: docs/performance.md). */
export function apiTokenRowOfValues(values: unknown[]): ApiTokenRow {
  return {
    lookup_key: values[0] as string,
    token_id: values[1] as number,
    expires_at: values[2] as string,
    id: values[3] as number,
    email: values[4] as string,
    full_name: values[5] as string,
    username: values[6] as string | null,
    created_at: values[7] as string,
    role: values[8] as UserRole,
  };
}

/** The record, the expiry and an active account; every failure is UNAUTHORIZED, whatever its cause. */
export function sessionOfApiTokenRow(tokenHash: string, row: ApiTokenRow | undefined, now: Date): AuthenticatedSession {
  if (!row || new Date(row.expires_at) <= now) throw unauthorized();
  const { lookup_key: _key, token_id, expires_at, role, ...user } = row;
  return { user, role, tokenHash, expiresAt: new Date(expires_at), apiTokenId: token_id };
}

function withLastUse(deps: ApiTokenDeps, row: ApiTokenRecord & { token_hash: string }): ApiTokenRecord {
  const { token_hash, ...record } = row;
  const noted = deps.activity.notedAt('api_token', token_hash)?.toISOString();
  return { ...record, last_used_at: noted !== undefined && (record.last_used_at === null || noted > record.last_used_at) ? noted : record.last_used_at };
}

/** The fields of a new token, checked before anything is counted or stored: the clean name. */
export function checkNewToken(name: string, expiresInDays: number): string {
  const cleanName = normalizeName(name);
  if (!Number.isInteger(expiresInDays) || expiresInDays < 1 || expiresInDays > API_TOKEN_MAX_DAYS) {
    throw validationError(`expires_in_days must be a whole number from 1 to ${API_TOKEN_MAX_DAYS}`, 'expires_in_days');
  }
  return cleanName;
}

/**
 * Stores a new token of checked fields in a transaction that holds the account's lock; at most
 * API_TOKENS_PER_ACCOUNT unexpired per account. The token is answered only here.
 */
export async function insertToken(
  deps: Pick<ApiTokenDeps, 'clock'>,
  trx: Transaction<Database>,
  userId: number,
  cleanName: string,
  expiresInDays: number,
): Promise<{ token: string; record: ApiTokenRecord }> {
  const token = `${API_TOKEN_PREFIX}${randomBytes(32).toString('base64url')}`;
  const now = deps.clock.now();
  const { count } = await trx
    .selectFrom('api_tokens')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('user_id', '=', userId)
    .where('expires_at', '>', now.toISOString())
    .executeTakeFirstOrThrow();
  if (Number(count) >= API_TOKENS_PER_ACCOUNT) {
    throw new ServiceError('TOO_MANY_API_TOKENS', `An account may hold ${API_TOKENS_PER_ACCOUNT} API tokens; revoke one first`);
  }
  const record = await trx
    .insertInto('api_tokens')
    .values({
      user_id: userId,
      name: cleanName,
      token_hash: hashToken(token),
      created_at: now.toISOString(),
      expires_at: addSeconds(now, expiresInDays * 86_400).toISOString(),
    })
    .returning(['id', 'name', 'created_at', 'expires_at', 'last_used_at'])
    .executeTakeFirstOrThrow();
  return { token, record };
}

/** A new token without asking the owner again (operators, tests); the owner's way is api-token-service.ts. */
export async function createToken(deps: ApiTokenDeps, userId: number, name: string, expiresInDays: number): Promise<{ token: string; record: ApiTokenRecord }> {
  const cleanName = checkNewToken(name, expiresInDays);
  return deps.database.transact(async (trx) => {
    await deps.database.lockUser(trx, userId);
    return insertToken(deps, trx, userId, cleanName, expiresInDays);
  });
}

/** The account's unexpired tokens, newest first (never a token or its hash). */
export async function listTokens(deps: ApiTokenDeps, userId: number): Promise<ApiTokenRecord[]> {
  const rows = await deps.database.db
    .selectFrom('api_tokens')
    .select(['id', 'name', 'created_at', 'expires_at', 'last_used_at', 'token_hash'])
    .where('user_id', '=', userId)
    .where('expires_at', '>', deps.clock.now().toISOString())
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  return rows.map((row) => withLastUse(deps, row));
}

/** Revokes one of the account's tokens; another account's is NOT_FOUND. */
export async function revokeToken(deps: ApiTokenDeps, userId: number, id: number): Promise<ApiTokenRecord> {
  const row = await deps.database.db
    .deleteFrom('api_tokens')
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .returning(['id', 'name', 'created_at', 'expires_at', 'last_used_at'])
    .executeTakeFirst();
  if (!row) throw apiTokenNotFound();
  return row;
}

/** `token list --api`: every unexpired token, or one account's, with its account. */
export async function listAllTokens(deps: ApiTokenDeps, userId?: number): Promise<AdminApiTokenRecord[]> {
  let query = deps.database.db
    .selectFrom('api_tokens')
    .innerJoin('users', 'users.id', 'api_tokens.user_id')
    .select([
      'api_tokens.id',
      'api_tokens.name',
      'api_tokens.created_at',
      'api_tokens.expires_at',
      'api_tokens.last_used_at',
      'api_tokens.token_hash',
      'api_tokens.user_id',
      'users.email as user_email',
    ])
    .where('api_tokens.expires_at', '>', deps.clock.now().toISOString())
    .orderBy('users.email')
    .orderBy('api_tokens.id');
  if (userId !== undefined) query = query.where('api_tokens.user_id', '=', userId);
  return (await query.execute()).map(({ user_id, user_email, ...row }) => ({ ...withLastUse(deps, row), user_id, user_email }));
}

/** `token revoke --api --id`: one token of any account. */
export async function revokeTokenById(deps: ApiTokenDeps, id: number): Promise<{ userId: number } | undefined> {
  const row = await deps.database.db.deleteFrom('api_tokens').where('id', '=', id).returning('user_id').executeTakeFirst();
  return row ? { userId: row.user_id } : undefined;
}

/** `token revoke --api --user`: every token of the account. */
export async function revokeTokensOfUser(deps: ApiTokenDeps, userId: number): Promise<number> {
  const result = await deps.database.db.deleteFrom('api_tokens').where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** `token revoke --api --token -`: the token of this hash (a leaked one, pasted on standard input). */
export async function revokeTokenByHash(deps: ApiTokenDeps, tokenHash: string): Promise<number> {
  const result = await deps.database.db.deleteFrom('api_tokens').where('token_hash', '=', tokenHash).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** `token revoke --api --all`. */
export async function revokeAllTokens(deps: ApiTokenDeps): Promise<number> {
  const result = await deps.database.db.deleteFrom('api_tokens').executeTakeFirst();
  return Number(result.numDeletedRows);
}
