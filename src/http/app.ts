// Builds the Fastify application from a context. `serve` listens with it; tests inject into it.
import rateLimit from '@fastify/rate-limit';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyRequest, type FastifyServerOptions } from 'fastify';
import type { AppContext } from '../composition-root.js';
import { registerErrorHandling } from './error-handler.js';
import { createOutageLog, type OutageLog } from './outage-log.js';
import { REQUEST_LOG_MESSAGE, requestLogLine } from '../logger.js';
import { requestLoggerFactory } from './request-logger.js';
import { loggedPath } from './request-path.js';
import { rateLimitKey, SharedRateLimitStore } from './rate-limit-store.js';
import { refundedBudget } from './account-limits.js';
import { defaultSpoolLimits, type SpoolLimits } from './export-spool.js';
import { errorBody } from './errors.js';
import { answerClientError, registerRequestStart } from './security-headers.js';
import { userRoutes } from './users/routes.js';
import { accountActionRoutes } from './users/action-routes.js';
import { auditRoutes } from './audit/routes.js';
import { teamRoutes } from './teams/routes.js';
import { invitationRoutes } from './invitations/routes.js';
import { requestRoutes } from './requests/routes.js';
import { monthRoutes } from './months/routes.js';
import { noticeRoutes } from './notices/routes.js';
import { authRoutes } from './auth/routes.js';
import { healthRoutes } from './health/routes.js';
import { settingsRoutes } from './settings/routes.js';
import { registerStatsTrees } from './stats/routes.js';
import { timeEntryRoutes } from './time-entries/routes.js';
import { webRoutes } from './web/routes.js';
import type { Metrics } from './metrics.js';
import { registerApiTree } from './api-hooks.js';
import { registerOpenApi, serveOpenApi } from './openapi.js';
import { keptCompilers } from './schema-compilers.js';
import { registerSchemaGuard, type SchemaGuard } from './schema-guard.js';
import { buildCommit, packageVersion } from '../version.js';

/** Small on purpose: no body of this API comes near it, and a flood of large bodies costs memory. */
export const BODY_LIMIT_BYTES = 16 * 1024;

/** TRUST_PROXY=true trusts one hop: the client is the address the nearest proxy added, never the leftmost. */
function fastifyTrustProxy(setting: boolean | string[]): ((address: string, hop: number) => boolean) | string[] | false {
  return setting === true ? (_address, hop) => hop < 1 : setting;
}

export interface AppOptions {
  /** Prometheus metrics of this process (serve with METRICS_LISTEN). */
  metrics?: Metrics | undefined;
  /** True once serve drains for shutdown: answers then close their connections. */
  draining?: () => boolean;
  /** The process's outage log (serve shares it with its jobs); one of the app's own otherwise. */
  outages?: OutageLog;
  /** Where and how far exports are spooled (export-spool.ts); tests narrow the bounds. */
  exportSpool?: Partial<SpoolLimits>;
  /** serve on PostgreSQL: stops writing once a newer version takes over (schema-guard.ts). */
  schemaGuard?: SchemaGuard | undefined;
}

export async function buildApp(ctx: AppContext, options: AppOptions = {}) {
  const { metrics } = options;
  const app = Fastify({
    loggerInstance: ctx.logger as FastifyBaseLogger,
    trustProxy: fastifyTrustProxy(ctx.config.trustProxy),
    bodyLimit: BODY_LIMIT_BYTES,
    // Long enough for a slow client, short enough that idle sockets do not pile up.
    requestTimeout: 30_000,
    // A request read during shutdown is answered, not turned away (the server drains, see lifecycle.ts).
    return503OnClosing: false,
    clientErrorHandler: answerClientError,
    // One line per request instead of Fastify's two (see the onResponse hook).
    logController: new LogController({ disableRequestLogging: true }),
    // request.log makes its pino child only when a request logs a line of its own (request-logger.ts).
    childLoggerFactory: requestLoggerFactory as unknown as NonNullable<FastifyServerOptions['childLoggerFactory']>,
    ajv: { customOptions: { removeAdditional: true, allErrors: false } },
    // Fastify's compilers, keeping what they compiled for the next app of this process (schema-compilers.ts).
    schemaController: { compilersFactory: keptCompilers },
  }).withTypeProvider<TypeBoxTypeProvider>();

  app.decorateRequest('session', null);
  // Node reads a socket's peer address lazily and forgets it once the socket is gone: a client that
  // half-closes right after its request would be logged (and rate-limited) without an address.
  // Reading it on connection keeps it for every request and log line of that socket.
  app.server.on('connection', (socket: { remoteAddress?: string }) => void socket.remoteAddress);
  // Behind a proxy without TRUST_PROXY every client has the proxy's address: one rate-limit budget
  // and one lockout address for everybody. Said once per process, on the first such request.
  const onFirstForwarded =
    ctx.config.trustProxy === false
      ? (request: FastifyRequest) => {
          ctx.logger.warn(
            { client: request.ip },
            'requests carry X-Forwarded-For but TRUST_PROXY is off: every client behind the proxy shares its address, one rate-limit budget and lockout; set TRUST_PROXY to the proxy\'s address (docs/operations.md, "Reverse proxy")',
          );
        }
      : undefined;
  registerRequestStart(app, { onFirstForwarded, draining: options.draining });
  if (options.schemaGuard)
    registerSchemaGuard(app, options.schemaGuard, () => ({ version: packageVersion(), commit: buildCommit(), engine: ctx.database.engine }));
  registerRequestLog(app, ctx, metrics);
  const outages = options.outages ?? createOutageLog(ctx.logger, () => ctx.services.health.isHealthy());
  app.addHook('onClose', async () => outages.stop());
  registerErrorHandling(app, ctx.services.health, outages, () => metrics?.databaseError());

  // JSON only (any other content type is 415). An empty body with a JSON content type (a bodiless POST /logout from fetch) is "no body", not an error.
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (body === '') return done(null, undefined);
    void parseJson(request, body as string, done);
  });

  await registerOpenApi(app);

  await app.register(rateLimit, {
    global: false,
    store: SharedRateLimitStore,
    keyGenerator: (request) => rateLimitKey(request.ip),
    errorResponseBuilder: (_request, context) => ({
      ...errorBody(429, 'RATE_LIMITED', `Too many requests; retry in ${context.after}`),
      statusCode: 429,
    }),
  });

  await registerRoutes(app, ctx, { ...defaultSpoolLimits(), ...options.exportSpool });
  serveOpenApi(app);
  await app.register(webRoutes);

  return app;
}

