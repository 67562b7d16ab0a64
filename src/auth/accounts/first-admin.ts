// The first admin (docs/teams.md, "The first admin"). While no account is an active admin, each start
// of `serve` issues a one-time setup link and prints it on its terminal (like Jenkins' unlock key): only
// whoever can read the server's output can make the first admin from the browser; a registration
// without the link makes a member. Registering through a link creates the account as an admin and
// removes every link in the same transaction: of two registrations with links, even in two processes,
// exactly one becomes the admin, and no link works once an admin exists.
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { TransactionalDatabase } from '../../db/database.js';
import type { Database } from '../../db/types.js';
import type { Clock } from '../../common/clock.js';
import { ServiceError } from '../../common/errors.js';
import type { AuditEvent } from '../audit.js';
import type { PasswordHasher } from '../passwords/hasher.js';
import { checkNewPassword } from '../passwords/policy.js';
import { hashToken } from '../sessions/records.js';
import { insertAccountIn, rethrowTaken, type NewAccountInput } from './accounts.js';
import { normalizeEmail, normalizeFullName, normalizeUsername } from './fields.js';
import { hasActiveAdmin, lockActiveAdmins } from './roles.js';
import type { PublicUser } from './users.js';

/** How long a printed link works at most; it stops working earlier, as soon as an admin exists. */
export const SETUP_LINK_TTL_SECONDS = 7 * 24 * 3600;

export interface FirstAdminDeps {
  database: TransactionalDatabase;
  clock: Clock;
  hasher: PasswordHasher;
  audit: { record(event: AuditEvent, executor?: Kysely<Database>): Promise<void> };
}

export function invalidLink(): ServiceError {
  return new ServiceError('INVALID_SETUP_LINK', 'This setup link is not valid, has expired, or an admin exists already; sign up without it or ask the admin');
}

/**
 * A new setup link's token while no account is an active admin, else undefined. Links of earlier
 * starts stay valid until they expire (two processes each print one); expired ones are removed here.
 */
async function issueLink(deps: Pick<FirstAdminDeps, 'database' | 'clock'>): Promise<string | undefined> {
  const { db } = deps.database;
  if (await hasActiveAdmin(db)) {
    await db.deleteFrom('admin_setup_links').execute();
    return undefined;
  }
  const now = deps.clock.now();
  const token = randomBytes(32).toString('base64url');
  await db.deleteFrom('admin_setup_links').where('expires_at', '<=', now.toISOString()).execute();
  await db
    .insertInto('admin_setup_links')
    .values({
      token_hash: hashToken(token),
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + SETUP_LINK_TTL_SECONDS * 1000).toISOString(),
    })
    .execute();
  return token;
}

/** Whether a link can still be used (the registration page says so before the form is filled in). */
async function linkUsable(deps: Pick<FirstAdminDeps, 'database' | 'clock'>, token: string): Promise<boolean> {
  const { db } = deps.database;
  const link = await db
    .selectFrom('admin_setup_links')
    .select('token_hash')
    .where('token_hash', '=', hashToken(token))
    .where('expires_at', '>', deps.clock.now().toISOString())
    .executeTakeFirst();
  return link !== undefined && !(await hasActiveAdmin(db));
}

/** POST /api/auth/register with `setup_token`: the account is made an admin; every link is used up. Open even when registration is closed. */
async function registerFirstAdmin(deps: FirstAdminDeps, input: NewAccountInput, token: string): Promise<PublicUser> {
  const { database, clock, hasher, audit } = deps;
  // A cheap look first, so that an unusable link costs no argon2 work.
  if (!(await linkUsable(deps, token))) throw invalidLink();
  const fields = { email: normalizeEmail(input.email), full_name: normalizeFullName(input.full_name), username: normalizeUsername(input.username) };
  await checkNewPassword(input.password);
  // Outside the transaction, which must never wait for argon2.
  const passwordHash = await hasher.hash(input.password);
  const tokenHash = hashToken(token);
  return rethrowTaken(
    database.transact(async (trx) => {
      const now = clock.now().toISOString();
      // Every link goes at once: a second registration, with this link or another, finds none (on
      // PostgreSQL it waits for this transaction's row locks and then finds its rows deleted).
      const removed = await trx.deleteFrom('admin_setup_links').returning(['token_hash', 'expires_at']).execute();
      const ours = removed.find((link) => link.token_hash === tokenHash);
      if (!ours || new Date(ours.expires_at).getTime() <= new Date(now).getTime()) throw invalidLink();
      if ((await lockActiveAdmins(database, trx)).length > 0) throw invalidLink();
      const user = await insertAccountIn(trx, fields, passwordHash, now);
      await trx.updateTable('users').set({ role: 'admin' }).where('id', '=', user.id).execute();
      await audit.record(
        {
          action: 'role_changed',
          actor: `user:${user.id}`,
          user: { id: user.id, email: user.email },
          detail: { from: 'member', to: 'admin', by: 'setup link' },
        },
        trx,
      );
      return user;
    }),
  );
}

export function createFirstAdminService(deps: FirstAdminDeps) {
  return {
    issueLink: () => issueLink(deps),
    linkUsable: (token: string) => linkUsable(deps, token),
    registerFirstAdmin: (input: NewAccountInput, token: string) => registerFirstAdmin(deps, input, token),
  };
}
