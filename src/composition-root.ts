// The composition root: builds what `serve` and every admin command share (config, database,
// logger, clock, mail delivery, services). Nothing here loads Fastify, so commands start quickly.
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { ConfigError, loadConfig, type Config, type ConfigOverrides, type Env } from './config/index.js';
import { databaseFileOf, type OpenedDatabase } from './db/database.js';
import { openDatabase } from './db/open.js';
import { assertSchemaCurrent, migrateToLatest } from './db/migrate.js';
import { waitForOlderWriters } from './db/process-registry.js';
import type { Database } from './db/types.js';
import { createLogger } from './logger.js';
import { createResetLinkDelivery } from './mail/reset-delivery.js';
import { createBackgroundNotices, createCodeLockNotices, createNoticeMailer, invitationLinks } from './mail/notices.js';
import { createAccountAdminService, createAccountClosingService, createAccountService, createUserDirectory, type PublicUser } from './auth/accounts/index.js';
import { createFirstAdminService } from './auth/accounts/first-admin.js';
import { createSecretBox } from './auth/secret-box.js';
import { createTwoFactorService } from './auth/two-factor/index.js';
import { timeServices } from './composition/time-services.js';
import { noticeWiring, teamServices } from './composition/team-services.js';
import { createMonthLock } from './teams/months/lock.js';
import { createAuditService } from './auth/audit.js';
import { createBackgroundTasks, type BackgroundTasks } from './common/background.js';
import { systemClock, type Clock } from './common/clock.js';
import { createAccountDataService } from './portability/account-document.js';
import { createHealthService } from './common/health.js';
import { createHousekeeping } from './auth/housekeeping.js';
import { createLockoutService, createResetService, PasswordHasher, type PasswordAlgorithm } from './auth/passwords/index.js';
import { loadOrCreateSecret, sealingKeyLoaders, secretFilePath } from './auth/secret.js';
import {
  createActivityRecorder,
  createApiTokenService,
  createAuthenticationService,
  createCredentialService,
  createNewDeviceNotices,
  createOwnSessionService,
  createSessionService,
  newDeviceText,
  type SignInClient,
} from './auth/sessions/index.js';

export interface ContextOptions {
  env?: Env;
  overrides?: ConfigOverrides;
  clock?: Clock;
  /** Where log lines go (default stdout); tests pass a stream to read them. */
  logDestination?: NodeJS.WritableStream;
  /** Where dev mode prints reset links (default stdout). */
  terminal?: NodeJS.WritableStream;
  /**
   * Apply pending migrations while opening (serve, tests); or, when false, refuse a database whose
   * schema is not this build's unless `skipSchemaCheck` (only `migrate --status` looks at such a file).
   */
  migrate?: boolean;
  skipSchemaCheck?: boolean;
  mailRetryDelaysMs?: number[];
  /** argon2id unless given: tests whose subject is not hashing pass a fast one. */
  passwordAlgorithm?: PasswordAlgorithm;
  /**
   * false: never create a generated secret file (`timetrack check`, which may run as another user):
   * a missing one is a key nothing was sealed under.
   */
  generateSecrets?: boolean;
}

/** What every part of the wiring below is built from: one object, as each service takes its dependencies. */
interface Wiring {
  config: Config;
  database: OpenedDatabase;
  clock: Clock;
  logger: Logger;
  options: ContextOptions;
  background: BackgroundTasks;
}

