// The audit trail: what admin commands did and what security events changed, in the audit_events
// table (`timetrack audit list`) and as a log line each. Security events that change nothing (a
// failed login) are log lines only: a flood of them must not grow the database.
import os from 'node:os';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../db/types.js';
import type { Clock } from '../common/clock.js';
import { ServiceError } from '../common/errors.js';
import { normalizeLoginIdentifier } from './accounts/fields.js';
import { identifierMatches } from './accounts/users.js';

export type AuditAction =
  | 'account_created'
  | 'account_unlocked'
  | 'account_disabled'
  | 'account_enabled'
  | 'account_deleted'
  | 'account_closed'
  | 'account_locked'
  | 'two_factor_locked'
  | 'account_imported'
  | 'account_updated'
  | 'role_changed'
  | 'team_created'
  | 'team_renamed'
  | 'team_approval_changed'
  | 'leave_request_decided'
  | 'team_auto_lock_set'
  | 'team_deleted'
  | 'team_member_added'
  | 'team_member_removed'
  | 'invitation_created'
  | 'invitation_resent'
  | 'invitation_withdrawn'
  | 'invitation_accepted'
  | 'password_set'
  | 'database_restored'
  | 'sessions_revoked'
  | 'api_token_created'
  | 'api_token_revoked'
  | 'two_factor_enabled'
  | 'two_factor_disabled'
  | 'two_factor_reset'
  | 'recovery_codes_replaced'
  | 'recovery_code_used'
  | 'reset_issued'
  | 'password_changed'
  | 'password_reset'
  | 'entries_imported'
  | 'balance_booked'
  | 'month_submitted'
  | 'month_approved'
  | 'month_returned'
  | 'month_reopened'
  | 'audit_pruned';

export type SecurityEventName =
  | 'login_failed'
  | 'login_locked'
  | 'login_disabled'
  | 'password_changed'
  | 'password_reset'
  | 'sessions_revoked'
  | 'two_factor_enabled'
  | 'two_factor_disabled'
  | 'account_closed';

/** Refused sign-ins are what an operator watches for; the rest are changes an account made. */
const WARNING_EVENTS = new Set<SecurityEventName>(['login_failed', 'login_locked', 'login_disabled']);

export interface AuditEvent {
  action: AuditAction;
  /** `os:<login>` (admin command), `user:<id>` (the account itself), or `server`. */
  actor: string;
  user?: { id: number; email: string };
  /** The account by its id alone, where no personal data may be kept (an account closed by its owner). */
  userId?: number;
  /** What changed; never a secret. */
  detail?: Record<string, unknown>;
}

export interface AuditRecord {
  id: number;
  at: string;
  actor: string;
  action: string;
  user_id: number | null;
  user_email: string | null;
  detail: Record<string, unknown>;
}

/** A login name as sudo passes it on; anything else (control characters, spaces, very long) is shown as `?`. */
const LOGIN_NAME = /^[A-Za-z0-9._][A-Za-z0-9._@-]{0,63}$/;

/**
 * The person running an admin command: their login on this machine (`os:timetrack`), and under sudo
 * also the login that ran sudo (`os:timetrack sudo:alice`, from SUDO_USER, which sudo sets).
 */
export function operatingSystemActor(env: NodeJS.ProcessEnv = process.env): string {
  let login: string;
  try {
    login = `os:${os.userInfo().username}`;
  } catch {
    login = `os:uid ${process.getuid?.() ?? 'unknown'}`;
  }
  const sudoUser = env.SUDO_USER?.trim();
  if (!sudoUser) return login;
  return `${login} sudo:${LOGIN_NAME.test(sudoUser) ? sudoUser : '?'}`;
}

/** A security event as its own log line (`"security":"<name>"`), whatever else the request logs. */
export function securityEvent(logger: Pick<Logger, 'info' | 'warn'>, name: SecurityEventName, fields: Record<string, unknown>): void {
  if (WARNING_EVENTS.has(name)) logger.warn({ security: name, ...fields }, `security event: ${name}`);
  else logger.info({ security: name, ...fields }, `security event: ${name}`);
}

export interface AuditFilter {
  userIds?: number[];
  since?: string;
  until?: string;
  actor?: string;
  action?: string;
  /** The page starts after this row (the last one of the page before, in the order newest first). */
  before?: { at: string; id: number };
  limit?: number;
}

export interface AuditDeps {
  db: Kysely<Database>;
  clock: Clock;
  logger: Logger;
}

/** Rows deleted per statement by `prune`: a bounded write, then the event loop (and other writers) get a turn. */
const AUDIT_PRUNE_BATCH = 1000;

/**
 * The label the trail of a closed account is kept under (its rows' `user_email`, and what
 * `audit list --user` takes): a colon is in no username and there is no "@", so no account's
 * identifier can ever be read as one.
 */
export function closedAccountLabel(userId: number): string {
  return `closed-account:${userId}`;
}

const CLOSED_ACCOUNT_LABEL = /^closed-account:([1-9][0-9]{0,14})$/;

/** One row of the trail, written with the executor given (the caller's transaction, so the change and its record commit together). */
export async function insertAuditEvent(executor: Kysely<Database>, at: Date, event: AuditEvent): Promise<void> {
  await executor
    .insertInto('audit_events')
    .values({
      at: at.toISOString(),
      actor: event.actor,
      action: event.action,
      user_id: event.user?.id ?? event.userId ?? null,
      user_email: event.user?.email ?? null,
      detail: JSON.stringify(event.detail ?? {}),
    })
    .execute();
}

/** What a closed account's rows lose: who the person was, and text the owner typed (a token's name). Addresses, actions, times and counts stay. */
const PERSONAL_DETAIL_KEYS = ['email', 'full_name', 'username', 'name', 'note'];