/**
 * The one line per request an operator greps: method, route pattern or normalised path (never the
 * raw target or its query string), status, client address, duration. Health probes come every few
 * seconds: debug only. fail2ban matches the security event lines instead (config/fail2ban).
 * Written from the application's logger with the request's reqId, as a child would write it (the
 * same bytes), and not even composed at a level that is off. Without the redaction of credentials:
 * none of these six fields can hold one, and pino's wildcard paths (`*.password`) ran over every
 * value of every line, doubling its cost. A callback hook: an async one costs a promise and a
 * microtask turn per request. LOG_LEVEL is read once at start: at warn and above, without
 * metrics, the hook has nothing to do and is not registered at all.
 */
function registerRequestLog(app: FastifyInstance, ctx: AppContext, metrics: Metrics | undefined): void {
  const logger = ctx.logger.child({}, { redact: [] });
  if (logger.isLevelEnabled('info') || metrics !== undefined) {
    app.addHook('onResponse', (request, reply, done) => {
      if (logger.isLevelEnabled('info')) {
        const path = loggedPath(request);
        const level = path === '/api/health' || path === '/api/ready' ? 'debug' : 'info';
        if (logger.isLevelEnabled(level)) {
          logger[level](requestLogLine(request.id, request.method, path, reply.statusCode, request.ip, reply.elapsedTime), REQUEST_LOG_MESSAGE);
        }
      }
      metrics?.observeRequest(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
      done();
    });
  }
}

/**
 * The /api route groups, each with only the services and settings it uses, and the caching of its
 * answers (api-hooks.ts).
 */
async function registerRoutes(app: FastifyInstance, ctx: AppContext, exportSpool: SpoolLimits): Promise<void> {
  const { config, services } = ctx;
  const { credentials, settings, timeEntries, absences, bookings, entriesCsv, schedules, accountData, statistics, vacation, timesheet } = services;
  const { accountClosing, accounts, apiTokens, audit, authentication, lockout, ownSessions, resets, sessions, signInNotices, twoFactor } = services;
  const now = () => ctx.clock.now().getTime();
  const rateLimited = config.rateLimitAuth > 0 ? { rateLimit: { max: config.rateLimitAuth, timeWindow: 60_000 } } : {};
  const authServices = {
    accountClosing,
    accounts,
    apiTokens,
    audit,
    authentication,
    credentials,
    firstAdmin: services.firstAdmin,
    lockout,
    ownSessions,
    resets,
    sessions,
    settings,
    signInNotices,
    teams: services.teams,
    twoFactor,
  };
  await registerApiTree(app, '/api/auth', 'private', authRoutes, { services: authServices, rateLimited });
  await registerApiTree(app, '/api/users', 'private', userRoutes, { credentials, people: services.people, audit, accountActions: services.accountActions });
  await registerApiTree(app, '/api/users', 'private', accountActionRoutes, { credentials, accountActions: services.accountActions });
  await registerApiTree(app, '/api/audit', 'private', auditRoutes, { credentials, accountActions: services.accountActions });
  await registerApiTree(app, '/api/teams', 'private', teamRoutes, {
    credentials,
    teams: services.teams,
    audit,
    overview: services.overview,
    calendar: services.calendar,
  });
  await registerApiTree(app, '/api', 'private', monthRoutes, { credentials, months: services.months, audit });
  const invitationServices = { credentials, invitations: services.invitations, authentication, sessions, settings, rateLimited };
  await registerApiTree(app, '/api/invitations', 'private', invitationRoutes, invitationServices);
  await registerApiTree(app, '/api/requests', 'private', requestRoutes, { credentials, requests: services.requests });
  await registerApiTree(app, '/api/notices', 'private', noticeRoutes, { credentials, notices: services.notices });
  await registerApiTree(app, '/api', 'public', healthRoutes, { health: services.health, engine: ctx.database.engine });
  // One budget per account for both exports (CSV and account document): RATE_LIMIT_EXPORT an hour.
  // A refused try (409 EXPORT_RUNNING, 503 BUSY) is given back.
  const exportBudget = refundedBudget({ name: 'exports', max: config.rateLimitExport, windowMs: 3_600_000 }, now);
  await registerApiTree(app, '/api/time-entries', 'private', timeEntryRoutes, {
    credentials,
    timeEntries,
    absences,
    bookings,
    vacation,
    entriesCsv,
    exportBudget,
    exportSpool,
  });
  await registerApiTree(app, '/api/settings', 'private', settingsRoutes, { credentials, settings, schedules, accountData, exportBudget, exportSpool });
  // /api/stats and /api/users/:id/stats (another account's, through the team layer's rule).
  await registerStatsTrees(app, {
    credentials,
    statistics,
    vacation,
    timesheet,
    overview: services.overview,
    seals: services.months,
    rateLimitStats: config.rateLimitStats,
    now,
  });
}

export type App = Awaited<ReturnType<typeof buildApp>>;