/** The services of identity: accounts, passwords, sessions, API tokens, two-factor sign-in, resets. */
function identityServices(wiring: Wiring) {
  const { config, database, clock, logger, options, background } = wiring;
  const { db, bestEffort } = database;
  const hasher = new PasswordHasher({ concurrency: config.hashConcurrency, queueLimit: config.hashQueueLimit, algorithm: options.passwordAlgorithm });
  const users = createUserDirectory({ db });
  // On PostgreSQL JWT_SECRET is required (src/config/): a secret file cannot be shared between machines.
  const loadSecret = () => config.jwtSecret ?? loadOrCreateSecret(secretFilePath(sqlitePathOf(config)));
  const lockoutSettings = { attempts: config.lockoutAttempts, durationSeconds: config.lockoutDurationSeconds, loadSecret };
  const lockout = createLockoutService({ db, clock, bestEffort, settings: lockoutSettings });
  const sessions = createSessionService({ database, clock, options: { expirationSeconds: config.jwtExpirationSeconds, loadSecret } });
  const activity = createActivityRecorder({ bestEffort, clock, logger });
  // TOTP secrets sealed under SECRET_KEY (or the generated key file), not kept in the database.
  const twoFactor = createTwoFactorService({
    database,
    clock,
    hasher,
    lockout,
    sessions,
    box: createSecretBox(
      sealingKeyLoaders({
        secretKey: config.secretKey,
        jwtSecret: config.jwtSecret,
        dbPath: databaseFileOf(config.database),
        generate: options.generateSecrets !== false,
        loadSessionSecret: loadSecret,
      }),
    ),
    logger,
    options: { required: config.require2fa, firstCodeLockSeconds: config.twoFactorLockSeconds },
    notices: createCodeLockNotices(config, logger, background, options.mailRetryDelaysMs),
  });
  const terminal = options.terminal ?? process.stdout;
  const delivery = createResetLinkDelivery({ dev: config.dev, smtp: config.smtp, logger, background, terminal, retryDelaysMs: options.mailRetryDelaysMs });
  const notify = createBackgroundNotices(config.smtp, logger, background, options.mailRetryDelaysMs); // the new-API-token notice
  return {
    signInNotices: signInNotices(wiring, loadSecret),
    hasher,
    users,
    lockout,
    sessions,
    /** When sessions were last used: noted in memory per request, written by a timer (close() writes the rest). */
    activity,
    apiTokens: createApiTokenService({ database, clock, activity, reauthenticate: twoFactor.reauthenticate, notify, publicUrl: config.publicUrl }),
    twoFactor,
    /** The check of every protected request: a session token or an API token (and the note of its use). */
    credentials: createCredentialService({ database, clock, sessions, activity, options: { requireTwoFactor: config.require2fa } }),
    ownSessions: createOwnSessionService({ database, clock, activity }),
    accountAdmin: createAccountAdminService({ database, clock, hasher, users, lockout }),
    accounts: createAccountService({ database, clock, hasher, options: { registrationOpen: config.registrationOpen } }),
    authentication: createAuthenticationService({ database, clock, hasher, lockout, sessions, bestEffort, secondStep: twoFactor.challengeAfterPassword }),
    resets: createResetService({
      database,
      clock,
      hasher,
      users,
      background,
      delivery,
      options: { ttlSeconds: config.resetTokenTtlSeconds, publicUrl: config.publicUrl },
    }),
    housekeeping: createHousekeeping({ database, clock, options: { lockoutDurationSeconds: config.lockoutDurationSeconds } }),
  };
}

/** The new-device notice: with SMTP and NEW_DEVICE_NOTICE, each sign-in is looked at off the request path. */
function signInNotices({ config, database, clock, logger, options, background }: Wiring, loadSecret: () => Uint8Array) {
  const noticeMailer = config.newDeviceNotice ? createNoticeMailer(config.smtp, logger, options.mailRetryDelaysMs) : undefined;
  const newDevices = createNewDeviceNotices({ database, clock, loadSecret });
  return {
    noteSignIn(user: PublicUser, client: SignInClient): void {
      if (!noticeMailer) return;
      background.run('new-device notice', async () => {
        const notice = await newDevices.recordSignIn(user, client);
        if (notice)
          await noticeMailer.send(
            { to: user.email, subject: 'New sign-in to your timetrack account', text: newDeviceText(notice, config.publicUrl) },
            'new-device',
          );
      });
    },
  };
}

