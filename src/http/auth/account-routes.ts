// DELETE /api/auth/account (docs/api.md, "Closing your account"): the signed-in owner closes the
// account. Registered inside the /api/auth plugin, whose hooks (Cache-Control: no-store) apply.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AppContext } from '../../composition-root.js';
import { securityEvent } from '../../auth/audit.js';
import { PASSWORD_MAX_LENGTH } from '../../auth/passwords/policy.js';
import { requireAccountSession, sessionOf } from '../authentication.js';
import { errorResponses } from '../schemas.js';

export const accountRoutes: FastifyPluginAsyncTypebox<{ ctx: AppContext; rateLimited: Record<string, unknown> }> = async (app, { ctx, rateLimited }) => {
  app.delete('/account', {
    onRequest: requireAccountSession(ctx.services.credentials),
    config: rateLimited,
    schema: {
      tags: ['auth'],
      security: [{ bearerAuth: [] }],
      description: 'Deletes the account and all its data in one transaction. Offer the export (GET /api/settings/export) first.',
      body: Type.Object(
        {
          password: Type.String({ maxLength: PASSWORD_MAX_LENGTH * 4 }),
          code: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'required when two-factor sign-in is on: a code or a recovery code' })),
        },
        { additionalProperties: false },
      ),
      response: { 204: Type.Null(), ...errorResponses(400, 401, 403, 423, 429, 503) },
    },
  }, async (request, reply) => {
    const session = sessionOf(request);
    await ctx.services.accountClosing.closeAccount(session, request.body.password, request.body.code);
    securityEvent(request.log, 'account_closed', { user_id: session.user.id });
    return reply.code(204).send(null);
  });
};
