// /api/stats (docs/time-model.md): optional authentication. With a valid token the user's figures;
// without one (none, garbage, expired, revoked) the answers of the contract, never 401.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../composition-root.js';
import { accountBudget } from '../account-limits.js';
import { optionalSession } from '../authentication.js';
import { errorResponses } from '../schemas.js';
import { Anonymous, OvertimeResponse, TodayResponse, WeekResponse } from './schemas.js';

export const statsRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext }> = async (app, { ctx }) => {
  const { statistics } = ctx.services;
  app.addHook('onRequest', optionalSession(ctx.services.credentials));
  // A signed-in account's statistics read its data from tracking_start on: RATE_LIMIT_STATS a minute.
  app.addHook('preHandler', accountBudget({ name: 'statistics requests', max: ctx.config.rateLimitStats, windowMs: 60_000 }, () => ctx.clock.now().getTime()));
  // The answer depends on the Authorization header: no cache may keep or share it.
  app.addHook('onSend', async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    reply.header('vary', 'Authorization');
  });
  const security: Array<Record<string, string[]>> = [{ bearerAuth: [] }, {}];

  app.get('/week', {
    schema: {
      tags: ['stats'],
      security,
      querystring: Type.Object(
        {
          date: Type.Optional(Type.String({ maxLength: 10, description: 'YYYY-MM-DD, a day of the week (default: this week)' })),
          region: Type.Optional(Type.String({ maxLength: 16, description: 'without a token: public holidays of this region, e.g. DE-BY' })),
        },
        { additionalProperties: false },
      ),
      response: { 200: WeekResponse, ...errorResponses(400, 429) },
    },
  }, async (request) => {
    const { date, region } = request.query;
    return request.session ? statistics.weekOverview(request.session.user.id, date) : statistics.anonymousWeekOverview(date, region);
  });

  app.get('/overtime', {
    schema: { tags: ['stats'], security, response: { 200: Type.Union([OvertimeResponse, Anonymous]), ...errorResponses(429) } },
  }, async (request) => (request.session ? statistics.overtime(request.session.user.id) : { authenticated: false as const }));

  app.get('/today', {
    schema: { tags: ['stats'], security, response: { 200: Type.Union([TodayResponse, Anonymous]), ...errorResponses(429) } },
  }, async (request) => (request.session ? statistics.today(request.session.user.id) : { authenticated: false as const }));
};
