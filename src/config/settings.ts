// The one list of timetrack's settings: for each its parser (kind), default, bounds and one line of
// what it is. src/config/parse.ts reads defaults and bounds from here, `timetrack config` and the env
// file check list the names from here, and test/config/settings-docs.test.ts checks
// docs/configuration.md and config/timetrack.example.env against it. The order is the one
// `timetrack config` shows.
import os from 'node:os';

const DAY = 86_400;

/** A duration (seconds, or a number with s, m, h or d) of at most maxSeconds. */
interface DurationSpec {
  kind: 'duration';
  default: string;
  maxSeconds: number;
  doc: string;
}

/** A whole number from min to max; the default may depend on the machine. */
interface IntegerSpec {
  kind: 'integer';
  default: number | (() => number);
  min: number;
  max: number;
  doc: string;
}

interface BooleanSpec {
  kind: 'boolean';
  default: boolean;
  doc: string;
}

/** One of a few words. */
interface ChoiceSpec {
  kind: 'choice';
  default: string;
  choices: readonly string[];
  doc: string;
}

/** A value with a parser of its own in src/config/parse.ts (an address, a URL, a secret, …); no default unless given. */
interface OwnParserSpec {
  kind: 'host' | 'path' | 'postgres-url' | 'secret' | 'proxies' | 'url' | 'text' | 'email' | 'listen';
  default?: string;
  doc: string;
}

export type SettingSpec = DurationSpec | IntegerSpec | BooleanSpec | ChoiceSpec | OwnParserSpec;

/**
 * One argon2 computation fewer than there are cores (at least one): a login flood then always
 * leaves a core to the event loop, so signed-in users are still served (docs/performance.md).
 */
export function defaultHashConcurrency(): number {
  return Math.max(1, os.availableParallelism() - 1);
}

