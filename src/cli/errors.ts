// How a failed command ends: a documented exit code, a stable error code and one sentence (on
// stderr; as `{"error": {"code", "message"}}` with --json). docs/cli.md lists the codes.
import { ConfigError } from '../config/index.js';
import {
  BackupError,
  CopyError,
  DatabaseLockedError,
  isDatabaseBusy,
  isDatabaseReadOnly,
  isDatabaseUnavailable,
  isUnstorableText,
  MigrationError,
} from '../db/database.js';
import { SecretFileError } from '../auth/secret.js';
import { LISTEN_FAILURE, ServiceError, type ListenSettings, type ServiceErrorCode } from '../common/errors.js';

/** A command used the wrong way (missing --yes, no target): exit code 2, like commander's own usage errors. */
export class UsageError extends Error {
  override name = 'UsageError';
}

/** A check that ran and found a difference (`report verify`): exit code 1, its sentence after the command's report. */
export class CheckFailedError extends Error {
  override name = 'CheckFailedError';
}

export const EXIT_CODES = {
  success: 0,
  failure: 1,
  usage: 2,
  notFound: 3,
  databaseBusy: 4,
  /** 128 + SIGINT, what a shell reports for Ctrl-C. */
  aborted: 130,
} as const;

export interface Failure {
  exitCode: number;
  code: string;
  message: string;
}

/** The exit code of each service error: a code added to ServiceErrorCode and not here does not compile. */
const EXIT_OF_CODE: Record<ServiceErrorCode, number> = {
  VALIDATION_ERROR: EXIT_CODES.failure,
  WEAK_PASSWORD: EXIT_CODES.failure,
  EMAIL_TAKEN: EXIT_CODES.failure,
  USERNAME_TAKEN: EXIT_CODES.failure,
  REGISTRATION_CLOSED: EXIT_CODES.failure,
  INVALID_CREDENTIALS: EXIT_CODES.failure,
  ACCOUNT_LOCKED: EXIT_CODES.failure,
  ACCOUNT_DISABLED: EXIT_CODES.failure,
  INVALID_PASSWORD: EXIT_CODES.failure,
  INVALID_RESET_TOKEN: EXIT_CODES.failure,
  INVALID_INVITATION: EXIT_CODES.failure,
  INVALID_SETUP_LINK: EXIT_CODES.failure,
  INVITATION_EXPIRED: EXIT_CODES.failure,
  INVITATION_USED: EXIT_CODES.failure,
  INVITATION_WITHDRAWN: EXIT_CODES.failure,
  UNAUTHORIZED: EXIT_CODES.failure,
  FORBIDDEN_FOR_API_TOKEN: EXIT_CODES.failure,
  FORBIDDEN: EXIT_CODES.failure,
  LAST_ADMIN: EXIT_CODES.failure,
  TEAM_NAME_TAKEN: EXIT_CODES.failure,
  INVALID_TWO_FACTOR_CODE: EXIT_CODES.failure,
  INVALID_CHALLENGE: EXIT_CODES.failure,
  TWO_FACTOR_ALREADY_ENABLED: EXIT_CODES.failure,
  TWO_FACTOR_NOT_ENABLED: EXIT_CODES.failure,
  TWO_FACTOR_REQUIRED: EXIT_CODES.failure,
  TOO_MANY_API_TOKENS: EXIT_CODES.failure,
  USER_NOT_FOUND: EXIT_CODES.notFound,
  NOT_FOUND: EXIT_CODES.notFound,
  OVERLAP: EXIT_CODES.failure,
  ENTRY_CHANGED: EXIT_CODES.failure,
  ALREADY_RUNNING: EXIT_CODES.failure,
  NOT_RUNNING: EXIT_CODES.failure,
  ABSENCE_EXISTS: EXIT_CODES.failure,
  SCHEDULE_EXISTS: EXIT_CODES.failure,
  TOO_MANY_ENTRIES: EXIT_CODES.failure,
  TOO_MANY_ABSENCES: EXIT_CODES.failure,
  TOO_MANY_BOOKINGS: EXIT_CODES.failure,
  EXPORT_RUNNING: EXIT_CODES.failure,
  MONTH_LOCKED: EXIT_CODES.failure,
  MONTH_NOT_OVER: EXIT_CODES.failure,
  MONTH_STATE: EXIT_CODES.failure,
  SELF_APPROVAL: EXIT_CODES.failure,
  ALREADY_DECIDED: EXIT_CODES.failure,
  RATE_LIMITED: EXIT_CODES.failure,
  BUSY: EXIT_CODES.failure,
  SERVER_MISCONFIGURED: EXIT_CODES.failure,
};

/** The code of a Node.js system error (EADDRINUSE, ENOTFOUND, EACCES, …), if it is one. */
function systemErrorCode(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^E[A-Z_]+$/.test(code) ? code : undefined;
}

