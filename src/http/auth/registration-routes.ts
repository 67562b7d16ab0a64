// Registration (docs/api.md, "Registration"; docs/teams.md, "The first admin"): POST /api/auth/register,
// GET /api/auth/registration (whether sign-up is offered) and GET /api/auth/setup-link (whether a
// first admin's setup link still works). Registered inside the /api/auth plugin.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Services } from '../../composition-root.js';
import { EMAIL_MAX_LENGTH, FULL_NAME_MAX_LENGTH } from '../../auth/accounts/fields.js';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../auth/passwords/policy.js';
import { invalidLink } from '../../auth/accounts/first-admin.js';
import { checkedStartingZone, startInZone } from '../starting-zone.js';
import { errorResponses, UserSchema } from '../schemas.js';

export interface RegistrationRouteOptions {
  accounts: Services['accounts'];
  firstAdmin: Services['firstAdmin'];
  settings: Services['settings'];
  /** Route config that applies the per-address rate limit (empty when RATE_LIMIT_AUTH=0). */
  rateLimited: Record<string, unknown>;
}

const SetupToken = Type.String({ minLength: 1, maxLength: 256, description: 'The token of the setup link `serve` prints while no admin exists' });

export const registrationRoutes: FastifyPluginAsyncTypebox<RegistrationRouteOptions> = async (app, { accounts, firstAdmin, settings, rateLimited }) => {
  app.post(
    '/register',
    {
      config: rateLimited,
      schema: {
        tags: ['auth'],
        description: 'Creates an account (a member). With `setup_token` from the setup link, the first admin, even when registration is closed.',
        body: Type.Object(
          {
            email: Type.String({ minLength: 1, maxLength: EMAIL_MAX_LENGTH + 64 }),
            password: Type.String({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH }),
            full_name: Type.String({ minLength: 1, maxLength: FULL_NAME_MAX_LENGTH + 64 }),
            // Null first: Ajv's type coercion would otherwise turn null into "" for the string branch.
            username: Type.Optional(Type.Union([Type.Null(), Type.String({ maxLength: 64 })])),
            timezone: Type.Optional(Type.String({ maxLength: 64, description: 'IANA zone the account starts in (the browser sends its own); default UTC' })),
            setup_token: Type.Optional(SetupToken),
          },
          { additionalProperties: false },
        ),
        response: { 201: Type.Object({ user: UserSchema }), ...errorResponses(400, 403, 409, 429) },
      },
    },
    async (request, reply) => {
      const { timezone, setup_token: setupToken, ...account } = request.body;
      const zone = checkedStartingZone(timezone);
      const user = setupToken === undefined ? await accounts.registerAccount(account) : await firstAdmin.registerFirstAdmin(account, setupToken);
      await startInZone(settings, user.id, zone);
      return reply.code(201).send({ user });
    },
  );

  app.get(
    '/registration',
    {
      schema: {
        tags: ['auth'],
        description: 'Whether anyone may create an account here (REGISTRATION): the client offers sign-up only when open.',
        response: { 200: Type.Object({ registration: Type.Union([Type.Literal('open'), Type.Literal('closed')]) }) },
      },
    },
    () => ({ registration: accounts.registration() }),
  );

  app.get(
    '/setup-link',
    {
      config: rateLimited,
      schema: {
        tags: ['auth'],
        description: 'Whether a setup link still works (the registration page asks before the form is filled in): 200, or 400 INVALID_SETUP_LINK.',
        querystring: Type.Object({ token: SetupToken }, { additionalProperties: false }),
        response: { 200: Type.Object({ valid: Type.Literal(true) }), ...errorResponses(400, 429) },
      },
    },
    async (request) => {
      if (!(await firstAdmin.linkUsable(request.query.token))) throw invalidLink();
      return { valid: true as const };
    },
  );
};
