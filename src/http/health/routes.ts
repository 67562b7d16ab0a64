// Liveness and readiness for monitors and load balancers. /api/health: 200 while the database serves
// (reads, writes, and the last periodic integrity check), else 503 with the reason; /api/ready: 503
// also while the schema is not this build's (a migration pending or running). Both name the version,
// the commit it was built from and the engine, and answer 503, never an error, when the database is down.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { HealthService, HealthState } from '../../common/health.js';
import { buildCommit, packageVersion } from '../../version.js';

const About = {
  version: Type.String(),
  commit: Type.String(),
  /** The engine's name (the database's `engine`): not spelled out here, so the published schema names no engine. */
  engine: Type.String(),
};

const schema = {
  tags: ['meta'],
  response: {
    200: Type.Object({ status: Type.Literal('ok'), ...About }),
    503: Type.Object({ status: Type.Literal('unavailable'), reason: Type.String(), ...About }),
  },
};

/** A 503 of health or readiness suggests asking again after this many seconds. */
const HEALTH_RETRY_AFTER_SECONDS = 5;

/** What the probes use: the health service and the engine's name. */
export interface HealthRouteOptions {
  health: HealthService;
  engine: string;
}

export const healthRoutes: FastifyPluginAsyncTypebox<HealthRouteOptions> = async (app, { health, engine }) => {
  const about = () => ({ version: packageVersion(), commit: buildCommit(), engine });
  const answer = (state: HealthState) =>
    state.healthy
      ? { code: 200 as const, body: { status: 'ok' as const, ...about() } }
      : { code: 503 as const, body: { status: 'unavailable' as const, reason: state.reason ?? 'unavailable', ...about() } };

  app.get('/health', { schema }, async (_request, reply) => {
    const { code, body } = answer(await health.state());
    if (code === 503) reply.header('Retry-After', String(HEALTH_RETRY_AFTER_SECONDS));
    return reply.code(code).send(body);
  });
  app.get('/ready', { schema }, async (_request, reply) => {
    const { code, body } = answer(await health.readiness());
    if (code === 503) reply.header('Retry-After', String(HEALTH_RETRY_AFTER_SECONDS));
    return reply.code(code).send(body);
  });
};
