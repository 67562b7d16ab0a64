// Creating accounts: a User and its AuthInfo together, in one transaction.
import type { Transaction } from 'kysely';
import { violatedRule, type TransactionalDatabase } from '../../db/database.js';
import type { Database } from '../../db/types.js';
import type { Clock } from '../../common/clock.js';
import { ServiceError } from '../../common/errors.js';
import { normalizeEmail, normalizeFullName, normalizeUsername } from './fields.js';
import type { PasswordHasher } from '../passwords/hasher.js';
import { checkNewPassword } from '../passwords/policy.js';
import { identifierMatches, type PublicUser } from './users.js';

export function emailTaken(): ServiceError {
  return new ServiceError('EMAIL_TAKEN', 'An account with this e-mail address already exists');
}

export function usernameTaken(): ServiceError {
  return new ServiceError('USERNAME_TAKEN', 'This username is already taken');
}

/** A write that met the unique index of the e-mail address or the username answers as the check before it would. */
export async function rethrowTaken<T>(write: Promise<T>): Promise<T> {
  try {
    return await write;
  } catch (error) {
    const rule = violatedRule(error);
    if (rule === 'email') throw emailTaken();
    if (rule === 'username') throw usernameTaken();
    throw error;
  }
}

export interface NewAccountInput {
  email: string;
  password: string;
  full_name: string;
  username?: string | null;
}

/** The fields of a new account, normalised and checked (normalizeEmail, normalizeFullName, normalizeUsername). */
export interface CheckedAccountFields {
  email: string;
  full_name: string;
  username: string | null;
}

/**
 * Inserts the account (users and auth_info) inside the caller's transaction, or EMAIL_TAKEN /
 * USERNAME_TAKEN. The checks answer the usual case; two registrations racing past them (two
 * processes on PostgreSQL) meet the unique indexes, which the caller maps with rethrowTaken.
 */
export async function insertAccountIn(trx: Transaction<Database>, fields: CheckedAccountFields, passwordHash: string, now: string): Promise<PublicUser> {
  const emailOwner = await trx.selectFrom('users').select('id').where('email', '=', fields.email).executeTakeFirst();
  if (emailOwner) throw emailTaken();
  if (fields.username !== null) {
    const usernameOwner = await trx.selectFrom('users').select('id').where(identifierMatches('username', fields.username)).executeTakeFirst();
    if (usernameOwner) throw usernameTaken();
  }
  const user = await trx
    .insertInto('users')
    .values({ email: fields.email, full_name: fields.full_name, username: fields.username, created_at: now })
    .returning(['id', 'email', 'full_name', 'username', 'created_at'])
    .executeTakeFirstOrThrow();
  await trx
    .insertInto('auth_info')
    .values({ user_id: user.id, password_hash: passwordHash, failed_attempts: 0, locked_until: null, status: 'active', updated_at: now })
    .execute();
  return user;
}

export interface AccountDeps {
  database: TransactionalDatabase;
  clock: Clock;
  hasher: PasswordHasher;
  options: { registrationOpen: boolean };
}

export function createAccountService({ database, clock, hasher, options }: AccountDeps) {
  /** Creates an account (admin command, and registration once it is allowed). */
  async function createAccount(input: NewAccountInput): Promise<PublicUser> {
    const email = normalizeEmail(input.email);
    const fullName = normalizeFullName(input.full_name);
    const username = normalizeUsername(input.username);
    await checkNewPassword(input.password);
    // Hashed before the uniqueness check, so a taken address costs the same time as a free one;
    // and outside the transaction, which must never wait for argon2.
    const passwordHash = await hasher.hash(input.password);

    return rethrowTaken(database.transact((trx) => insertAccountIn(trx, { email, full_name: fullName, username }, passwordHash, clock.now().toISOString())));
  }

  /** POST /api/auth/register: like createAccount, unless registration is closed. */
  async function registerAccount(input: NewAccountInput): Promise<PublicUser> {
    if (!options.registrationOpen) {
      throw new ServiceError('REGISTRATION_CLOSED', 'Registration is closed; ask the administrator for an account');
    }
    return createAccount(input);
  }

  /** Whether self-registration is offered (GET /api/auth/registration): the client hides sign-up when it is not. */
  function registration(): 'open' | 'closed' {
    return options.registrationOpen ? 'open' : 'closed';
  }

  return { createAccount, registerAccount, registration };
}
