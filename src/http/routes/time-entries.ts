// /api/time-entries: strict authentication. The full set of routes comes with time tracking.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.js';
import { requireSession } from '../plugins/authentication.js';
import { errorResponses } from '../schemas.js';

export const timeEntryRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.addHook('onRequest', requireSession(ctx.services.sessions));

  app.get('/', {
    schema: {
      tags: ['time-entries'],
      security: [{ bearerAuth: [] }],
      response: { 200: Type.Object({ entries: Type.Array(Type.Object({ id: Type.Integer() })) }), ...errorResponses(401) },
    },
  }, async () => ({ entries: [] }));
};
