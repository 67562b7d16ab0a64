// /api/auth/api-tokens (docs/api.md, "API tokens"): named tokens for scripts, managed with a session
// (never with an API token). Registered inside the /api/auth plugin. Creating one takes the password
// (and a code with two-factor sign-in) and shares the per-address budget of sign-in; creations and
// revocations count against the account's budgets (src/auth/sessions/budgets.ts).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { preHandlerAsyncHookHandler } from 'fastify';
import { Type } from 'typebox';
import type { Services } from '../../composition-root.js';
import { API_TOKEN_MAX_DAYS, API_TOKEN_NAME_MAX_LENGTH } from '../../auth/sessions/api-tokens.js';
import { API_TOKEN_CREATIONS_PER_HOUR } from '../../auth/sessions/budgets.js';
import { PASSWORD_MAX_LENGTH } from '../../auth/passwords/policy.js';
import { accountBudget } from '../account-limits.js';
import { requireAccountSession, sessionOf, type Authenticator } from '../authentication.js';
import { BEARER } from '../openapi.js';
import { errorResponses } from '../schemas.js';
import { IdParams } from '../time-entries/schemas.js';
import { ApiTokenListResponse, NewApiTokenResponse } from './schemas.js';

const NewApiTokenBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: API_TOKEN_NAME_MAX_LENGTH + 64 }),
    expires_in_days: Type.Integer({ minimum: 1, maximum: API_TOKEN_MAX_DAYS }),
    password: Type.String({ maxLength: PASSWORD_MAX_LENGTH * 4, description: "the account's current password" }),
    code: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'with two-factor sign-in on: a 6-digit code of the app, or a recovery code' })),
  },
  { additionalProperties: false },
);

export interface ApiTokenRouteOptions {
  credentials: Authenticator;
  apiTokens: Services['apiTokens'];
  audit: Services['audit'];
  /** The account's revocation budget, shared with revoking sessions. */
  revocationBudget: preHandlerAsyncHookHandler;
  /** Route config that applies the per-address rate limit (empty when RATE_LIMIT_AUTH=0). */
  rateLimited: Record<string, unknown>;
}

export const apiTokenRoutes: FastifyPluginAsyncTypebox<ApiTokenRouteOptions> = async (
  app,
  { apiTokens, audit, credentials, revocationBudget, rateLimited },
) => {
  const schema = { tags: ['api-tokens'], security: BEARER };
  app.addHook('onRequest', requireAccountSession(credentials));
  const creationBudget = accountBudget({ name: 'API token creations', max: API_TOKEN_CREATIONS_PER_HOUR, windowMs: 3_600_000 });

  app.post(
    '/api-tokens',
    {
      config: rateLimited,
      preHandler: creationBudget,
      schema: { ...schema, body: NewApiTokenBody, response: { 201: NewApiTokenResponse, ...errorResponses(400, 401, 403, 409, 423, 429, 503) } },
    },
    async (request, reply) => {
      const session = sessionOf(request);
      const { user } = session;
      const { name, expires_in_days: expiresInDays, password, code } = request.body;
      const { token, record } = await apiTokens.createTokenAsOwner(session, { name, expiresInDays, password, code, client: request.ip });
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
      preHandler: revocationBudget,
      schema: { ...schema, params: IdParams, response: { 204: Type.Null(), ...errorResponses(400, 401, 403, 404, 429) } },
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
