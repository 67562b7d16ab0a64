// Reading accounts and shaping the public User object (docs/api.md, Conventions). No route or command
// ever sees a row with a hash: the public shape is built here.
import type { ExpressionBuilder, Kysely } from 'kysely';
import type { AccountStatus, Database, UserRole } from '../../db/types.js';
import { ServiceError } from '../../common/errors.js';
import { normalizeLoginIdentifier } from './fields.js';

export interface PublicUser {
  id: number;
  email: string;
  full_name: string;
  username: string | null;
  created_at: string;
}

export interface AccountSummary {
  user: PublicUser;
  /** What the account may do (docs/teams.md). */
  role: UserRole;
  status: AccountStatus;
  failed_attempts: number;
  locked_until: string | null;
  active_sessions: number;
  /** Two-factor sign-in is on (set up and confirmed with a code). */
  two_factor: boolean;
  /** The start of the newest session still kept (sessions are deleted when they end); null: none. */
  last_sign_in_at: string | null;
}

/** The columns of the public User object: every query that answers a User selects exactly these. */
export const PUBLIC_USER_COLUMNS = ['users.id', 'users.email', 'users.full_name', 'users.username', 'users.created_at'] as const;

/**
 * The condition "this account has that e-mail address or username": the identifier is already
 * lower-cased (normalizeLoginIdentifier); usernames compare through lower(), as their unique index does.
 */
export function identifierMatches(kind: 'email' | 'username', value: string) {
  return (eb: ExpressionBuilder<Database, 'users'>) =>
    kind === 'email' ? eb('users.email', '=', value) : eb(eb.fn('lower', ['users.username']), '=', value.toLowerCase());
}

export interface UserDirectoryDeps {
  db: Kysely<Database>;
}

export function createUserDirectory({ db }: UserDirectoryDeps) {
  /**
   * The account of an e-mail address or a username (admin commands take either, like the login
   * field), or USER_NOT_FOUND.
   */
  async function requireUser(identifier: string): Promise<PublicUser> {
    const { kind, value } = normalizeLoginIdentifier(identifier);
    const user = await db.selectFrom('users').select(PUBLIC_USER_COLUMNS).where(identifierMatches(kind, value)).executeTakeFirst();
    if (!user) throw new ServiceError('USER_NOT_FOUND', `no account with the ${kind === 'email' ? 'e-mail address' : 'username'} ${value}`);
    return user;
  }

  /** The account of an id (whose session an admin command just revoked, say), or undefined once it is deleted. */
  async function userById(id: number): Promise<PublicUser | undefined> {
    return db.selectFrom('users').select(PUBLIC_USER_COLUMNS).where('users.id', '=', id).executeTakeFirst();
  }

  return { requireUser, userById };
}

export type UserDirectory = ReturnType<typeof createUserDirectory>;