export function createServices(config: Config, database: OpenedDatabase, clock: Clock, logger: Logger, options: ContextOptions) {
  const wiring: Wiring = { config, database, clock, logger, options, background: createBackgroundTasks(logger) };
  const identity = identityServices(wiring);
  // Closed months refuse changes to their days: the team layer's lock, asked by every writer of time/.
  const { exportGate, ...time } = timeServices({ ...wiring, monthLock: createMonthLock() });
  /** What admin commands and security events changed: every command that changes something records it here. */
  const audit = createAuditService({ db: database.db, clock, logger });
  return {
    ...identity,
    ...time,
    background: wiring.background,
    audit,
    accountClosing: createAccountClosingService({ database, twoFactor: identity.twoFactor, audit }),
    firstAdmin: createFirstAdminService({ database, clock, hasher: identity.hasher, audit }),
    ...teamServices({ database, clock, identity, time, audit, invitationLinks: invitationLinks(wiring), notices: noticeWiring(wiring) }),
    health: createHealthService(database, clock, () => assertSchemaCurrent(database.db)),
    accountData: createAccountDataService({
      database,
      clock,
      settings: time.settings,
      entriesCsv: time.entriesCsv,
      exportGate,
      hasher: identity.hasher,
      audit,
    }),
  };
}

export type Services = ReturnType<typeof createServices>;

/** The SQLite file of the configuration; only for what exists on SQLite alone (the generated secret file). */
export function sqlitePathOf(config: Config): string {
  const file = databaseFileOf(config.database);
  if (file === undefined) throw new ConfigError('this needs a SQLite database (TIMETRACK_DB); DATABASE_URL names a PostgreSQL one');
  return file;
}

export interface AppContext {
  config: Config;
  db: Kysely<Database>;
  /** The engine behind the port (src/db/database.ts): backups, checks, the engine's name and location. */
  database: OpenedDatabase;
  logger: Logger;
  clock: Clock;
  services: Services;
  /** Waits for background work (bounded), then closes the database. */
  close(): Promise<void>;
}

/**
 * A database file that cannot be opened is a bad TIMETRACK_DB (or --db): one line naming it, not a
 * stack. A PostgreSQL pool connects on first use; an outage then is DATABASE_UNAVAILABLE.
 */
async function openConfiguredDatabase(config: Config, logger: Logger): Promise<OpenedDatabase> {
  const { database } = config;
  try {
    return await openDatabase(database, {
      onBackgroundError: (error) => logger.warn({ err: error instanceof Error ? error.message : String(error) }, 'database connection lost'),
    });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    const file = databaseFileOf(database);
    throw new ConfigError(file !== undefined ? `TIMETRACK_DB: cannot open ${file} (${reason})` : `DATABASE_URL: cannot open the database (${reason})`);
  }
}

export async function createContext(options: ContextOptions = {}): Promise<AppContext> {
  const config = loadConfig(options.env ?? process.env, options.overrides);
  const destination = options.logDestination ?? process.stdout;
  const env = options.env ?? process.env;
  const logger = createLogger({
    level: config.logLevel,
    pretty: config.dev || ('isTTY' in destination && Boolean(destination.isTTY)),
    // https://no-color.org: any non-empty NO_COLOR turns colours off.
    color: 'isTTY' in destination && Boolean(destination.isTTY) && !env.NO_COLOR,
    destination,
  });
  const clock = options.clock ?? systemClock;
  const database = await openConfiguredDatabase(config, logger);
  const { db } = database;
  try {
    if (options.migrate) {
      for (const migration of await migrateToLatest(db, () => waitForOlderWriters(database, (fields, message) => logger.warn(fields, message)))) {
        logger.info({ migration, db: database.location, at: clock.now().toISOString() }, 'migration applied');
      }
    } else if (!options.skipSchemaCheck) {
      await assertSchemaCurrent(db);
    }
  } catch (error) {
    await database.close();
    throw error;
  }
  const services = createServices(config, database, clock, logger, options);
  return {
    config,
    db,
    database,
    logger,
    clock,
    services,
    async close() {
      await services.activity.flush();
      const unfinished = await services.background.drain(10_000);
      if (unfinished > 0) logger.warn({ unfinished }, 'stopped with background work unfinished');
      await database.close();
    },
  };
}
