// Every setting of the contract (docs/configuration.md) is parsed and checked here, once, at start.
// A bad value throws a ConfigError whose message is one line naming the setting.
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { closest, distance } from 'fastest-levenshtein';
import ipaddr from 'ipaddr.js';
import type { DatabaseTarget, PostgresPoolSettings } from './db/database.js';

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export interface SmtpConfig {
  host: string;
  port: number;
  user: string | undefined;
  password: string | undefined;
  from: string;
}

export interface Config {
  dev: boolean;
  host: string;
  port: number;
  /** A SQLite file (TIMETRACK_DB, --db; the default) or a PostgreSQL database (DATABASE_URL, --database-url). */
  database: DatabaseTarget;
  /** Explicit JWT_SECRET as bytes; undefined means "generate and keep beside the database" (SQLite only). */
  jwtSecret: Uint8Array | undefined;
  jwtExpirationSeconds: number;
  lockoutAttempts: number;
  lockoutDurationSeconds: number;
  resetTokenTtlSeconds: number;
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
  /** How often `serve` runs the database's integrity check (quick_check) for /api/health. */
  integrityCheckIntervalSeconds: number;
  /** Where Prometheus metrics are served (`/metrics`), apart from the API; undefined: off. */
  metricsListen: { host: string; port: number } | undefined;
}

export type Env = Record<string, string | undefined>;

/** Every setting timetrack reads (docs/configuration.md), in the order `timetrack config` shows them. */
export const SETTING_NAMES = [
  'NODE_ENV', 'HOST', 'PORT', 'TIMETRACK_DB', 'DATABASE_URL', 'DATABASE_POOL_SIZE', 'DATABASE_CONNECT_TIMEOUT',
  'DATABASE_STATEMENT_TIMEOUT', 'DATABASE_LOCK_TIMEOUT', 'JWT_SECRET', 'JWT_EXPIRATION', 'LOCKOUT_ATTEMPTS', 'LOCKOUT_DURATION',
  'RESET_TOKEN_TTL', 'RATE_LIMIT_AUTH', 'RATE_LIMIT_EXPORT', 'RATE_LIMIT_STATS', 'TRUST_PROXY', 'REGISTRATION', 'REQUIRE_2FA', 'PUBLIC_URL', 'SMTP_HOST', 'SMTP_PORT', 'SMTP_USER',
  'SMTP_PASSWORD', 'SMTP_FROM', 'NEW_DEVICE_NOTICE', 'LOG_LEVEL', 'HASH_CONCURRENCY', 'HASH_QUEUE_LIMIT', 'HOUSEKEEPING_INTERVAL',
  'INTEGRITY_CHECK_INTERVAL', 'METRICS_LISTEN',
] as const;

/** Settings of the Node process or the C library that an env file may also hold (systemd passes them on). */
export const PROCESS_SETTING_NAMES = ['UV_THREADPOOL_SIZE', 'MALLOC_MMAP_THRESHOLD_', 'NODE_OPTIONS', 'TZ'];

/** The setting a name not known is probably a misspelling of (at most `maxEdits` letters off), if any. */
export function likelySettingFor(name: string, maxEdits = 2): string | undefined {
  const candidate = closest(name.toUpperCase(), [...SETTING_NAMES]);
  return distance(name.toUpperCase(), candidate) <= maxEdits ? candidate : undefined;
}

export interface ConfigOverrides {
  dev?: boolean;
  host?: string;
  port?: number;
  dbPath?: string;
  databaseUrl?: string;
}

