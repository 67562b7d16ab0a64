// Password reset (docs/api.md, Password reset). A reset token is 32 random bytes (base64url),
// stored only as its SHA-256, valid for RESET_TOKEN_TTL, used once. An administrator's new link voids
// every pending one; a requested link voids only earlier requested ones, never an administrator's.
import { randomBytes } from 'node:crypto';
import type { TransactionalDatabase } from '../../db/database.js';
import type { ResetTokenIssuer } from '../../db/types.js';
import type { BackgroundTasks, TimedQueue } from '../../common/background.js';
import { addSeconds, type Clock } from '../../common/clock.js';
import { ServiceError } from '../../common/errors.js';
import { normalizeEmail } from '../accounts/fields.js';
import type { PasswordHasher } from './hasher.js';
import { checkNewPassword } from './policy.js';
import { hashToken } from '../sessions/records.js';
import type { UserDirectory } from '../accounts/users.js';

export interface IssuedReset {
  email: string;
  token: string;
  url: string;
  expiresAt: Date;
}

/**
 * How requested reset links reach their readers (src/mail): by e-mail (SMTP), on the terminal (dev
 * mode), or not at all (production without SMTP: then no link is issued on request).
 */
export type ResetLinkDelivery = { mode: 'mail' | 'terminal'; deliver(reset: IssuedReset): void } | { mode: 'none'; reportNotSent(): void };

/**
 * A requested link is mailed at most once per account in this time: more anonymous requests do not
 * flood the owner's mailbox (the earlier e-mail stays valid; tokens are stored hashed, so it cannot
 * be sent again). After it, a new request replaces the earlier requested link.
 */
export const RESET_REQUEST_INTERVAL_SECONDS = 5 * 60;

/**
 * Requests wait in a queue taken up on this timer (src/common/background.ts): the answer to a request
 * never waits for the lookup, the token or the mail, whichever address it names.
 */
export const RESET_QUEUE = { intervalMs: 1000, limit: 1000 } as const;

function invalidResetToken(): ServiceError {
  return new ServiceError('INVALID_RESET_TOKEN', 'The reset token is unknown, expired or already used');
}

export interface ResetDeps {
  database: TransactionalDatabase;
  clock: Clock;
  hasher: PasswordHasher;
  users: UserDirectory;
  /** Runs the queue of requested links (src/common/background.ts). */
  background: BackgroundTasks;
  delivery: ResetLinkDelivery;
  options: { ttlSeconds: number; publicUrl: string };
}

/** The dependencies with the queue of requested links (one per service). */
type ResetContext = ResetDeps & { db: TransactionalDatabase['db']; requests: TimedQueue<string> };

/**
 * Issues a token for an account, voiding the pending ones an issue of this kind replaces. With
 * `unlessRequestedSince`, nothing is issued (null) when a requested link was issued after it. The
 * link always uses PUBLIC_URL.
 */
async function issueResetForUser(
  context: ResetContext,
  userId: number,
  email: string,
  issuedBy: ResetTokenIssuer,
  unlessRequestedSince?: Date,
): Promise<IssuedReset | null> {
  const { database, clock, options } = context;
  const token = randomBytes(32).toString('base64url');
  const now = clock.now();
  const expiresAt = addSeconds(now, options.ttlSeconds);
  const issued = await database.transact(async (trx) => {
    // Read, then write: two requests for one account (two processes) take turns.
    await database.lockUser(trx, userId);
    const pending = trx.deleteFrom('reset_tokens').where('user_id', '=', userId).where('used_at', 'is', null);
    if (unlessRequestedSince) {
      const recent = await trx
        .selectFrom('reset_tokens')
        .select('id')
        .where('user_id', '=', userId)
        .where('issued_by', '=', 'request')
        // A used link counts too: else whoever reads the mailbox gets a fresh link (and a cleared lock) per use.
        .where('created_at', '>', unlessRequestedSince.toISOString())
        .executeTakeFirst();
      if (recent) return false;
    }
    await (issuedBy === 'admin' ? pending : pending.where('issued_by', '=', 'request')).execute();
    await trx
      .insertInto('reset_tokens')
      .values({
        user_id: userId,
        token_hash: hashToken(token),
        created_at: now.toISOString(),
        expires_at: expiresAt.toISOString(),
        used_at: null,
        issued_by: issuedBy,
      })
      .execute();
    return true;
  });
  if (!issued) return null;
  const url = `${options.publicUrl}/password-reset?token=${encodeURIComponent(token)}`;
  return { email, token, url, expiresAt };
}

/** `timetrack reset issue <email>`: USER_NOT_FOUND for an unknown address, ACCOUNT_DISABLED for a disabled one. */
async function issueResetForEmail(context: ResetContext, identifier: string): Promise<IssuedReset> {
  const { users, db } = context;
  const user = await users.requireUser(identifier);
  const { status } = await db.selectFrom('auth_info').select('status').where('user_id', '=', user.id).executeTakeFirstOrThrow();
  if (status !== 'active') throw new ServiceError('ACCOUNT_DISABLED', 'This account is disabled; enable it first (`timetrack user enable`)');
  return (await issueResetForUser(context, user.id, user.email, 'admin'))!;
}

