// Reading accounts and shaping the public User object (docs/api.md, Conventions). No route or command
// ever sees a row with a hash: the public shape is built here.
import type { Kysely } from 'kysely';
import type { AccountStatus, Database } from '../db/types.js';
import { ServiceError } from '../shared/errors.js';
import { normalizeEmail } from './account-fields.js';

export interface PublicUser {
  id: number;
  email: string;
  full_name: string;
  username: string | null;
  created_at: string;
}

export interface AccountSummary {
  user: PublicUser;
  status: AccountStatus;
  failed_attempts: number;
  locked_until: string | null;
  active_sessions: number;
}

/** The columns of the public User object: every query that answers a User selects exactly these. */
export const PUBLIC_USER_COLUMNS = ['users.id', 'users.email', 'users.full_name', 'users.username', 'users.created_at'] as const;

export function createUserDirectory(db: Kysely<Database>) {
  /** The account of an e-mail address, or USER_NOT_FOUND (for admin commands). */
  async function requireUserByEmail(rawEmail: string): Promise<PublicUser> {
    const email = normalizeEmail(rawEmail);
    const user = await db.selectFrom('users').select(PUBLIC_USER_COLUMNS).where('users.email', '=', email).executeTakeFirst();
    if (!user) throw new ServiceError('USER_NOT_FOUND', `no account with the e-mail address ${email}`);
    return user;
  }

  return { requireUserByEmail };
}

export type UserDirectory = ReturnType<typeof createUserDirectory>;
