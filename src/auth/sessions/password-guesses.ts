// The one count of wrong passwords per session (docs/security.md, "a stolen session and the password"):
// every route that takes the password from a signed-in session (change-password, two-factor set-up,
// turning it off, new recovery codes, closing the account) checks it here. A guess is taken before the
// password is verified (one conditional UPDATE of the session's row, so parallel guesses, in one
// process or several, cannot overtake), and the session that sends its SESSION_PASSWORD_GUESSES-th
// wrong password is revoked (401 afterwards). None of it counts toward the owner's sign-in lock: a
// stolen token can neither guess on nor lock its owner out.
import { sql } from 'kysely';
import type { TransactionalDatabase } from '../../db/database.js';
import { ServiceError } from '../../common/errors.js';
import type { PasswordHasher } from '../passwords/hasher.js';

/** Wrong passwords one session may send, over all those routes together, before it is revoked. */
export const SESSION_PASSWORD_GUESSES = 3;

export interface SessionPasswordDeps {
  database: Pick<TransactionalDatabase, 'db'>;
  hasher: Pick<PasswordHasher, 'verify'>;
}

function tooManyGuesses(): ServiceError {
  return new ServiceError('UNAUTHORIZED', 'Too many wrong passwords: this session has been signed out');
}

export interface SessionPasswordOptions {
  /** The message of INVALID_PASSWORD. */
  wrongMessage?: string;
  /** Runs once the guess is taken, before the password is verified (a budget); if it throws, the guess is given back. */
  beforeVerify?: () => void;
}

/** A guess of which nothing was verified (the hashing queue was full, a budget refused it) is given back. */
async function giveBack(deps: SessionPasswordDeps, tokenHash: string): Promise<void> {
  await deps.database.db
    .updateTable('auth_tokens')
    .set({ password_guesses: sql<number>`case when password_guesses > 0 then password_guesses - 1 else 0 end` })
    .where('token_hash', '=', tokenHash)
    .execute();
}

/**
 * Verifies `password` against the account's current hash for the session `tokenHash`: the hash that
 * was verified, or INVALID_PASSWORD, or UNAUTHORIZED when the session has no guess left (it is revoked
 * then) or no longer exists.
 */
async function checkSessionPassword(
  deps: SessionPasswordDeps,
  tokenHash: string,
  userId: number,
  password: string,
  options: SessionPasswordOptions,
): Promise<string> {
  const { db } = deps.database;
  const taken = await db
    .updateTable('auth_tokens')
    .set({ password_guesses: sql<number>`password_guesses + 1` })
    .where('token_hash', '=', tokenHash)
    .where('password_guesses', '<', SESSION_PASSWORD_GUESSES)
    .returning('password_guesses')
    .executeTakeFirst();
  if (!taken) {
    await db.deleteFrom('auth_tokens').where('token_hash', '=', tokenHash).execute();
    throw tooManyGuesses();
  }
  try {
    options.beforeVerify?.();
  } catch (error) {
    await giveBack(deps, tokenHash);
    throw error;
  }
  const { password_hash: passwordHash } = await db.selectFrom('auth_info').select('password_hash').where('user_id', '=', userId).executeTakeFirstOrThrow();
  let matches: boolean;
  try {
    matches = await deps.hasher.verify(passwordHash, password, 'account');
  } catch (error) {
    // The hashing queue was full: nothing was verified, so the guess is given back.
    if (error instanceof ServiceError && error.code === 'BUSY') await giveBack(deps, tokenHash);
    throw error;
  }
  if (!matches) {
    if (taken.password_guesses >= SESSION_PASSWORD_GUESSES) {
      await db.deleteFrom('auth_tokens').where('token_hash', '=', tokenHash).execute();
      throw tooManyGuesses();
    }
    throw new ServiceError('INVALID_PASSWORD', options.wrongMessage ?? 'The password is wrong');
  }
  await db.updateTable('auth_tokens').set({ password_guesses: 0 }).where('token_hash', '=', tokenHash).execute();
  return passwordHash;
}

export function createSessionPasswordCheck(deps: SessionPasswordDeps) {
  return {
    /** The password of the session's account, counted against the session; resolves to the hash that was verified. */
    check: (session: { tokenHash: string; userId: number }, password: string, options: SessionPasswordOptions = {}) =>
      checkSessionPassword(deps, session.tokenHash, session.userId, password, options),
  };
}

export type SessionPasswordCheck = ReturnType<typeof createSessionPasswordCheck>;
