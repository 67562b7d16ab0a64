// /api/stats: optional authentication. The full statistics come with time tracking.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../context.js';
import { optionalSession } from '../plugins/authentication.js';

export const statsRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  app.addHook('onRequest', optionalSession(ctx.services.sessions));

  app.get('/week', {
    schema: { tags: ['stats'], response: { 200: Type.Object({ authenticated: Type.Boolean() }) } },
  }, async (request) => ({ authenticated: request.session !== null }));
};
