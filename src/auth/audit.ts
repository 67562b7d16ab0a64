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
  | 'account_imported'
  | 'account_updated'
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
  | 'balance_booked';

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

export interface AuditDeps {
  db: Kysely<Database>;
  clock: Clock;
  logger: Logger;
}

export function createAuditService({ db, clock, logger }: AuditDeps) {
  /**
   * Writes the event to the audit table, and to the log at debug (an admin command's stderr stays
   * quiet; the server logs its own events with `securityEvent`). Inside the caller's transaction when
   * one is given, so that the change and its record commit together.
   */
  async function record(event: AuditEvent, executor: Kysely<Database> = db): Promise<void> {
    const detail = event.detail ?? {};
    await executor
      .insertInto('audit_events')
      .values({
        at: clock.now().toISOString(),
        actor: event.actor,
        action: event.action,
        user_id: event.user?.id ?? event.userId ?? null,
        user_email: event.user?.email ?? null,
        detail: JSON.stringify(detail),
      })
      .execute();
    logger.debug({ audit: event.action, actor: event.actor, user_id: event.user?.id ?? event.userId, ...detail }, `audit: ${event.action}`);
  }

  /**
   * The account ids whose events `audit list --user <identifier>` shows: the account that has this
   * e-mail address or username now, whatever addresses it had before (its events carry its id); else
   * the deleted accounts whose events were recorded under this e-mail address. USER_NOT_FOUND when
   * neither is known.
   */
  async function accountIds(identifier: string): Promise<number[]> {
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

  /** Newest first; `userIds` from accountIds; `since` is an ISO instant. */
  async function list(filter: { userIds?: number[]; since?: string; limit?: number }): Promise<AuditRecord[]> {
    let query = db.selectFrom('audit_events').selectAll();
    if (filter.userIds !== undefined) query = query.where('user_id', 'in', filter.userIds);
    if (filter.since !== undefined) query = query.where('at', '>=', filter.since);
    const rows = await query
      .orderBy('at', 'desc')
      .orderBy('id', 'desc')
      .limit(filter.limit ?? 1000)
      .execute();
    return rows.map((row) => ({ ...row, detail: JSON.parse(row.detail) as Record<string, unknown> }));
  }

  return { record, list, accountIds };
}

export type AuditService = ReturnType<typeof createAuditService>;
