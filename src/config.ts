// Every setting of the contract (API.md section 2) is parsed and checked here, once, at start.
// A bad value throws a ConfigError whose message is one line naming the setting.
import os from 'node:os';
import path from 'node:path';

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
  dbPath: string;
  /** Explicit JWT_SECRET as bytes; undefined means "generate and keep beside the database". */
  jwtSecret: Uint8Array | undefined;
  jwtExpirationSeconds: number;
  lockoutAttempts: number;
  lockoutDurationSeconds: number;
  resetTokenTtlSeconds: number;
  /** Requests per minute per client address on the auth routes; 0 turns the limit off. */
  rateLimitAuth: number;
  /** Fastify's trustProxy: false, true, or a list of proxy addresses. */
  trustProxy: boolean | string[];
  registrationOpen: boolean;
  publicUrl: string;
  smtp: SmtpConfig | undefined;
  logLevel: string;
  /** At most this many argon2 computations run at once; more wait in a queue of hashQueueLimit. */
  hashConcurrency: number;
  hashQueueLimit: number;
  /** How often expired sessions, reset tokens and old failure records are deleted. */
  housekeepingIntervalSeconds: number;
}

export type Env = Record<string, string | undefined>;

export interface ConfigOverrides {
  dev?: boolean;
  host?: string;
  port?: number;
  dbPath?: string;
}

const MIN_SECRET_BYTES = 32;
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

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

function durationSetting(env: Env, name: string, fallback: string): number {
  const raw = env[name] ?? fallback;
  const seconds = parseDuration(raw);
  if (seconds === undefined) {
    fail(name, `"${raw}" is not a duration (use seconds, or a number with s, m, h or d, e.g. 15m)`);
  }
  return seconds;
}

function integerSetting(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
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

function parseTrustProxy(raw: string | undefined): boolean | string[] {
  if (raw === undefined) return false;
  const trimmed = raw.trim().toLowerCase();
  if (['true', 'false', '1', '0', 'yes', 'no', ''].includes(trimmed)) return booleanSetting(raw, 'TRUST_PROXY');
  const addresses = raw.split(',').map((part) => part.trim()).filter(Boolean);
  for (const address of addresses) {
    if (!/^[0-9a-fA-F:.]+(\/\d{1,3})?$/.test(address)) {
      fail('TRUST_PROXY', `"${address}" is not true, false or an IP address / CIDR range`);
    }
  }
  return addresses;
}

function parseSecret(raw: string | undefined): Uint8Array | undefined {
  if (raw === undefined || raw === '') return undefined;
  const bytes = new TextEncoder().encode(raw);
  if (bytes.length < MIN_SECRET_BYTES) {
    fail('JWT_SECRET', `must be at least ${MIN_SECRET_BYTES} bytes (got ${bytes.length}); leave it unset to have one generated`);
  }
  if (new Set(raw).size < 8) fail('JWT_SECRET', 'is too repetitive to be a random secret');
  return bytes;
}

function parseSmtp(env: Env): SmtpConfig | undefined {
  const host = env.SMTP_HOST?.trim();
  if (!host) return undefined;
  const from = env.SMTP_FROM?.trim();
  if (!from) fail('SMTP_FROM', 'must be set when SMTP_HOST is set');
  return {
    host,
    port: integerSetting(env, 'SMTP_PORT', 587, 1, 65535),
    user: env.SMTP_USER || undefined,
    password: env.SMTP_PASSWORD || undefined,
    from,
  };
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
  return value.replace(/\/+$/, '');
}

/**
 * One argon2 computation fewer than there are cores (at least one): a login flood then always
 * leaves a core to the event loop, so signed-in users are still served (README, Performance).
 */
export function defaultHashConcurrency(): number {
  return Math.max(1, os.availableParallelism() - 1);
}

export function loadConfig(env: Env, overrides: ConfigOverrides = {}): Config {
  const nodeEnv = env.NODE_ENV ?? 'production';
  if (!['production', 'development', 'test'].includes(nodeEnv)) {
    fail('NODE_ENV', `"${nodeEnv}" is not production or development`);
  }
  const dev = overrides.dev === true || nodeEnv === 'development';
  const host = overrides.host ?? (env.HOST?.trim() || '127.0.0.1');
  const port = overrides.port ?? integerSetting(env, 'PORT', 8080, 0, 65535);
  const dbPath = path.resolve(overrides.dbPath ?? (env.TIMETRACK_DB?.trim() || './data/timetrack.db'));

  const registration = (env.REGISTRATION ?? 'open').trim().toLowerCase();
  if (registration !== 'open' && registration !== 'closed') fail('REGISTRATION', `"${registration}" is not open or closed`);

  const logLevel = (env.LOG_LEVEL ?? 'info').trim().toLowerCase();
  if (!LOG_LEVELS.includes(logLevel)) fail('LOG_LEVEL', `"${logLevel}" is not one of ${LOG_LEVELS.join(', ')}`);

  return {
    dev,
    host,
    port,
    dbPath,
    jwtSecret: parseSecret(env.JWT_SECRET),
    jwtExpirationSeconds: durationSetting(env, 'JWT_EXPIRATION', '24h'),
    lockoutAttempts: integerSetting(env, 'LOCKOUT_ATTEMPTS', 5, 1, 1000),
    lockoutDurationSeconds: durationSetting(env, 'LOCKOUT_DURATION', '15m'),
    resetTokenTtlSeconds: durationSetting(env, 'RESET_TOKEN_TTL', '1h'),
    rateLimitAuth: integerSetting(env, 'RATE_LIMIT_AUTH', 30, 0, 1_000_000),
    trustProxy: parseTrustProxy(env.TRUST_PROXY),
    registrationOpen: registration === 'open',
    publicUrl: parsePublicUrl(env.PUBLIC_URL, host, port),
    smtp: parseSmtp(env),
    logLevel,
    hashConcurrency: integerSetting(env, 'HASH_CONCURRENCY', defaultHashConcurrency(), 1, 64),
    hashQueueLimit: integerSetting(env, 'HASH_QUEUE_LIMIT', 64, 0, 100_000),
    housekeepingIntervalSeconds: durationSetting(env, 'HOUSEKEEPING_INTERVAL', '10m'),
  };
}