export const SETTINGS = {
  NODE_ENV: {
    kind: 'choice',
    default: 'production',
    choices: ['production', 'development', 'test'],
    doc: 'production, development or test; dev mode comes only from `serve --dev`',
  },
  HOST: { kind: 'host', default: '127.0.0.1', doc: 'listen address: an IP address or a host name (`serve --host` wins)' },
  PORT: { kind: 'integer', default: 8080, min: 0, max: 65535, doc: 'listen port (`serve --port` wins)' },
  TIMETRACK_DB: { kind: 'path', doc: "the SQLite file (`--db` wins); default ./data/timetrack.db, or timetrack.db in systemd's STATE_DIRECTORY" },
  DATABASE_URL: { kind: 'postgres-url', doc: 'a PostgreSQL database instead of the SQLite file (`--database-url` wins); requires JWT_SECRET' },
  DATABASE_POOL_SIZE: {
    kind: 'integer',
    default: 10,
    min: 2,
    max: 1000,
    doc: 'PostgreSQL only: connections per process (at least 2: a job run `exclusively` holds one for its lock)',
  },
  DATABASE_CONNECT_TIMEOUT: { kind: 'duration', default: '5s', maxSeconds: 3600, doc: 'PostgreSQL only: how long a request waits for a connection' },
  DATABASE_STATEMENT_TIMEOUT: { kind: 'duration', default: '30s', maxSeconds: DAY, doc: 'PostgreSQL only: the longest a statement may run' },
  DATABASE_LOCK_TIMEOUT: { kind: 'duration', default: '5s', maxSeconds: 3600, doc: 'PostgreSQL only: how long a write waits for a row another request holds' },
  JWT_SECRET: { kind: 'secret', doc: 'signing secret of the sessions, at least 32 bytes; generated beside the SQLite file when unset' },
  SECRET_KEY: {
    kind: 'secret',
    doc: 'sealing key of the two-factor secrets, at least 32 bytes; generated beside the SQLite file when unset; set it with DATABASE_URL',
  },
  JWT_EXPIRATION: { kind: 'duration', default: '24h', maxSeconds: 365 * DAY, doc: 'session validity' },
  LOCKOUT_ATTEMPTS: { kind: 'integer', default: 5, min: 1, max: 1000, doc: 'failed logins that lock an account' },
  LOCKOUT_DURATION: { kind: 'duration', default: '15m', maxSeconds: 365 * DAY, doc: 'how long a lock lasts' },
  TWO_FACTOR_LOCK: {
    kind: 'duration',
    default: '1m',
    maxSeconds: DAY,
    doc: 'the first lock after 4 wrong two-factor codes; each next one twice as long, at most a day',
  },
  RESET_TOKEN_TTL: { kind: 'duration', default: '1h', maxSeconds: 30 * DAY, doc: 'validity of a password reset token' },
  INVITE_TTL: { kind: 'duration', default: '7d', maxSeconds: 90 * DAY, doc: 'validity of an invitation link' },
  RATE_LIMIT_AUTH: { kind: 'integer', default: 30, min: 0, max: 1_000_000, doc: 'requests per minute per client address on the auth routes (0: off)' },
  RATE_LIMIT_EXPORT: { kind: 'integer', default: 10, min: 0, max: 1_000_000, doc: 'exports per hour per account (0: off)' },
  RATE_LIMIT_STATS: { kind: 'integer', default: 120, min: 0, max: 1_000_000, doc: 'statistics requests per minute per signed-in account (0: off)' },
  TRUST_PROXY: { kind: 'proxies', default: 'false', doc: 'true (one reverse proxy in front), or a list of proxy addresses and CIDR ranges' },
  REGISTRATION: {
    kind: 'choice',
    default: 'open',
    choices: ['open', 'closed', 'invite'],
    doc: 'open; closed: accounts then come from `timetrack user create`; invite: closed, and invitations too',
  },
  REQUIRE_2FA: { kind: 'boolean', default: false, doc: 'every account must use two-factor sign-in' },
  PUBLIC_URL: { kind: 'url', doc: 'base of the reset link; default http://HOST:PORT' },
  SMTP_HOST: { kind: 'host', doc: 'mail server of the reset e-mail; unset: no mail' },
  SMTP_PORT: { kind: 'integer', default: 587, min: 1, max: 65535, doc: 'its port (465: TLS from the start; others STARTTLS)' },
  SMTP_USER: { kind: 'text', doc: 'SMTP login, if the server needs one' },
  SMTP_PASSWORD: { kind: 'text', doc: 'its password (needs SMTP_USER)' },
  SMTP_FROM: { kind: 'email', doc: 'sender address, required with SMTP_HOST' },
  NEW_DEVICE_NOTICE: { kind: 'boolean', default: true, doc: 'with SMTP: mail the owner about a sign-in from a device and network not seen for 90 days' },
  LOG_LEVEL: { kind: 'choice', default: 'info', choices: ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], doc: 'pino log level' },
  HASH_CONCURRENCY: {
    kind: 'integer',
    default: defaultHashConcurrency,
    min: 1,
    max: 64,
    doc: 'argon2 computations at once; default the number of cores minus one, at least 1',
  },
  HASH_QUEUE_LIMIT: { kind: 'integer', default: 64, min: 0, max: 100_000, doc: 'how many more may wait before a login answers 503 BUSY' },
  HOUSEKEEPING_INTERVAL: { kind: 'duration', default: '10m', maxSeconds: DAY, doc: 'how often expired records are deleted and forgotten timers stopped' },
  AUDIT_RETENTION_DAYS: {
    kind: 'integer',
    default: 400,
    min: 30,
    max: 3650,
    doc: 'days the audit trail keeps a row; older rows are deleted by `serve` every HOUSEKEEPING_INTERVAL and by `audit prune`',
  },
  NOTIFY_HOUR: {
    kind: 'integer',
    default: 7,
    min: 0,
    max: 23,
    doc: "the hour, in each account's own zone, from which yesterday's missing-day reminder and a lead's digest are sent",
  },
  NOTIFY_INTERVAL: {
    kind: 'duration',
    default: '5m',
    maxSeconds: DAY,
    doc: 'how often `serve` looks for reminders and digests due and mails the notices not yet sent',
  },
  NOTIFY_RETRY: {
    kind: 'duration',
    default: '5m',
    maxSeconds: DAY,
    doc: "the wait after a notice's mail failed; twice as long after each further failure, at most a day",
  },
  NOTIFY_ATTEMPTS: { kind: 'integer', default: 8, min: 1, max: 100, doc: "how many times a notice's mail is tried before it is given up (and logged)" },
  INTEGRITY_CHECK_INTERVAL: { kind: 'duration', default: '1h', maxSeconds: DAY, doc: "how often `serve` runs the database's integrity check" },
  METRICS_LISTEN: { kind: 'listen', doc: 'host:port of the Prometheus metrics (/metrics); unset: off' },
} as const satisfies Record<string, SettingSpec>;

export type SettingName = keyof typeof SETTINGS;

/** The settings of one kind, e.g. SettingOf<'duration'>. */
export type SettingOf<Kind extends SettingSpec['kind']> = { [Name in SettingName]: (typeof SETTINGS)[Name]['kind'] extends Kind ? Name : never }[SettingName];

/** Every setting timetrack reads (docs/configuration.md), in the order `timetrack config` shows them. */
export const SETTING_NAMES = Object.keys(SETTINGS) as SettingName[];

/** Settings of the Node process or the C library that an env file may also hold (systemd passes them on). */
export const PROCESS_SETTING_NAMES = ['UV_THREADPOOL_SIZE', 'MALLOC_MMAP_THRESHOLD_', 'NODE_OPTIONS', 'TZ'];
