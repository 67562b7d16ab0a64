// The one place where a service error code becomes an HTTP status.
import { STATUS_CODES } from 'node:http';
import type { ServiceErrorCode } from '../common/errors.js';

export const STATUS_OF_CODE: Record<ServiceErrorCode, number> = {
  VALIDATION_ERROR: 400,
  WEAK_PASSWORD: 400,
  INVALID_RESET_TOKEN: 400,
  INVALID_INVITATION: 400,
  INVALID_SETUP_LINK: 400,
  INVITATION_EXPIRED: 410,
  INVITATION_USED: 410,
  INVITATION_WITHDRAWN: 410,
  INVALID_CREDENTIALS: 401,
  UNAUTHORIZED: 401,
  INVALID_CHALLENGE: 401,
  REGISTRATION_CLOSED: 403,
  ACCOUNT_DISABLED: 403,
  INVALID_PASSWORD: 403,
  FORBIDDEN_FOR_API_TOKEN: 403,
  FORBIDDEN: 403,
  LAST_ADMIN: 409,
  TEAM_NAME_TAKEN: 409,
  INVALID_TWO_FACTOR_CODE: 403,
  TWO_FACTOR_REQUIRED: 403,
  USER_NOT_FOUND: 404,
  NOT_FOUND: 404,
  EMAIL_TAKEN: 409,
  USERNAME_TAKEN: 409,
  OVERLAP: 409,
  ENTRY_CHANGED: 409,
  ALREADY_RUNNING: 409,
  NOT_RUNNING: 409,
  ABSENCE_EXISTS: 409,
  SCHEDULE_EXISTS: 409,
  TOO_MANY_ENTRIES: 409,
  TOO_MANY_API_TOKENS: 409,
  TWO_FACTOR_ALREADY_ENABLED: 409,
  TWO_FACTOR_NOT_ENABLED: 409,
  TOO_MANY_ABSENCES: 409,
  TOO_MANY_BOOKINGS: 409,
  EXPORT_RUNNING: 409,
  MONTH_LOCKED: 409,
  MONTH_NOT_OVER: 409,
  MONTH_STATE: 409,
  SELF_APPROVAL: 403,
  ALREADY_DECIDED: 409,
  ACCOUNT_LOCKED: 423,
  RATE_LIMITED: 429,
  BUSY: 503,
  SERVER_MISCONFIGURED: 500,
};

/** One field at fault in a VALIDATION_ERROR. */
export interface FieldProblem {
  field: string;
  message: string;
}

/** The error body of every route (Fastify's own shape plus a stable `code`; `details` and `entry` where they apply). */
export interface ErrorBody {
  statusCode: number;
  error: string;
  code: string;
  message: string;
  details?: FieldProblem[];
  /** OVERLAP / ALREADY_RUNNING: the entry in the way; ENTRY_CHANGED: the whole entry as it is stored now. */
  entry?: { id: number; start_at: string; end_at: string | null; note?: string; created_at?: string; updated_at?: string; auto_stopped?: boolean };
  /** MONTH_LOCKED: the closed month (YYYY-MM) the change would touch. */
  month?: string;
}

export function errorBody(statusCode: number, code: string, message: string, extra: Pick<ErrorBody, 'details' | 'entry' | 'month'> = {}): ErrorBody {
  return { statusCode, error: STATUS_CODES[statusCode] ?? 'Error', code, message, ...extra };
}
