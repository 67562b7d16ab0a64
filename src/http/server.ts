// `timetrack serve`: the start-up checks (start-up.ts), the server, its periodic jobs (serve-jobs.ts),
// listening and the graceful shutdown on SIGTERM/SIGINT (lifecycle.ts); then the background work
// (mail) is waited for and the database closed (the context's close).
import type { AppContext } from '../composition-root.js';
import { buildApp } from './app.js';
import type { StartingListener } from './starting.js';
import { createMetrics, serveMetrics, type Metrics } from './metrics.js';
import { closeGracefully, drainSwitch, listen, SHUTDOWN_DEADLINE_MS, stopSignal } from './lifecycle.js';
import { serveJobs } from './serve-jobs.js';
import { createSchemaGuard } from './schema-guard.js';
import { createOutageLog } from './outage-log.js';
import { logStarted, runStartupChecks, warnAboutSettings } from './start-up.js';

export async function runServer(
  ctx: AppContext,
  about: { version: string; commit: string; starting?: StartingListener; createdNotice?: string },
): Promise<void> {
  const { config, logger } = ctx;
  await runStartupChecks(ctx);
  const metrics = config.metricsListen ? createMetrics({ version: about.version, commit: about.commit }) : undefined;
  const drain = drainSwitch();
  const outages = createOutageLog(logger, () => ctx.services.health.isHealthy());
  const schemaGuard = createSchemaGuard(ctx.database, about.version, logger);
  const app = await buildApp(ctx, { metrics, draining: drain.draining, outages, schemaGuard });
  warnAboutSettings(ctx);
  const stopped = stopSignal(() => logger.error({ after_ms: SHUTDOWN_DEADLINE_MS }, 'shutdown did not finish in time: exiting now'));
  // Every address is taken before the API's: a process that cannot serve all it was told to ends
  // here (the CLI names the setting), with nothing listening and no job started.
  let metricsServer: Awaited<ReturnType<typeof listenForMetrics>>;
  try {
    metricsServer = await listenForMetrics(ctx, metrics);
  } catch (error) {
    await app.close();
    throw error;
  }
  try {
    await listen(app, { host: config.host, port: config.port }, about.starting);
  } catch (error) {
    metricsServer?.close();
    throw error;
  }
  const jobs = serveJobs(ctx, outages);
  jobs.start();
  await schemaGuard?.start();
  logStarted(ctx, about);

  const signal = await stopped;
  logger.info({ signal }, 'shutting down: finishing requests in flight');
  jobs.stop();
  metricsServer?.close();
  await closeGracefully(app, drain);
  await schemaGuard?.stop();
  await ctx.close();
  logger.info('stopped');
}

/** METRICS_LISTEN: /metrics on an address of its own. */
async function listenForMetrics(ctx: AppContext, metrics: Metrics | undefined) {
  const listenAt = ctx.config.metricsListen;
  if (!metrics || !listenAt) return undefined;
  const server = await serveMetrics(metrics, listenAt);
  ctx.logger.info({ address: `${listenAt.host}:${listenAt.port}` }, 'metrics listening at /metrics');
  return server;
}
