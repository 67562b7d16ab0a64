// What `serve` does before it listens (checks and clean-ups of the start) and says once it listens
// (warnings about the settings, and the line an operator checks first after a deploy).
import { NO_ADMIN_NOTICE } from '../auth/accounts/roles.js';
import { SETUP_LINK_TTL_SECONDS } from '../auth/accounts/first-admin.js';
import path from 'node:path';
import { sqlitePathOf, type AppContext } from '../composition-root.js';
import { secretFilePath } from '../auth/secret.js';
import { databaseFileOf } from '../db/database.js';
import { defaultSpoolFolder, removeSpoolLeftovers } from './export-spool.js';

/**
 * Before the server is built: fails at the start, not at the first login, when the secret is
 * unusable; ends the sessions that may no longer be used; computes the dummy hash now, so the first
 * login with an unknown e-mail is not faster than the others; loads the holiday calendar and queues
 * the holiday years in use, so the first statistics requests do not wait for them.
 */
export async function runStartupChecks(ctx: AppContext): Promise<void> {
  const { config, logger, services } = ctx;
  await services.sessions.warmUp();
  try {
    const retired = await services.sessions.deleteSessionsOfRetiredSecrets();
    if (retired > 0) logger.info({ deleted: retired }, 'deleted the sessions of signing secrets no longer configured');
  } catch (error) {
    // With --no-migrate the sessions table may not have its key ids yet: serve anyway, as before.
    logger.warn({ err: error }, 'could not delete the sessions of retired signing secrets');
  }
  await resealTwoFactorSecrets(ctx);
  // Export spool files a crashed or killed process left behind (export-spool.ts).
  const leftovers = await removeSpoolLeftovers(defaultSpoolFolder());
  if (leftovers > 0) logger.info({ removed: leftovers }, 'removed export spool files left by a process that is gone');
  if (config.require2fa) {
    // REQUIRE_2FA: sessions made before it, of accounts without two-factor sign-in, end now.
    const ended = await services.twoFactor.deleteSessionsWithoutTwoFactor();
    logger.info({ deleted: ended }, 'REQUIRE_2FA: ended the sessions of accounts without two-factor sign-in');
  }
  await offerFirstAdminLink(ctx);
  await services.hasher.warmUp();
  try {
    await services.statistics.warmUp();
  } catch (error) {
    // Only a head start: the years are worked out on first use otherwise.
    logger.warn({ err: error }, 'could not read the holiday regions in use to work their years out ahead');
  }
}

/**
 * While no account is an active admin, nobody could administer accounts or teams from the browser: a
 * one-time setup link on this terminal only (docs/teams.md, "The first admin"), which whoever merely
 * reaches the server cannot see.
 */
async function offerFirstAdminLink({ config, logger, services }: AppContext): Promise<void> {
  let token: string | undefined;
  try {
    token = await services.firstAdmin.issueLink();
  } catch (error) {
    // With --no-migrate the table of the links may not exist yet: the notice without a link.
    if (!(await services.people.hasActiveAdmin())) logger.warn({ err: error }, NO_ADMIN_NOTICE);
    return;
  }
  if (token === undefined) return;
  const days = SETUP_LINK_TTL_SECONDS / 86_400;
  logger.warn(
    `no active admin: to make the first admin account, open ${config.publicUrl}/register?setup=${token} (one-time; valid ${days} days, until an admin exists), or run \`timetrack user role <account> admin\``,
  );
}

/**
 * The two-factor secrets sealed before SECRET_KEY (under the session secret's key) are re-sealed
 * under the sealing key, so that afterwards only SECRET_KEY matters (docs/security.md). A failure
 * here is not fatal: those secrets still open under the old key.
 */
async function resealTwoFactorSecrets({ logger, services }: AppContext): Promise<void> {
  try {
    const { total, resealed, notOpening } = await services.twoFactor.resealOldSecrets();
    if (resealed > 0)
      logger.info({ resealed, total }, 're-sealed the two-factor secrets sealed under the key of the session secret under the sealing key (SECRET_KEY)');
    if (notOpening > 0) {
      logger.error(
        { not_opening: notOpening, total },
        'two-factor secrets do not open with this server\'s keys: set SECRET_KEY to the key they were sealed with (docs/operations.md, "Moving to PostgreSQL"); until then their accounts sign in with a recovery code only',
      );
    }
  } catch (error) {
    logger.warn({ err: error }, 'could not re-seal the two-factor secrets sealed under the key of the session secret (they still open)');
  }
}

/** Settings that work but should not stay so in production. */
export function warnAboutSettings(ctx: AppContext): void {
  const { config, logger } = ctx;
  const databaseFile = databaseFileOf(config.database);
  if (ctx.database.folderAccessibleToOthers && databaseFile !== undefined) {
    logger.warn(
      { folder: path.dirname(databaseFile) },
      'the database folder is accessible to its group or others: chmod 700 it (the database holds password hashes and session records)',
    );
  }
  if (databaseFileOf(config.database) === undefined && !config.secretKey) {
    logger.warn(
      'SECRET_KEY is not set: two-factor secrets are sealed under a key derived from JWT_SECRET, so a new JWT_SECRET makes every one unreadable; set SECRET_KEY (docs/operations.md, "Moving to PostgreSQL")',
    );
  }
  if (!config.dev && !config.smtp) {
    logger.warn('no SMTP settings: reset e-mails are not sent; use `timetrack reset issue <email>`');
  }
  if (!config.dev && config.publicUrl.startsWith('http://')) {
    logger.warn({ publicUrl: config.publicUrl }, 'PUBLIC_URL is not https: put timetrack behind a TLS reverse proxy in production');
  }
}

/** Once listening: which build, which file, which secret, which mode; then the notices of this start. */
export function logStarted(ctx: AppContext, about: { version: string; createdNotice?: string | undefined }): void {
  const { config, logger } = ctx;
  // At every LOG_LEVEL (an info line a child of its own level lets through): after an upgrade it is
  // what says which build runs on which database.
  logger.child({}, { level: 'info' }).info(
    {
      version: about.version,
      engine: ctx.database.engine,
      db: ctx.database.location,
      secret_source: config.jwtSecret ? 'environment (JWT_SECRET)' : `file ${secretFilePath(sqlitePathOf(config))}`,
      mode: config.dev ? 'development' : 'production',
    },
    'timetrack started',
  );
  if (about.createdNotice) logger.warn({ database: ctx.database.location }, about.createdNotice);
  if (config.dev) {
    logger.warn(
      { host: config.host },
      'DEV MODE IS ON: request-reset answers a reset token for any account to anyone who can reach this address; never use it with real accounts (start without --dev)',
    );
  }
}
