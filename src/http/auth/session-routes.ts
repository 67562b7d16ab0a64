// /api/auth/sessions (docs/api.md, "Your sessions"): the signed-in user's own sessions. Registered
// inside the /api/auth plugin. Revoking counts against the account's revocation budget (shared with
// revoking API tokens: docs/security.md).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { preHandlerAsyncHookHandler } from 'fastify';
import { Type } from 'typebox';
import type { Services } from '../../composition-root.js';
import { securityEvent } from '../../auth/audit.js';
import { requireAccountSession, sessionOf, type Authenticator } from '../authentication.js';
import { BEARER } from '../openapi.js';
import { errorResponses } from '../schemas.js';
import { IdParams } from '../time-entries/schemas.js';
import { RevokeApiTokensOption, RevokedResponse, SessionListResponse } from './schemas.js';

// No body (or null) is the same as {}: a script that sends none keeps the default (the tokens end too).
const RevokeOthersBody = Type.Union([Type.Null(), Type.Object({ revoke_api_tokens: RevokeApiTokensOption }, { additionalProperties: false })]);

export interface SessionRouteOptions {
  credentials: Authenticator;
  audit: Services['audit'];
  ownSessions: Services['ownSessions'];
  /** The account's revocation budget (429 RATE_LIMITED past it), shared with revoking API tokens. */
  revocationBudget: preHandlerAsyncHookHandler;
}

export const sessionRoutes: FastifyPluginAsyncTypebox<SessionRouteOptions> = async (app, { audit, credentials, ownSessions, revocationBudget }) => {
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
      preHandler: revocationBudget,
      schema: { ...schema, params: IdParams, response: { 204: Type.Null(), ...errorResponses(400, 401, 403, 404, 429) } },
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
      preHandler: revocationBudget,
      schema: { ...schema, body: RevokeOthersBody, response: { 200: RevokedResponse, ...errorResponses(400, 401, 403, 429) } },
    },
    async (request) => {
      const session = sessionOf(request);
      const revokeApiTokens = request.body?.revoke_api_tokens ?? true;
      const revoked = await ownSessions.revokeOtherSessions(session, { revokeApiTokens });
      const answer = { revoked: revoked.sessions, revoked_api_tokens: revoked.apiTokens };
      // Nothing revoked, nothing happened: no audit row, so repeating it cannot grow the trail.
      if (revoked.sessions === 0 && revoked.apiTokens === 0) return answer;
      securityEvent(request.log, 'sessions_revoked', { user_id: session.user.id, client: request.ip, ...answer });
      await audit.record({
        action: 'sessions_revoked',
        actor: `user:${session.user.id}`,
        user: session.user,
        detail: { by: 'owner', others: revoked.sessions, api_tokens: revoked.apiTokens, client: request.ip },
      });
      return answer;
    },
  );
};