const MIN_SECRET_BYTES = 32;
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];
const DAY = 86_400;
// Names proxy-addr (Fastify's trustProxy) understands besides addresses.
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];
// A host name (RFC 1123 labels) or an IP address.
const HOST_NAME = /^(?=.{1,253}$)[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

/** A setting's value, with an empty or blank one meaning "unset" (as `NAME=` in an env file). */
function valueOf(env: Env, name: string): string | undefined {
  const raw = env[name];
  return raw === undefined || raw.trim() === '' ? undefined : raw;
}

/** Parses a duration: a whole number of seconds, or a number followed by s, m, h or d. */
export function parseDuration(value: string): number | undefined {
  const match = /^(\d+)([smhd]?)$/.exec(value.trim());
  if (!match) return undefined;
  const amount = Number(match[1]);
  const unit = match[2] || 's';
  const factor = { s: 1, m: 60, h: 3600, d: 86400 }[unit as 's' | 'm' | 'h' | 'd'];
  const seconds = amount * factor;
  return seconds > 0 && Number.isSafeInteger(seconds) ? seconds : undefined;
}

function fail(name: string, problem: string): never {
  throw new ConfigError(`${name}: ${problem}`);
}

/** A duration up to maxSeconds: beyond it dates overflow or timers misfire (Node runs a timer over ~24.8 days at once). */
function durationSetting(env: Env, name: string, fallback: string, maxSeconds: number): number {
  const raw = valueOf(env, name) ?? fallback;
  const seconds = parseDuration(raw);
  if (seconds === undefined) {
    fail(name, `"${raw}" is not a duration (use seconds, or a number with s, m, h or d, e.g. 15m)`);
  }
  if (seconds > maxSeconds) fail(name, `"${raw}" is too long (at most ${maxSeconds / DAY}d)`);
  return seconds;
}

function integerSetting(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = valueOf(env, name);
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw.trim())) fail(name, `"${raw}" is not a whole number`);
  const value = Number(raw.trim());
  if (value < min || value > max) fail(name, `${value} is out of range (${min} to ${max})`);
  return value;
}

function booleanSetting(raw: string, name: string): boolean {
  const value = raw.trim().toLowerCase();
  if (['true', '1', 'yes'].includes(value)) return true;
  if (['false', '0', 'no', ''].includes(value)) return false;
  fail(name, `"${raw}" is not true or false`);
}

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.includes(entry)) return true;
  const [address = '', prefix, ...rest] = entry.split('/');
  const version = net.isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^\d{1,3}$/.test(prefix) && Number(prefix) <= (version === 4 ? 32 : 128);
}

function parseTrustProxy(raw: string | undefined): boolean | string[] {
  if (raw === undefined) return false;
  const trimmed = raw.trim().toLowerCase();
  if (['true', 'false', '1', '0', 'yes', 'no'].includes(trimmed)) return booleanSetting(raw, 'TRUST_PROXY');
  const addresses = raw.split(',').map((part) => part.trim()).filter(Boolean);
  for (const address of addresses) {
    if (!isProxyAddress(address)) {
      fail('TRUST_PROXY', `"${address}" is not true, false, an IP address, a CIDR range or one of ${PROXY_RANGE_NAMES.join(', ')}`);
    }
  }
  return addresses;
}

/** `host:port` (`[::1]:9464` for IPv6) of the metrics listener; unset: no metrics. */
function parseListen(raw: string | undefined): { host: string; port: number } | undefined {
  if (raw === undefined) return undefined;
  const match = /^(?:\[([^\]]+)\]|([^:]+)):(\d{1,5})$/.exec(raw.trim());
  const host = match?.[1] ?? match?.[2];
  const port = Number(match?.[3]);
  if (!match || host === undefined || port > 65535 || (net.isIP(host) === 0 && !HOST_NAME.test(host))) {
    fail('METRICS_LISTEN', `"${raw}" is not host:port (e.g. 127.0.0.1:9464)`);
  }
  return { host, port };
}

function parseHost(raw: string): string {
  const host = raw.trim();
  if (net.isIP(host) === 0 && !HOST_NAME.test(host)) fail('HOST', `"${host}" is not an IP address or a host name`);
  return host;
}

/** A loopback address, or `localhost`: only this machine can reach it. */
function isLoopback(host: string): boolean {
  if (host.toLowerCase() === 'localhost') return true;
  return ipaddr.isValid(host) && ipaddr.process(host).range() === 'loopback';
}

