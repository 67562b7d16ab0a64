// A `serve` on PostgreSQL never writes into a schema it does not know (docs/operations.md, "Several
// processes on PostgreSQL"). Every HEARTBEAT_INTERVAL_MS it renews its row in the process registry
// (src/db/process-registry.ts) and looks, with two small reads, whether a newer version is announced
// (about to migrate) or has migrated (a migration this build does not know). Then it stops writing:
// every request answers 503 DATABASE_UNAVAILABLE with Retry-After, and /api/health and /api/ready
// answer 503 with the reason, so a load balancer moves the traffic to the new processes. Once the
// requests in flight have ended it says in its row that it no longer writes: the new version waits for
// that before it migrates. Withdrawn (no longer announced) at shutdown. Nothing of this on SQLite.
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { OpenedDatabase } from '../db/database.js';
import { unknownMigrations } from '../db/migrate.js';
import { describeProcess, HEARTBEAT_INTERVAL_MS, processRegistryFor, type ProcessRegistry } from '../db/process-registry.js';
import { errorBody } from './errors.js';

const RETRY_AFTER_SECONDS = '5';

export interface SchemaGuard {
  /** Why this process no longer writes, or undefined while it does. */
  stoppedBecause(): string | undefined;
  /** Announces the process and starts the heartbeat. */
  start(): Promise<void>;
  /** Stops the heartbeat and withdraws the announcement. */
  stop(): Promise<void>;
  /** A request that may write began; the function ends it. */
  began(): () => void;
}

/** The guard of a PostgreSQL database; undefined on SQLite (one server per file). */
export function createSchemaGuard(database: Pick<OpenedDatabase, 'engine' | 'db'>, version: string, logger: Logger): SchemaGuard | undefined {
  const found = processRegistryFor(database, version);
  if (!found) return undefined;
  const registry: ProcessRegistry = found;
  let reason: string | undefined;
  /** Once the database has a migration this build does not know, for good. */
  let migrated = false;
  let inFlight = 0;
  let timer: NodeJS.Timeout | undefined;
  const announce = () => registry.announce(reason === undefined || inFlight > 0);

  async function findReason(): Promise<string | undefined> {
    if (!migrated) {
      const unknown = await unknownMigrations(database.db);
      migrated = unknown.length > 0;
    }
    if (migrated) return `a newer version migrated the database; this process (${version}) does not know its schema and stopped writing: stop it`;
    const newer = await registry.newerAnnounced();
    return newer && `version ${describeProcess(newer)} is about to migrate the database; this process (${version}) stopped writing: stop it`;
  }

  async function beat(): Promise<void> {
    try {
      const found = await findReason();
      if (found !== undefined && reason === undefined) logger.warn({ reason: found }, 'stopped writing: every request now answers 503');
      if (found === undefined && reason !== undefined) logger.warn('writing again: the newer version that was announced is gone');
      reason = found;
      await announce();
    } catch (error) {
      // An outage: the requests see it themselves; the row goes stale, which others read as gone.
      logger.debug({ err: error }, 'process registry heartbeat failed');
    }
  }

  return {
    stoppedBecause: () => reason,
    async start() {
      await registry.announce(true).catch((error: unknown) => logger.debug({ err: error }, 'process registry heartbeat failed'));
      timer = setInterval(() => void beat(), HEARTBEAT_INTERVAL_MS).unref();
    },
    async stop() {
      clearInterval(timer);
      await registry.withdraw().catch(() => undefined);
    },
    began() {
      inFlight += 1;
      return () => {
        inFlight -= 1;
        // The last write in flight has ended: say so now, not at the next heartbeat.
        if (inFlight === 0 && reason !== undefined) void announce().catch(() => undefined);
      };
    },
  };
}

/**
 * The guard's gate, the first hook of every request: once the process stopped writing, 503 with
 * Retry-After (the probes with their reason); until then, each request is counted while in flight.
 */
export function registerSchemaGuard(app: FastifyInstance, guard: SchemaGuard, about: () => { version: string; commit: string; engine: string }): void {
  app.addHook('onRequest', (request, reply, done) => {
    const reason = guard.stoppedBecause();
    if (reason === undefined) {
      reply.raw.once('close', guard.began());
      return done();
    }
    const path = request.url.split('?')[0];
    reply.header('retry-after', RETRY_AFTER_SECONDS).header('connection', 'close').header('cache-control', 'no-store');
    if (path === '/api/health' || path === '/api/ready') return void reply.code(503).send({ status: 'unavailable', reason, ...about() });
    reply
      .code(503)
      .send(errorBody(503, 'DATABASE_UNAVAILABLE', 'This server is an older version that no longer writes while a newer one takes over; try again shortly'));
  });
}
