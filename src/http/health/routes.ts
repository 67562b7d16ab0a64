import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../composition-root.js';
import { packageVersion } from '../../version.js';

export const healthRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get('/health', {
    schema: {
      tags: ['meta'],
      response: {
        200: Type.Object({ status: Type.Literal('ok'), version: Type.String() }),
        503: Type.Object({ status: Type.Literal('unavailable'), version: Type.String() }),
      },
    },
  }, async (_request, reply) => {
    // The version tells an operator which build answers, after an upgrade above all.
    const version = packageVersion();
    if (await ctx.services.health.isHealthy()) return { status: 'ok' as const, version };
    return reply.code(503).send({ status: 'unavailable' as const, version });
  });
};