function parseSecret(raw: string | undefined): Uint8Array | undefined {
  if (raw === undefined) return undefined;
  const bytes = new TextEncoder().encode(raw);
  if (bytes.length < MIN_SECRET_BYTES) {
    fail('JWT_SECRET', `must be at least ${MIN_SECRET_BYTES} bytes (got ${bytes.length}); leave it unset to have one generated`);
  }
  if (new Set(raw).size < 8) fail('JWT_SECRET', 'is too repetitive to be a random secret');
  return bytes;
}

function parseSmtp(env: Env): SmtpConfig | undefined {
  // Checked even without SMTP_HOST: a half-done mail set-up must not silently send nothing.
  const port = integerSetting(env, 'SMTP_PORT', 587, 1, 65535);
  const host = valueOf(env, 'SMTP_HOST')?.trim();
  const user = valueOf(env, 'SMTP_USER');
  const password = valueOf(env, 'SMTP_PASSWORD');
  const from = valueOf(env, 'SMTP_FROM')?.trim();
  if (!host) {
    const stray = ['SMTP_PORT', 'SMTP_USER', 'SMTP_PASSWORD', 'SMTP_FROM'].find((name) => valueOf(env, name) !== undefined);
    if (stray) fail('SMTP_HOST', `must be set when ${stray} is set`);
    return undefined;
  }
  if (net.isIP(host) === 0 && !HOST_NAME.test(host)) fail('SMTP_HOST', `"${host}" is not an IP address or a host name`);
  if (!from) fail('SMTP_FROM', 'must be set when SMTP_HOST is set');
  if (!/^[^\s@<>]+@[^\s@<>]+$|<[^\s@<>]+@[^\s@<>]+>$/.test(from)) fail('SMTP_FROM', `"${from}" is not an e-mail address (or "Name <address>")`);
  if (password !== undefined && user === undefined) fail('SMTP_PASSWORD', 'is set but SMTP_USER is not');
  return { host, port, user, password, from };
}

function parsePublicUrl(raw: string | undefined, host: string, port: number): string {
  const value = raw?.trim() || `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    fail('PUBLIC_URL', `"${value}" is not an absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') fail('PUBLIC_URL', 'must start with http:// or https://');
  // The reset link is PUBLIC_URL + "/password-reset?token=…": a query, fragment or credentials would break or leak it.
  if (url.search || url.hash || value.includes('?') || value.includes('#')) fail('PUBLIC_URL', 'must not have a query string or a fragment');
  if (url.username || url.password) fail('PUBLIC_URL', 'must not contain a user name or password');
  return value.replace(/\/+$/, '');
}

