// DELETE /api/auth/account (docs/api.md, "Closing your account"): the signed-in owner closes the
// account. Registered inside the /api/auth plugin.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Services } from '../../composition-root.js';
import { securityEvent } from '../../auth/audit.js';
import { PASSWORD_MAX_LENGTH } from '../../auth/passwords/policy.js';
import { requireAccountSession, sessionOf, type Authenticator } from '../authentication.js';
import { BEARER } from '../openapi.js';
import { errorResponses } from '../schemas.js';

export interface AccountRouteOptions {
  credentials: Authenticator;
  accountClosing: Services['accountClosing'];
  /** Route config that applies the per-address rate limit (empty when RATE_LIMIT_AUTH=0). */
  rateLimited: Record<string, unknown>;
}

export const accountRoutes: FastifyPluginAsyncTypebox<AccountRouteOptions> = async (app, { credentials, accountClosing, rateLimited }) => {
  app.delete(
    '/account',
    {
      onRequest: requireAccountSession(credentials),
      config: rateLimited,
      schema: {
        tags: ['auth'],
        security: BEARER,
        description: 'Deletes the account and all its data in one transaction. Offer the export (GET /api/settings/export) first.',
        body: Type.Object(
          {
            password: Type.String({ maxLength: PASSWORD_MAX_LENGTH * 4 }),
            code: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'required when two-factor sign-in is on: a code or a recovery code' })),
          },
          { additionalProperties: false },
        ),
        response: { 204: Type.Null(), ...errorResponses(400, 401, 403, 409, 423, 429, 503) },
      },
    },
    async (request, reply) => {
      const session = sessionOf(request);
      await accountClosing.closeAccount(session, request.body.password, request.body.code);
      securityEvent(request.log, 'account_closed', { user_id: session.user.id });
      return reply.code(204).send(null);
    },
  );
};
