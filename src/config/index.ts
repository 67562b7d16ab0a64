// Every setting of the contract (docs/configuration.md; the table in src/config/settings.ts) is parsed
// and checked here, once, at start. Every bad one is reported at once, in one ConfigError of one line.
import { closest, distance } from 'fastest-levenshtein';
import { databaseFileOf, type DatabaseTarget } from '../db/database.js';
import { parseDatabase, type ConfigOverrides } from './database.js';
import {
  booleanSetting,
  checkNodeEnv,
  choiceSetting,
  ConfigError,
  durationSetting,
  fail,
  integerSetting,
  isLoopback,
  parseHost,
  parseListen,
  parsePublicUrl,
  parseSecret,
  parseSmtp,
  parseTrustProxy,
  valueOf,
  type Env,
  type SmtpConfig,
} from './parse.js';
import { SETTING_NAMES, SETTINGS } from './settings.js';

export { databaseFileNamed, parsePostgresUrl, postgresPoolSettings, type ConfigOverrides } from './database.js';
export { ConfigError, parseDuration, type Env, type SmtpConfig } from './parse.js';
export { defaultHashConcurrency, PROCESS_SETTING_NAMES, SETTING_NAMES, type SettingName } from './settings.js';

export interface Config {
  dev: boolean;
  host: string;
  port: number;
  /** A SQLite file (TIMETRACK_DB, --db; the default) or a PostgreSQL database (DATABASE_URL, --database-url). */
  database: DatabaseTarget;
  /** Explicit JWT_SECRET as bytes; undefined means "generate and keep beside the database" (SQLite only). */
  jwtSecret: Uint8Array | undefined;
  /**
   * SECRET_KEY as bytes: the sealing key of the two-factor secrets. Undefined: on SQLite generated
   * and kept beside the database; on PostgreSQL derived from JWT_SECRET as before (a warning).
   */
  secretKey: Uint8Array | undefined;
  jwtExpirationSeconds: number;
  lockoutAttempts: number;
  lockoutDurationSeconds: number;
  /** The first lock after wrong two-factor codes; each next one lasts twice as long (at most a day). */
  twoFactorLockSeconds: number;
  resetTokenTtlSeconds: number;
  /** INVITE_TTL: how long an invitation link works. */
  inviteTtlSeconds: number;
  /** Requests per minute per client address on the auth routes; 0 turns the limit off. */
  rateLimitAuth: number;
  /** Exports (CSV and account document) per hour per account; 0 turns the limit off. */
  rateLimitExport: number;
  /** Statistics requests per minute per signed-in account; 0 turns the limit off. */
  rateLimitStats: number;
  /**
   * false, true (one reverse proxy in front: the client is the address that proxy added, the
   * rightmost of X-Forwarded-For), or a list of proxy addresses (the rightmost address that is not
   * one of them). Never the leftmost, which the client writes itself.
   */
  trustProxy: boolean | string[];
  registrationOpen: boolean;
  /** REGISTRATION as set: `invite` is closed self-registration with invitations (docs/teams.md). */
  registration: string;
  /** REQUIRE_2FA: accounts without two-factor sign-in sign in only far enough to set it up. */
  require2fa: boolean;
  publicUrl: string;
  smtp: SmtpConfig | undefined;
  /** NEW_DEVICE_NOTICE: with SMTP, mail the owner about a sign-in from a device and network not seen for 90 days. */
  newDeviceNotice: boolean;
  logLevel: string;
  /** At most this many argon2 computations run at once; more wait in a queue of hashQueueLimit. */
  hashConcurrency: number;
  hashQueueLimit: number;
  /** How often expired sessions, reset tokens and old failure records are deleted. */
  housekeepingIntervalSeconds: number;
  /** Audit rows older than this many days are deleted (the `audit retention` job, `audit prune`). */
  auditRetentionDays: number;
  /** How often `serve` runs the database's integrity check (quick_check) for /api/health. */
  integrityCheckIntervalSeconds: number;
  /** Reminders, digests and the mail of notices (docs/notices.md). */
  notify: { hour: number; intervalSeconds: number; retrySeconds: number; attempts: number };
  /** Where Prometheus metrics are served (`/metrics`), apart from the API; undefined: off. */
  metricsListen: { host: string; port: number } | undefined;
}

/** The setting a name not known is probably a misspelling of (at most `maxEdits` letters off), if any. */
export function likelySettingFor(name: string, maxEdits = 2): string | undefined {
  const candidate = closest(name.toUpperCase(), [...SETTING_NAMES]);
  return distance(name.toUpperCase(), candidate) <= maxEdits ? candidate : undefined;
}

/** Runs a check and keeps its ConfigError (the value is then undefined), so that every bad setting is reported. */
type Checked = <T>(read: () => T) => T;

