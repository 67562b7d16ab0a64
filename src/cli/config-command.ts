// `timetrack config`: the settings in effect, each with where it came from, secrets masked.
import type { Command } from 'commander';
import { loadConfig, SETTING_NAMES, type Config, type SettingName } from '../config/index.js';
import { maskDatabaseUrl } from '../db/database.js';
import { secretFilePath, secretKeyFilePath } from '../auth/secret.js';
import { databaseOverrides, type GlobalOptions } from './command-context.js';
import { readEnvFile } from './env-file.js';
import { printJson, printTable } from './output.js';

type Source = 'default' | 'file' | 'environment' | 'option';

const SECRET = '******** (set)';

/** The effective value of each setting, as the service uses it. */
function effectiveValues(config: Config): Record<SettingName, string> {
  const pool = config.database.engine === 'postgres' ? config.database.pool : undefined;
  return {
    NODE_ENV: config.dev ? 'development' : 'production',
    HOST: config.host,
    PORT: String(config.port),
    TIMETRACK_DB: config.database.engine === 'sqlite' ? config.database.path : '- (PostgreSQL: DATABASE_URL)',
    DATABASE_URL: config.database.engine === 'postgres' ? maskDatabaseUrl(config.database.url) : '- (SQLite: TIMETRACK_DB)',
    DATABASE_POOL_SIZE: pool ? String(pool.max) : '-',
    DATABASE_CONNECT_TIMEOUT: pool ? `${pool.connectTimeoutMs / 1000}s` : '-',
    DATABASE_STATEMENT_TIMEOUT: pool ? `${pool.statementTimeoutMs / 1000}s` : '-',
    DATABASE_LOCK_TIMEOUT: pool ? `${pool.lockTimeoutMs / 1000}s` : '-',
    // A generated value: where it lives and how to carry it to another install (never the value).
    JWT_SECRET: config.jwtSecret
      ? SECRET
      : config.database.engine === 'sqlite'
        ? `(generated, kept in ${secretFilePath(config.database.path)}; moving to PostgreSQL, set a new JWT_SECRET)`
        : '-',
    SECRET_KEY: config.secretKey
      ? SECRET
      : config.database.engine === 'sqlite'
        ? `(generated, kept in ${secretKeyFilePath(config.database.path)}; moving to PostgreSQL, set SECRET_KEY to its contents)`
        : '- (unset: derived from JWT_SECRET; set it, docs/operations.md)',
    JWT_EXPIRATION: `${config.jwtExpirationSeconds}s`,
    LOCKOUT_ATTEMPTS: String(config.lockoutAttempts),
    LOCKOUT_DURATION: `${config.lockoutDurationSeconds}s`,
    TWO_FACTOR_LOCK: `${config.twoFactorLockSeconds}s`,
    RESET_TOKEN_TTL: `${config.resetTokenTtlSeconds}s`,
    INVITE_TTL: `${config.inviteTtlSeconds}s`,
    RATE_LIMIT_AUTH: String(config.rateLimitAuth),
    RATE_LIMIT_EXPORT: String(config.rateLimitExport),
    RATE_LIMIT_STATS: String(config.rateLimitStats),
    TRUST_PROXY: Array.isArray(config.trustProxy) ? config.trustProxy.join(',') : String(config.trustProxy),
    REGISTRATION: config.registration,
    REQUIRE_2FA: String(config.require2fa),
    PUBLIC_URL: config.publicUrl,
    SMTP_HOST: config.smtp?.host ?? '-',
    SMTP_PORT: config.smtp ? String(config.smtp.port) : '-',
    SMTP_USER: config.smtp?.user ?? '-',
    SMTP_PASSWORD: config.smtp?.password ? SECRET : '-',
    SMTP_FROM: config.smtp?.from ?? '-',
    NEW_DEVICE_NOTICE: config.smtp ? String(config.newDeviceNotice) : `${config.newDeviceNotice} (no mail without SMTP_HOST)`,
    LOG_LEVEL: config.logLevel,
    HASH_CONCURRENCY: String(config.hashConcurrency),
    HASH_QUEUE_LIMIT: String(config.hashQueueLimit),
    HOUSEKEEPING_INTERVAL: `${config.housekeepingIntervalSeconds}s`,
    AUDIT_RETENTION_DAYS: String(config.auditRetentionDays),
    NOTIFY_HOUR: String(config.notify.hour),
    NOTIFY_INTERVAL: `${config.notify.intervalSeconds}s`,
    NOTIFY_RETRY: `${config.notify.retrySeconds}s`,
    NOTIFY_ATTEMPTS: String(config.notify.attempts),
    INTEGRITY_CHECK_INTERVAL: `${config.integrityCheckIntervalSeconds}s`,
    METRICS_LISTEN: config.metricsListen ? `${config.metricsListen.host}:${config.metricsListen.port}` : 'off',
  };
}

export function registerConfigCommand(program: Command): void {
  program
    .command('config')
    .description('print the settings in effect and where each comes from (default, file, environment), secrets masked')
    .action((_options: object, command: Command) => {
      const global = command.optsWithGlobals<GlobalOptions>();
      const file = global.envFile ? readEnvFile(global.envFile) : {};
      const isSet = (value: string | undefined) => value !== undefined && value.trim() !== '';
      const config = loadConfig({ ...file, ...process.env }, databaseOverrides(global));
      const values = effectiveValues(config);
      const settings = SETTING_NAMES.map((name) => {
        const source: Source =
          (name === 'TIMETRACK_DB' && global.db) || (name === 'DATABASE_URL' && global.databaseUrl)
            ? 'option'
            : isSet(process.env[name])
              ? 'environment'
              : isSet(file[name])
                ? 'file'
                : 'default';
        return { name, value: values[name], source };
      });
      if (global.json) return printJson({ settings });
      printTable(
        ['setting', 'value', 'source'],
        settings.map((s) => [s.name, s.value, s.source]),
      );
    });
}