/** Turns what a command threw into its exit code and sentence. `undefined`: a bug (unexpected error). */
export function describeFailure(error: unknown): Failure | undefined {
  if (error instanceof UsageError) return { exitCode: EXIT_CODES.usage, code: 'USAGE_ERROR', message: error.message };
  // @inquirer/prompts throws this when the person presses Ctrl-C at a prompt.
  if (error instanceof Error && error.name === 'ExitPromptError') return { exitCode: EXIT_CODES.aborted, code: 'ABORTED', message: 'aborted' };
  if (error instanceof ServiceError) {
    return { exitCode: EXIT_OF_CODE[error.code], code: error.code, message: error.message };
  }
  if (error instanceof CheckFailedError) return { exitCode: EXIT_CODES.failure, code: 'DOES_NOT_MATCH', message: error.message };
  if (error instanceof ConfigError) return { exitCode: EXIT_CODES.failure, code: 'CONFIG_ERROR', message: error.message };
  if (error instanceof MigrationError) return { exitCode: EXIT_CODES.failure, code: 'MIGRATION_ERROR', message: error.message };
  if (error instanceof SecretFileError) return { exitCode: EXIT_CODES.failure, code: 'SECRET_FILE_ERROR', message: error.message };
  if (error instanceof DatabaseLockedError) return { exitCode: EXIT_CODES.failure, code: 'DATABASE_IN_USE', message: error.message };
  if (error instanceof BackupError) return { exitCode: EXIT_CODES.failure, code: 'BACKUP_ERROR', message: error.message };
  if (error instanceof CopyError) return { exitCode: EXIT_CODES.failure, code: 'COPY_ERROR', message: error.message };
  if (isDatabaseBusy(error)) {
    return {
      exitCode: EXIT_CODES.databaseBusy,
      code: 'DATABASE_BUSY',
      message: 'the database is busy: another process held its write lock for more than 5 seconds; try again',
    };
  }
  if (isUnstorableText(error)) return { exitCode: EXIT_CODES.failure, code: 'VALIDATION_ERROR', message: 'text must not contain NUL characters' };
  if (isDatabaseUnavailable(error) && !(error as { [LISTEN_FAILURE]?: boolean })[LISTEN_FAILURE]) {
    const reason = error instanceof Error ? error.message : String(error);
    return {
      exitCode: EXIT_CODES.databaseBusy,
      code: 'DATABASE_UNAVAILABLE',
      message: `the database cannot be reached or cannot serve now (${reason}); try again`,
    };
  }
  const sqlState = (error as { code?: unknown } | null)?.code;
  if (typeof sqlState === 'string' && /^(28|3D)/.test(sqlState)) {
    // PostgreSQL refused the login or has no such database: a setting to fix, not a crash.
    return {
      exitCode: EXIT_CODES.failure,
      code: 'CONFIG_ERROR',
      message: `DATABASE_URL: PostgreSQL refused it (${error instanceof Error ? error.message : String(error)})`,
    };
  }
  if (isDatabaseReadOnly(error)) {
    return {
      exitCode: EXIT_CODES.failure,
      code: 'PERMISSION_DENIED',
      message: 'the database file or its folder is not writable by this user (check owner and mode)',
    };
  }
  return describeSystemError(error);
}

/** A Node.js system error of a listen or a file: its own sentence, naming the setting to change. */
function describeSystemError(error: unknown): Failure | undefined {
  const address = error as { address?: string; port?: number; hostname?: string; path?: string; [LISTEN_FAILURE]?: ListenSettings };
  const metrics = address[LISTEN_FAILURE] === 'METRICS_LISTEN';
  switch (systemErrorCode(error)) {
    case 'EADDRINUSE':
      return {
        exitCode: EXIT_CODES.failure,
        code: 'PORT_IN_USE',
        message: metrics
          ? `METRICS_LISTEN: port ${address.port} on ${address.address} is already in use (another server, or a second process given the same env file?); give each process its own METRICS_LISTEN`
          : `port ${address.port} on ${address.address} is already in use (another server running?); choose another with --port or PORT`,
      };
    case 'EADDRNOTAVAIL':
      return {
        exitCode: EXIT_CODES.failure,
        code: 'ADDRESS_NOT_AVAILABLE',
        message: `${address.address} is not an address of this machine; choose another with ${metrics ? 'METRICS_LISTEN' : '--host or HOST'}`,
      };
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return {
        exitCode: EXIT_CODES.failure,
        code: 'HOST_UNRESOLVABLE',
        message: `the host name ${address.hostname ?? ''} cannot be resolved; check --host or HOST`,
      };
    case 'EACCES':
    case 'EPERM':
      return {
        exitCode: EXIT_CODES.failure,
        code: 'PERMISSION_DENIED',
        message:
          address.port !== undefined
            ? `no permission to listen on port ${address.port} (ports below 1024 need privileges)`
            : `permission denied${address.path ? `: ${address.path}` : ''}`,
      };
    default:
      return undefined;
  }
}
