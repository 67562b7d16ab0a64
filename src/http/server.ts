// `timetrack serve`: listen, run housekeeping on a timer, stop gracefully on SIGTERM/SIGINT
// (answer every request that reached the server, stop accepting, finish requests in flight, wait
// for background mail, close the database).
import path from 'node:path';
import { sqlitePathOf, type AppContext } from '../composition-root.js';
import { LISTEN_FAILURE } from '../common/errors.js';
import { databaseFileOf } from '../db/database.js';
import { buildApp } from './app.js';
import type { StartingListener } from './starting.js';
import { createMetrics, serveMetrics } from './metrics.js';
import { secretFilePath } from '../auth/secret.js';

/** After this long, connections still open at shutdown are cut so the process can exit. */
const SHUTDOWN_GRACE_MS = 8_000;

/**
 * How long the server keeps reading after SIGTERM before it stops listening. Closing the listener
 * also closes every connection without a request in progress, and a connection accepted while the
 * event loop was busy counts as one even when its request already sits in the socket buffer: it
 * would be reset. Meanwhile every answer says `Connection: close`, so keep-alive clients leave.
 */
const SHUTDOWN_READ_GRACE_MS = 500;

/** When the first integrity check runs after the start (then every INTEGRITY_CHECK_INTERVAL). */
const FIRST_INTEGRITY_CHECK_MS = 10_000;

export async function runServer(ctx: AppContext, about: { version: string; starting?: StartingListener; createdNotice?: string }): Promise<void> {
  const { config, logger, services } = ctx;
  // Fail at start, not at the first login, when the secret is unusable; and compute the dummy hash
  // now, so the first login with an unknown e-mail is not faster than the others.
  await services.sessions.warmUp();
  try {
    const retired = await services.sessions.deleteSessionsOfRetiredSecrets();
    if (retired > 0) logger.info({ deleted: retired }, 'deleted the sessions of signing secrets no longer configured');
  } catch (error) {
    // With --no-migrate the sessions table may not have its key ids yet: serve anyway, as before.
    logger.warn({ err: error }, 'could not delete the sessions of retired signing secrets');
  }
  if (config.require2fa) {
    // REQUIRE_2FA: sessions made before it, of accounts without two-factor sign-in, end now.
    const ended = await services.twoFactor.deleteSessionsWithoutTwoFactor();
    logger.info({ deleted: ended }, 'REQUIRE_2FA: ended the sessions of accounts without two-factor sign-in');
  }
  await services.hasher.warmUp();

  const metrics = config.metricsListen ? createMetrics() : undefined;
  let draining = false;
  const app = await buildApp(ctx, { metrics, draining: () => draining });
  const housekeeping = setInterval(() => {
    // On PostgreSQL one process at a time does it; the others skip this round.
    ctx.database
      .exclusively('housekeeping', async () => ({
        ...(await services.housekeeping.deleteExpiredRecords()),
        // Forgotten timers stop at their start plus the account's limit (docs/time-model.md).
        stoppedTimers: await services.timeEntries.stopForgottenTimers(),
      }))
      .then((deleted) => logger.debug({ deleted: deleted ?? 'done by another process' }, 'housekeeping done'))
      .catch((error: unknown) => logger.error({ err: error }, 'housekeeping failed'));
  }, config.housekeepingIntervalSeconds * 1000);
  housekeeping.unref();
  // The integrity check (quick_check on SQLite) soon after the start and then periodically, never per request:
  // /api/health reports a damaged database that still answers reads.
  const checkIntegrity = () => {
    services.health
      .checkIntegrity()
      .then((result) => {
        if (result === 'ok') logger.debug('database integrity check ok');
        else logger.error({ problems: result }, 'database integrity check failed: restore a backup (docs/operations.md, "Backups")');
      })
      .catch((error: unknown) => logger.error({ err: error }, 'database integrity check could not run'));
  };
  const integrity = setInterval(checkIntegrity, config.integrityCheckIntervalSeconds * 1000);
  integrity.unref();

  const databaseFile = databaseFileOf(config.database);
  if (ctx.database.folderAccessibleToOthers && databaseFile !== undefined) {
    logger.warn({ folder: path.dirname(databaseFile) }, 'the database folder is accessible to its group or others: chmod 700 it (the database holds password hashes and session records)');
  }
  if (!config.dev && !config.smtp) {
    logger.warn('no SMTP settings: reset e-mails are not sent; use `timetrack reset issue <email>`');
  }
  if (!config.dev && config.publicUrl.startsWith('http://')) {
    logger.warn({ publicUrl: config.publicUrl }, 'PUBLIC_URL is not https: put timetrack behind a TLS reverse proxy in production');
  }

  // Listened for before listening: a stop right after the start must still be graceful.
  const stopSignal = new Promise<NodeJS.Signals>((resolve) => {
    process.once('SIGTERM', () => resolve('SIGTERM'));
    process.once('SIGINT', () => resolve('SIGINT'));
  });
  try {
    // The address answered 503 while the database was migrated: it is this server's from now on.
    await about.starting?.close();
    await app.listen({ host: config.host, port: about.starting?.port ?? config.port });
  } catch (error) {
    if (error !== null && typeof error === 'object') Object.assign(error, { [LISTEN_FAILURE]: true });
    await app.close().catch(() => undefined);
    throw error;
  }
  // The first check soon after the start, not during it (quick_check holds the event loop a moment).
  const firstIntegrityCheck = setTimeout(checkIntegrity, Math.min(FIRST_INTEGRITY_CHECK_MS, config.integrityCheckIntervalSeconds * 1000));
  firstIntegrityCheck.unref();
  const metricsServer = metrics && config.metricsListen ? await serveMetrics(metrics, config.metricsListen) : undefined;
  if (metricsServer && config.metricsListen) logger.info({ address: `${config.metricsListen.host}:${config.metricsListen.port}` }, 'metrics listening at /metrics');
  // What an operator checks first after a deploy: which build, which file, which secret, which mode.
  logger.info(
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

  const signal = await stopSignal;
  logger.info({ signal }, 'shutting down: finishing requests in flight');
  clearInterval(housekeeping);
  clearInterval(integrity);
  clearTimeout(firstIntegrityCheck);
  metricsServer?.close();
  draining = true;
  await new Promise((resolve) => setTimeout(resolve, SHUTDOWN_READ_GRACE_MS));
  // A keep-alive connection whose request finishes during shutdown would otherwise stay open (and
  // keep the process alive) until the client's keep-alive ends: close each one as it goes idle.
  const closeIdle = setInterval(() => app.server.closeIdleConnections(), 50);
  const forceClose = setTimeout(() => app.server.closeAllConnections(), SHUTDOWN_GRACE_MS);
  forceClose.unref();
  await app.close();
  clearInterval(closeIdle);
  clearTimeout(forceClose);
  await ctx.close();
  logger.info('stopped');
}