/**
 * In the transaction that closes an account: its earlier rows keep their actions, times, client
 * addresses and counts under the account's label instead of its e-mail address, and lose the
 * personal fields of their details (an address, a name or a username it had), so the trail of a
 * closed account can still be followed (`audit list --user closed-account:<id>`).
 */
export async function keepTrailOfClosedAccount(trx: Kysely<Database>, userId: number): Promise<void> {
  await trx
    .updateTable('audit_events')
    .set({ user_email: closedAccountLabel(userId) })
    .where('user_id', '=', userId)
    .execute();
  const personal = await trx
    .selectFrom('audit_events')
    .select(['id', 'detail'])
    .where('user_id', '=', userId)
    .where((eb) => eb.or(PERSONAL_DETAIL_KEYS.map((key) => eb('detail', 'like', `%"${key}"%`))))
    .execute();
  for (const row of personal) {
    const detail = JSON.parse(row.detail) as Record<string, unknown>;
    for (const key of PERSONAL_DETAIL_KEYS) delete detail[key];
    await trx
      .updateTable('audit_events')
      .set({ detail: JSON.stringify(detail) })
      .where('id', '=', row.id)
      .execute();
  }
}

export function createAuditService({ db, clock, logger }: AuditDeps) {
  /**
   * Writes the event to the audit table, and to the log at debug (an admin command's stderr stays
   * quiet; the server logs its own events with `securityEvent`). Inside the caller's transaction when
   * one is given, so that the change and its record commit together.
   */
  async function record(event: AuditEvent, executor: Kysely<Database> = db): Promise<void> {
    await insertAuditEvent(executor, clock.now(), event);
    logger.debug({ audit: event.action, actor: event.actor, user_id: event.user?.id ?? event.userId, ...event.detail }, `audit: ${event.action}`);
  }

  /**
   * Deletes the rows older than `retentionDays`, oldest first, at most `batchSize` per statement
   * (each its own short write), yielding to the event loop between statements. Idempotent: a second
   * run, in this process or another, finds nothing more to delete.
   */
  async function prune(retentionDays: number, batchSize = AUDIT_PRUNE_BATCH): Promise<{ deleted: number; batches: number; before: string }> {
    const before = new Date(clock.now().getTime() - retentionDays * 86_400_000).toISOString();
    let deleted = 0;
    let batches = 0;
    for (;;) {
      const batch = db.selectFrom('audit_events').select('id').where('at', '<', before).orderBy('id').limit(batchSize);
      const result = await db.deleteFrom('audit_events').where('id', 'in', batch).executeTakeFirst();
      const count = Number(result.numDeletedRows);
      deleted += count;
      if (count > 0) batches += 1;
      if (count < batchSize) return { deleted, batches, before };
      await new Promise((resolve) => setImmediate(resolve));
    }
  }

  /**
   * The account ids whose events `audit list --user <identifier>` shows: the account that has this
   * e-mail address or username now, whatever addresses it had before (its events carry its id); else
   * the deleted accounts whose events were recorded under this e-mail address. A closed account's
   * trail by its label (`closed-account:<id>`). USER_NOT_FOUND when neither is known.
   */
  async function accountIds(identifier: string): Promise<number[]> {
    const label = CLOSED_ACCOUNT_LABEL.exec(identifier.trim());
    if (label) {
      const id = Number(label[1]);
      const found = await db.selectFrom('audit_events').select('user_id').where('user_id', '=', id).limit(1).executeTakeFirst();
      if (!found) throw new ServiceError('USER_NOT_FOUND', `no audit event of the closed account ${identifier.trim()}`);
      return [id];
    }
    const { kind, value } = normalizeLoginIdentifier(identifier);
    const current = await db.selectFrom('users').select('users.id').where(identifierMatches(kind, value)).executeTakeFirst();
    if (current) return [current.id];
    const recorded =
      kind === 'email'
        ? await db.selectFrom('audit_events').select('user_id').distinct().where('user_email', '=', value).where('user_id', 'is not', null).execute()
        : [];
    const ids = recorded.map((row) => row.user_id).filter((id): id is number => id !== null);
    if (ids.length === 0) {
      throw new ServiceError('USER_NOT_FOUND', `no account with the ${kind === 'email' ? 'e-mail address' : 'username'} ${value}, and no audit event of one`);
    }
    return ids;
  }

  /**
   * Newest first (`timetrack audit list`, GET /api/audit): `userIds` from accountIds, `since` and `until`
   * ISO instants (from inclusive, until exclusive), `before` the last row of the page before.
   */
  async function list(filter: AuditFilter): Promise<AuditRecord[]> {
    let query = db.selectFrom('audit_events').selectAll();
    if (filter.userIds !== undefined) query = query.where('user_id', 'in', filter.userIds);
    if (filter.since !== undefined) query = query.where('at', '>=', filter.since);
    if (filter.until !== undefined) query = query.where('at', '<', filter.until);
    if (filter.actor !== undefined) query = query.where('actor', '=', filter.actor);
    if (filter.action !== undefined) query = query.where('action', '=', filter.action);
    const before = filter.before;
    if (before !== undefined) {
      query = query.where((eb) => eb.or([eb('at', '<', before.at), eb.and([eb('at', '=', before.at), eb('id', '<', before.id)])]));
    }
    const rows = await query
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .limit(filter.limit ?? 1000)
      .execute();
    return rows.map((row) => ({ ...row, detail: JSON.parse(row.detail) as Record<string, unknown> }));
  }

  return { record, prune, list, accountIds };
}

export type AuditService = ReturnType<typeof createAuditService>;
