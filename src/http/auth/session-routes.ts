// /api/auth/sessions (docs/api.md, "Your sessions"): the signed-in user's own sessions. Registered
// inside the /api/auth plugin.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Services } from '../../composition-root.js';
import { securityEvent } from '../../auth/audit.js';
import { requireAccountSession, sessionOf, type Authenticator } from '../authentication.js';
import { BEARER } from '../openapi.js';
import { errorResponses } from '../schemas.js';
import { IdParams } from '../time-entries/schemas.js';
import { RevokedResponse, SessionListResponse } from './schemas.js';

export interface SessionRouteOptions {
  credentials: Authenticator;
  audit: Services['audit'];
  ownSessions: Services['ownSessions'];
}

export const sessionRoutes: FastifyPluginAsyncTypebox<SessionRouteOptions> = async (app, { audit, credentials, ownSessions }) => {
  const schema = { tags: ['sessions'], security: BEARER };
  app.addHook('onRequest', requireAccountSession(credentials));

  app.get(
    '/sessions',
    {
      schema: { ...schema, response: { 200: SessionListResponse, ...errorResponses(401, 403) } },
    },
    async (request) => ({ sessions: await ownSessions.listSessions(sessionOf(request)) }),
  );

  app.delete(
    '/sessions/:id',
    {
      schema: { ...schema, params: IdParams, response: { 204: Type.Null(), ...errorResponses(400, 401, 403, 404) } },
    },
    async (request, reply) => {
      const session = sessionOf(request);
      const { current } = await ownSessions.revokeSession(session, request.params.id);
      securityEvent(request.log, 'sessions_revoked', { user_id: session.user.id, client: request.ip, session_id: request.params.id });
      await audit.record({
        action: 'sessions_revoked',
        actor: `user:${session.user.id}`,
        user: session.user,
        detail: { by: 'owner', session_id: request.params.id, current, client: request.ip },
      });
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/sessions/revoke-others',
    {
      schema: { ...schema, response: { 200: RevokedResponse, ...errorResponses(401, 403) } },
    },
    async (request) => {
      const session = sessionOf(request);
      const revoked = await ownSessions.revokeOtherSessions(session);
      // Nothing revoked, nothing happened: no audit row, so repeating it cannot grow the trail.
      if (revoked === 0) return { revoked };
      securityEvent(request.log, 'sessions_revoked', { user_id: session.user.id, client: request.ip, revoked });
      await audit.record({
        action: 'sessions_revoked',
        actor: `user:${session.user.id}`,
        user: session.user,
        detail: { by: 'owner', others: revoked, client: request.ip },
      });
      return { revoked };
    },
  );
};