/** NODE_ENV, HOST and PORT, and what dev mode refuses (it answers reset tokens to anyone who asks). */
function readListening(env: Env, overrides: ConfigOverrides, checked: Checked): { dev: boolean; host: string; port: number } {
  const dev = checked(() => {
    checkNodeEnv(env);
    // Dev mode is switched on by the --dev flag of one command only, never by an environment
    // variable an env file or a shell may carry along.
    return overrides.dev === true;
  });
  const host = checked(() => parseHost(overrides.host ?? valueOf(env, 'HOST') ?? SETTINGS.HOST.default));
  const port = checked(() => overrides.port ?? integerSetting(env, 'PORT'));
  // Dev mode answers reset tokens to anyone who asks: an account takeover for whoever reaches the port.
  checked(() => {
    if (dev && host !== undefined && !isLoopback(host)) {
      fail('HOST', `dev mode (--dev) only listens on a loopback address (127.0.0.1, ::1, localhost), not "${host}"`);
    }
  });
  checked(() => {
    if (dev && valueOf(env, 'TRUST_PROXY') !== undefined) {
      fail('TRUST_PROXY', 'is set, and dev mode (--dev) must not run behind a reverse proxy (it would hand reset tokens to whoever reaches the proxy)');
    }
  });
  checked(() => {
    const publicUrl = valueOf(env, 'PUBLIC_URL')?.trim();
    if (!dev || publicUrl === undefined) return;
    let url: URL | undefined;
    try {
      url = new URL(publicUrl);
    } catch {
      return; // reported by PUBLIC_URL's own check
    }
    const hostname = url.hostname.replace(/^\[|\]$/g, '');
    if (url.protocol === 'https:' || !isLoopback(hostname)) {
      fail(
        'PUBLIC_URL',
        `"${publicUrl}" is not a plain http:// loopback address, and dev mode (--dev) is for this machine only (a public or https address means a reverse proxy in front)`,
      );
    }
  });
  return { dev, host, port };
}

/** The database, and the secret that a database shared by several processes requires. */
function readDatabase(env: Env, overrides: ConfigOverrides, checked: Checked): { database: DatabaseTarget; jwtSecret: Uint8Array | undefined } {
  const database = checked(() => parseDatabase(env, overrides));
  const jwtSecret = checked(() => parseSecret(valueOf(env, 'JWT_SECRET')));
  checked(() => {
    if (database !== undefined && databaseFileOf(database) === undefined && jwtSecret === undefined && valueOf(env, 'JWT_SECRET') === undefined) {
      fail(
        'JWT_SECRET',
        'must be set with DATABASE_URL: every process signs and checks sessions with one secret, and a generated secret file cannot be shared between machines',
      );
    }
  });
  return { database, jwtSecret };
}

export function loadConfig(env: Env, overrides: ConfigOverrides = {}): Config {
  // Every setting is checked, so that an operator sees all the bad ones at once, not one per start.
  const problems: string[] = [];
  const checked: Checked = (read) => {
    try {
      return read();
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(error.message);
      return undefined as never;
    }
  };

  const { dev, host, port } = readListening(env, overrides, checked);
  const { database, jwtSecret } = readDatabase(env, overrides, checked);
  const registration = checked(() => choiceSetting(env, 'REGISTRATION'));
  const registrationOpen = registration === 'open';
  const logLevel = checked(() => choiceSetting(env, 'LOG_LEVEL'));

  const config: Config = {
    dev,
    host,
    port,
    database,
    jwtSecret,
    // Trimmed: the contents of a generated `<db>.secret-key` file, pasted with its line end, are the same key.
    secretKey: checked(() => parseSecret(valueOf(env, 'SECRET_KEY')?.trim(), 'SECRET_KEY')),
    jwtExpirationSeconds: checked(() => durationSetting(env, 'JWT_EXPIRATION')),
    lockoutAttempts: checked(() => integerSetting(env, 'LOCKOUT_ATTEMPTS')),
    lockoutDurationSeconds: checked(() => durationSetting(env, 'LOCKOUT_DURATION')),
    twoFactorLockSeconds: checked(() => durationSetting(env, 'TWO_FACTOR_LOCK')),
    resetTokenTtlSeconds: checked(() => durationSetting(env, 'RESET_TOKEN_TTL')),
    inviteTtlSeconds: checked(() => durationSetting(env, 'INVITE_TTL')),
    rateLimitAuth: checked(() => integerSetting(env, 'RATE_LIMIT_AUTH')),
    rateLimitExport: checked(() => integerSetting(env, 'RATE_LIMIT_EXPORT')),
    rateLimitStats: checked(() => integerSetting(env, 'RATE_LIMIT_STATS')),
    trustProxy: checked(() => parseTrustProxy(valueOf(env, 'TRUST_PROXY'))),
    registrationOpen,
    registration,
    require2fa: checked(() => booleanSetting(env, 'REQUIRE_2FA')),
    // The default PUBLIC_URL is made of HOST and PORT: checked only when those are good.
    publicUrl: host !== undefined && port !== undefined ? checked(() => parsePublicUrl(valueOf(env, 'PUBLIC_URL'), host, port)) : '',
    smtp: checked(() => parseSmtp(env)),
    newDeviceNotice: checked(() => booleanSetting(env, 'NEW_DEVICE_NOTICE')),
    logLevel,
    // Also read before the application loads, to size libuv's thread pool (bin/timetrack.cjs reads it the same way).
    hashConcurrency: checked(() => integerSetting(env, 'HASH_CONCURRENCY')),
    hashQueueLimit: checked(() => integerSetting(env, 'HASH_QUEUE_LIMIT')),
    housekeepingIntervalSeconds: checked(() => durationSetting(env, 'HOUSEKEEPING_INTERVAL')),
    auditRetentionDays: checked(() => integerSetting(env, 'AUDIT_RETENTION_DAYS')),
    integrityCheckIntervalSeconds: checked(() => durationSetting(env, 'INTEGRITY_CHECK_INTERVAL')),
    notify: {
      hour: checked(() => integerSetting(env, 'NOTIFY_HOUR')),
      intervalSeconds: checked(() => durationSetting(env, 'NOTIFY_INTERVAL')),
      retrySeconds: checked(() => durationSetting(env, 'NOTIFY_RETRY')),
      attempts: checked(() => integerSetting(env, 'NOTIFY_ATTEMPTS')),
    },
    metricsListen: checked(() => parseListen(valueOf(env, 'METRICS_LISTEN'))),
  };
  if (problems.length > 0) throw new ConfigError(problems.join('; '));
  return config;
}
