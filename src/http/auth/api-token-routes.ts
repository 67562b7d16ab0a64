// /api/auth/api-tokens (docs/api.md, "API tokens"): named tokens for scripts, managed with a session
// (never with an API token). Registered inside the /api/auth plugin.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Services } from '../../composition-root.js';
import { API_TOKEN_MAX_DAYS, API_TOKEN_NAME_MAX_LENGTH } from '../../auth/sessions/api-tokens.js';
import { requireAccountSession, sessionOf, type Authenticator } from '../authentication.js';
import { BEARER } from '../openapi.js';
import { errorResponses } from '../schemas.js';
import { IdParams } from '../time-entries/schemas.js';
import { ApiTokenListResponse, NewApiTokenResponse } from './schemas.js';

const NewApiTokenBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: API_TOKEN_NAME_MAX_LENGTH + 64 }),
    expires_in_days: Type.Integer({ minimum: 1, maximum: API_TOKEN_MAX_DAYS }),
  },
  { additionalProperties: false },
);

export interface ApiTokenRouteOptions {
  credentials: Authenticator;
  apiTokens: Services['apiTokens'];
  audit: Services['audit'];
}

export const apiTokenRoutes: FastifyPluginAsyncTypebox<ApiTokenRouteOptions> = async (app, { apiTokens, audit, credentials }) => {
  const schema = { tags: ['api-tokens'], security: BEARER };
  app.addHook('onRequest', requireAccountSession(credentials));

  app.post(
    '/api-tokens',
    {
      schema: { ...schema, body: NewApiTokenBody, response: { 201: NewApiTokenResponse, ...errorResponses(400, 401, 403, 409) } },
    },
    async (request, reply) => {
      const { user } = sessionOf(request);
      const { token, record } = await apiTokens.createToken(user.id, request.body.name, request.body.expires_in_days);
      await audit.record({
        action: 'api_token_created',
        actor: `user:${user.id}`,
        user,
        detail: { api_token_id: record.id, name: record.name, expires_at: record.expires_at, client: request.ip },
      });
      return reply.code(201).send({ token, ...record });
    },
  );

  app.get(
    '/api-tokens',
    {
      schema: { ...schema, response: { 200: ApiTokenListResponse, ...errorResponses(401, 403) } },
    },
    async (request) => ({ api_tokens: await apiTokens.listTokens(sessionOf(request).user.id) }),
  );

  app.delete(
    '/api-tokens/:id',
    {
      schema: { ...schema, params: IdParams, response: { 204: Type.Null(), ...errorResponses(400, 401, 403, 404) } },
    },
    async (request, reply) => {
      const { user } = sessionOf(request);
      const revoked = await apiTokens.revokeToken(user.id, request.params.id);
      await audit.record({
        action: 'api_token_revoked',
        actor: `user:${user.id}`,
        user,
        detail: { api_token_id: revoked.id, name: revoked.name, client: request.ip },
      });
      return reply.code(204).send(null);
    },
  );
};