/**
 * POST /api/users/:id/reset-link: the link of `timetrack reset issue` (the same issue), sent the way a
 * requested one is (mailed over SMTP; in dev mode printed on the terminal). A server that can send it
 * nowhere issues none (SERVER_MISCONFIGURED): `timetrack reset issue` prints it on the server.
 */
async function issueAndSendForAdmin(context: ResetContext, identifier: string): Promise<{ issued: IssuedReset; delivery: 'mail' | 'terminal' }> {
  const { delivery } = context;
  if (delivery.mode === 'none') {
    throw new ServiceError('SERVER_MISCONFIGURED', 'This server cannot send e-mail (no SMTP settings): issue the link with `timetrack reset issue`');
  }
  const issued = await issueResetForEmail(context, identifier);
  delivery.deliver(issued);
  return { issued, delivery: delivery.mode };
}

async function issueAndDeliver(context: ResetContext, email: string): Promise<IssuedReset | null> {
  const { clock, delivery, db } = context;
  const account = await db
    .selectFrom('users')
    .innerJoin('auth_info', 'auth_info.user_id', 'users.id')
    .select(['users.id', 'users.email', 'auth_info.status'])
    .where('users.email', '=', email)
    .executeTakeFirst();
  if (!account || account.status !== 'active') return null;
  if (delivery.mode === 'none') {
    delivery.reportNotSent();
    return null;
  }
  // Dev mode shows every link to the requester; only mail is limited per account.
  const since = delivery.mode === 'mail' ? addSeconds(clock.now(), -RESET_REQUEST_INTERVAL_SECONDS) : undefined;
  const issued = await issueResetForUser(context, account.id, account.email, 'request', since);
  if (issued) delivery.deliver(issued);
  return issued;
}

/**
 * POST /api/auth/request-reset. In production a request only puts the address into a queue taken
 * up on a timer (the lookup, the token and the mail happen there, one request after another): the
 * request does the same work and takes the same time for known and unknown addresses, and its
 * answer never waits on SMTP; the result is then null. In dev mode (links shown on the terminal)
 * the issued token is returned for an existing account.
 */
async function requestReset(context: ResetContext, rawEmail: string): Promise<IssuedReset | null> {
  const { delivery, requests } = context;
  // Any address is looked up (an old account may have one that new accounts may not).
  const email = normalizeEmail(rawEmail, { refuseLookAlikes: false });
  if (delivery.mode === 'terminal') return issueAndDeliver(context, email);
  requests.push(email, email);
  return null;
}

/**
 * Sets a new password with a reset token and answers whose account it was. Consuming the token,
 * storing the hash, revoking every session and clearing the lock happen in one transaction; the
 * UPDATE ... WHERE used_at IS NULL makes parallel uses of one token succeed exactly once.
 */
async function resetPassword(context: ResetContext, token: string, newPassword: string): Promise<{ id: number; email: string }> {
  const { database, clock, hasher, db } = context;
  await checkNewPassword(newPassword, 'new_password');
  const tokenHash = hashToken(token);
  const isUsable = async () =>
    db
      .selectFrom('reset_tokens')
      .select('user_id')
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', clock.now().toISOString())
      .executeTakeFirst();
  // A cheap look first, so that an invalid token costs no argon2 work.
  if (!(await isUsable())) throw invalidResetToken();
  const newHash = await hasher.hash(newPassword);

  return database.transact(async (trx) => {
    const now = clock.now().toISOString();
    const consumed = await trx
      .updateTable('reset_tokens')
      .set({ used_at: now })
      .where('token_hash', '=', tokenHash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('user_id')
      .executeTakeFirst();
    if (!consumed) throw invalidResetToken();
    // A disabled account cannot be taken back with a link issued before it was disabled.
    const changed = await trx
      .updateTable('auth_info')
      .set({ password_hash: newHash, failed_attempts: 0, locked_until: null, updated_at: now })
      .where('user_id', '=', consumed.user_id)
      .where('status', '=', 'active')
      .returning('user_id')
      .executeTakeFirst();
    if (!changed) throw invalidResetToken();
    await trx.deleteFrom('auth_tokens').where('user_id', '=', consumed.user_id).execute();
    await trx.deleteFrom('api_tokens').where('user_id', '=', consumed.user_id).execute();
    await trx.deleteFrom('reset_tokens').where('user_id', '=', consumed.user_id).where('used_at', 'is', null).execute();
    return trx.selectFrom('users').select(['id', 'email']).where('id', '=', consumed.user_id).executeTakeFirstOrThrow();
  });
}

export function createResetService(deps: ResetDeps) {
  const context: ResetContext = {
    ...deps,
    db: deps.database.db,
    requests: deps.background.queue<string>('password reset request', RESET_QUEUE, (email) => issueAndDeliver(context, email)),
  };
  return {
    requestReset: (rawEmail: string) => requestReset(context, rawEmail),
    resetPassword: (token: string, newPassword: string) => resetPassword(context, token, newPassword),
    issueResetForEmail: (identifier: string) => issueResetForEmail(context, identifier),
    issueAndSendForAdmin: (identifier: string) => issueAndSendForAdmin(context, identifier),
    /** How a requested link would reach its reader; 'none': the requester must ask the administrator. */
    deliveryMode: (): ResetLinkDelivery['mode'] => deps.delivery.mode,
  };
}