/** A PostgreSQL URL: postgres:// or postgresql://, with a host and a database name. */
export function parsePostgresUrl(raw: string, name: string): string {
  const value = raw.trim();
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    fail(name, 'is not a URL (postgres://user:password@host:5432/database)');
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') fail(name, `must start with postgres:// (got ${url.protocol}//)`);
  if (!url.hostname && !url.searchParams.get('host')) fail(name, 'names no host (postgres://user:password@host:5432/database)');
  if (url.pathname.replace(/^\//, '') === '') fail(name, 'names no database (postgres://user:password@host:5432/database)');
  return value;
}

/**
 * The SQLite file when neither TIMETRACK_DB nor --db names one: `timetrack.db` in the service's state
 * directory under systemd (STATE_DIRECTORY, which the unit's StateDirectory= sets: where 0.1.0's unit
 * kept it), else ./data/timetrack.db under the working directory.
 */
export function defaultDatabasePath(env: Env): string {
  // Set by systemd, not a setting of timetrack's own.
  const stateDirectory = env.STATE_DIRECTORY?.split(':')[0]?.trim();
  return stateDirectory ? path.join(stateDirectory, 'timetrack.db') : path.resolve('./data/timetrack.db');
}

/** Whether the SQLite file was named (TIMETRACK_DB or --db) rather than taken by default. */
export function databaseFileNamed(env: Env, overrides: ConfigOverrides): boolean {
  return overrides.dbPath !== undefined || valueOf(env, 'TIMETRACK_DB') !== undefined;
}

/**
 * TIMETRACK_DB (or --db) names a SQLite file, DATABASE_URL (or --database-url) a PostgreSQL
 * database; both at once is refused, since either could be the one meant.
 */
function parseDatabase(env: Env, overrides: ConfigOverrides): DatabaseTarget {
  const file = overrides.dbPath ?? valueOf(env, 'TIMETRACK_DB')?.trim();
  const urlSource = overrides.databaseUrl !== undefined ? '--database-url' : 'DATABASE_URL';
  const url = overrides.databaseUrl ?? valueOf(env, 'DATABASE_URL');
  if (file !== undefined && url !== undefined) {
    const fileSource = overrides.dbPath !== undefined ? '--db' : 'TIMETRACK_DB';
    fail(urlSource, `and ${fileSource} are both set: ${fileSource} names a SQLite file, ${urlSource} a PostgreSQL database; keep the one you mean`);
  }
  if (url === undefined) return { engine: 'sqlite', path: path.resolve(file ?? defaultDatabasePath(env)) };
  return { engine: 'postgres', url: parsePostgresUrl(url, urlSource), pool: postgresPoolSettings(env) };
}

/** DATABASE_POOL_SIZE and the DATABASE_*_TIMEOUT settings (all bad ones in one ConfigError). */
export function postgresPoolSettings(env: Env): PostgresPoolSettings {
  const problems: string[] = [];
  const read = <T>(setting: () => T): T => {
    try {
      return setting();
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(error.message);
      return undefined as T;
    }
  };
  const pool: PostgresPoolSettings = {
    // At least 2: a job run `exclusively` holds one connection for its advisory lock while it works on another.
    max: read(() => integerSetting(env, 'DATABASE_POOL_SIZE', 10, 2, 1000)),
    connectTimeoutMs: read(() => durationSetting(env, 'DATABASE_CONNECT_TIMEOUT', '5s', 3600)) * 1000,
    statementTimeoutMs: read(() => durationSetting(env, 'DATABASE_STATEMENT_TIMEOUT', '30s', DAY)) * 1000,
    lockTimeoutMs: read(() => durationSetting(env, 'DATABASE_LOCK_TIMEOUT', '5s', 3600)) * 1000,
  };
  if (problems.length > 0) throw new ConfigError(problems.join('; '));
  return pool;
}

/**
 * One argon2 computation fewer than there are cores (at least one): a login flood then always
 * leaves a core to the event loop, so signed-in users are still served (docs/performance.md).
 */
export function defaultHashConcurrency(): number {
  return Math.max(1, os.availableParallelism() - 1);
}

/** HASH_CONCURRENCY: also read before the application loads, to size libuv's thread pool (bin/timetrack.cjs reads it the same way). */
export function hashConcurrencySetting(env: Env): number {
  return integerSetting(env, 'HASH_CONCURRENCY', defaultHashConcurrency(), 1, 64);
}

export function loadConfig(env: Env, overrides: ConfigOverrides = {}): Config {
  // Every setting is checked, so that an operator sees all the bad ones at once, not one per start.
  const problems: string[] = [];
  function checked<T>(read: () => T): T {
    try {
      return read();
    } catch (error) {
      if (!(error instanceof ConfigError)) throw error;
      problems.push(error.message);
      return undefined as T;
    }
  }

  const dev = checked(() => {
    const nodeEnv = (valueOf(env, 'NODE_ENV') ?? 'production').trim();
    if (!['production', 'development', 'test'].includes(nodeEnv)) fail('NODE_ENV', `"${nodeEnv}" is not production or development`);
    // Dev mode answers reset tokens to anyone who asks: it is switched on by the --dev flag of one
    // command only, never by an environment variable an env file or a shell may carry along.
    return overrides.dev === true;
  });
  const host = checked(() => parseHost(overrides.host ?? valueOf(env, 'HOST') ?? '127.0.0.1'));
  const port = checked(() => overrides.port ?? integerSetting(env, 'PORT', 8080, 0, 65535));
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
      fail('PUBLIC_URL', `"${publicUrl}" is not a plain http:// loopback address, and dev mode (--dev) is for this machine only (a public or https address means a reverse proxy in front)`);
    }
  });
  const database = checked(() => parseDatabase(env, overrides));
  const jwtSecret = checked(() => parseSecret(valueOf(env, 'JWT_SECRET')));
  checked(() => {
    if (database?.engine === 'postgres' && jwtSecret === undefined && valueOf(env, 'JWT_SECRET') === undefined) {
      fail('JWT_SECRET', 'must be set with DATABASE_URL: every process signs and checks sessions with one secret, and a generated secret file cannot be shared between machines');
    }
  });

  const registrationOpen = checked(() => {
    const registration = (valueOf(env, 'REGISTRATION') ?? 'open').trim().toLowerCase();
    if (registration !== 'open' && registration !== 'closed') fail('REGISTRATION', `"${registration}" is not open or closed`);
    return registration === 'open';
  });

  const logLevel = checked(() => {
    const level = (valueOf(env, 'LOG_LEVEL') ?? 'info').trim().toLowerCase();
    if (!LOG_LEVELS.includes(level)) fail('LOG_LEVEL', `"${level}" is not one of ${LOG_LEVELS.join(', ')}`);
    return level;
  });

  const config: Config = {
    dev,
    host,
    port,
    database,
    jwtSecret,
    jwtExpirationSeconds: checked(() => durationSetting(env, 'JWT_EXPIRATION', '24h', 365 * DAY)),
    lockoutAttempts: checked(() => integerSetting(env, 'LOCKOUT_ATTEMPTS', 5, 1, 1000)),
    lockoutDurationSeconds: checked(() => durationSetting(env, 'LOCKOUT_DURATION', '15m', 365 * DAY)),
    resetTokenTtlSeconds: checked(() => durationSetting(env, 'RESET_TOKEN_TTL', '1h', 30 * DAY)),
    rateLimitAuth: checked(() => integerSetting(env, 'RATE_LIMIT_AUTH', 30, 0, 1_000_000)),
    rateLimitExport: checked(() => integerSetting(env, 'RATE_LIMIT_EXPORT', 10, 0, 1_000_000)),
    rateLimitStats: checked(() => integerSetting(env, 'RATE_LIMIT_STATS', 120, 0, 1_000_000)),
    trustProxy: checked(() => parseTrustProxy(valueOf(env, 'TRUST_PROXY'))),
    registrationOpen,
    require2fa: checked(() => booleanSetting(valueOf(env, 'REQUIRE_2FA') ?? 'false', 'REQUIRE_2FA')),
    // The default PUBLIC_URL is made of HOST and PORT: checked only when those are good.
    publicUrl: host !== undefined && port !== undefined ? checked(() => parsePublicUrl(valueOf(env, 'PUBLIC_URL'), host, port)) : '',
    smtp: checked(() => parseSmtp(env)),
    newDeviceNotice: checked(() => booleanSetting(valueOf(env, 'NEW_DEVICE_NOTICE') ?? 'true', 'NEW_DEVICE_NOTICE')),
    logLevel,
    hashConcurrency: checked(() => hashConcurrencySetting(env)),
    hashQueueLimit: checked(() => integerSetting(env, 'HASH_QUEUE_LIMIT', 64, 0, 100_000)),
    housekeepingIntervalSeconds: checked(() => durationSetting(env, 'HOUSEKEEPING_INTERVAL', '10m', DAY)),
    integrityCheckIntervalSeconds: checked(() => durationSetting(env, 'INTEGRITY_CHECK_INTERVAL', '1h', DAY)),
    metricsListen: checked(() => parseListen(valueOf(env, 'METRICS_LISTEN'))),
  };
  if (problems.length > 0) throw new ConfigError(problems.join('; '));
  return config;
}
