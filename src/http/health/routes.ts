import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../composition-root.js';

export const healthRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.get('/health', {
    schema: {
      tags: ['meta'],
      response: { 200: Type.Object({ status: Type.Literal('ok') }), 503: Type.Object({ status: Type.Literal('unavailable') }) },
    },
  }, async (_request, reply) => {
    if (await ctx.services.health.isHealthy()) return { status: 'ok' as const };
    return reply.code(503).send({ status: 'unavailable' as const });
  });
};
