// The one error type that services throw. `code` is the stable name of the contract
// (docs/api.md, Conventions); each edge maps every code (docs/architecture.md): the HTTP layer to a
// status, the CLI to an exit code, the browser client to a sentence.

export type ServiceErrorCode =
  | 'VALIDATION_ERROR'
  | 'WEAK_PASSWORD'
  | 'EMAIL_TAKEN'
  | 'USERNAME_TAKEN'
  | 'REGISTRATION_CLOSED'
  | 'INVALID_CREDENTIALS'
  | 'ACCOUNT_LOCKED'
  | 'ACCOUNT_DISABLED'
  | 'INVALID_PASSWORD'
  | 'INVALID_RESET_TOKEN'
  | 'INVALID_INVITATION'
  | 'INVALID_SETUP_LINK'
  | 'INVITATION_EXPIRED'
  | 'INVITATION_USED'
  | 'INVITATION_WITHDRAWN'
  | 'UNAUTHORIZED'
  | 'FORBIDDEN_FOR_API_TOKEN'
  | 'FORBIDDEN'
  | 'LAST_ADMIN'
  | 'TEAM_NAME_TAKEN'
  | 'INVALID_TWO_FACTOR_CODE'
  | 'INVALID_CHALLENGE'
  | 'TWO_FACTOR_ALREADY_ENABLED'
  | 'TWO_FACTOR_NOT_ENABLED'
  | 'TWO_FACTOR_REQUIRED'
  | 'TOO_MANY_API_TOKENS'
  | 'USER_NOT_FOUND'
  | 'NOT_FOUND'
  | 'OVERLAP'
  | 'ENTRY_CHANGED'
  | 'ALREADY_RUNNING'
  | 'NOT_RUNNING'
  | 'ABSENCE_EXISTS'
  | 'SCHEDULE_EXISTS'
  | 'TOO_MANY_ENTRIES'
  | 'TOO_MANY_ABSENCES'
  | 'TOO_MANY_BOOKINGS'
  | 'EXPORT_RUNNING'
  | 'MONTH_LOCKED'
  | 'MONTH_NOT_OVER'
  | 'MONTH_STATE'
  | 'SELF_APPROVAL'
  | 'ALREADY_DECIDED'
  | 'RATE_LIMITED'
  | 'BUSY'
  | 'SERVER_MISCONFIGURED';

/**
 * Set on an error of one of the server's own listens (a port in use, a HOST that does not resolve),
 * to the settings that give that address: the CLI tells it from the same system codes of a database
 * connection (a DATABASE_URL host that does not resolve is the database being unavailable, not HOST)
 * and names the setting to change.
 */
export const LISTEN_FAILURE = Symbol.for('timetrack.listen-failure');

/** The settings of an address `serve` listens on. */
export type ListenSettings = 'HOST and PORT' | 'METRICS_LISTEN';

/** Marks a listen's error with the settings of its address (see LISTEN_FAILURE). */
export function markListenFailure(error: unknown, settings: ListenSettings): void {
  if (error !== null && typeof error === 'object') Object.assign(error, { [LISTEN_FAILURE]: settings });
}

export class ServiceError extends Error {
  override name = 'ServiceError';
  constructor(
    readonly code: ServiceErrorCode,
    message: string,
    /** Seconds after which a retry can succeed (locked account, spent budget, full hashing queue). */
    readonly retryAfterSeconds?: number,
    /** The request field at fault (a VALIDATION_ERROR), as a dotted path: "timezone", "weekly_target_minutes.mon". */
    readonly field?: string,
  ) {
    super(message);
  }
}

/** VALIDATION_ERROR; with `field`, the answer names the field at fault (docs/api.md, Errors). */
export function validationError(message: string, field?: string): ServiceError {
  return new ServiceError('VALIDATION_ERROR', message, undefined, field);
}
