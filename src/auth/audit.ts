// The audit trail: what admin commands did and what security events changed, in the audit_events
// table (`timetrack audit list`) and as a log line each. Security events that change nothing (a
// failed login) are log lines only: a flood of them must not grow the database.
import os from 'node:os';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../db/types.js';
import type { Clock } from '../common/clock.js';

export type AuditAction =
  | 'account_created'
  | 'account_unlocked'
  | 'account_disabled'
  | 'account_enabled'
  | 'account_deleted'
  | 'account_closed'
  | 'account_imported'
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
  | 'entries_imported';

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

/** The person running an admin command: their login on this machine. */
export function operatingSystemActor(): string {
  try {
    return `os:${os.userInfo().username}`;
  } catch {
    return `os:uid ${process.getuid?.() ?? 'unknown'}`;
  }
}

/** A security event as its own log line (`"security":"<name>"`), whatever else the request logs. */
export function securityEvent(logger: Pick<Logger, 'info' | 'warn'>, name: SecurityEventName, fields: Record<string, unknown>): void {
  if (WARNING_EVENTS.has(name)) logger.warn({ security: name, ...fields }, `security event: ${name}`);
  else logger.info({ security: name, ...fields }, `security event: ${name}`);
}

export function createAuditService(db: Kysely<Database>, clock: Clock, logger: Logger) {
  /**
   * Writes the event to the audit table, and to the log at debug (an admin command's stderr stays
   * quiet; the server logs its own events with `securityEvent`).
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

  /** Newest first; `email` finds a deleted account's events too; `since` is an ISO instant. */
  async function list(filter: { email?: string; since?: string; limit?: number }): Promise<AuditRecord[]> {
    let query = db.selectFrom('audit_events').selectAll();
    if (filter.email !== undefined) query = query.where('user_email', '=', filter.email.trim().toLowerCase());
    if (filter.since !== undefined) query = query.where('at', '>=', filter.since);
    const rows = await query.orderBy('at', 'desc').orderBy('id', 'desc').limit(filter.limit ?? 1000).execute();
    return rows.map((row) => ({ ...row, detail: JSON.parse(row.detail) as Record<string, unknown> }));
  }

  return { record, list };
}

