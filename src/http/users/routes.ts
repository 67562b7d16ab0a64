// /api/users (docs/api.md, "Users"; docs/teams.md): the accounts an admin administers. Administration:
// a session only, an API token is refused (403 FORBIDDEN_FOR_API_TOKEN); `can` (src/teams/access.ts)
// decides the rest through the people service.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AuditService } from '../../auth/audit.js';
import type { AccountActionService } from '../../teams/account-actions.js';
import type { PeopleService } from '../../teams/people.js';
import { actorOf } from '../actor.js';
import { requireAccountSession, sessionOf, type Authenticator } from '../authentication.js';
import { sendNotFound } from '../error-handler.js';
import { BEARER } from '../openapi.js';
import { errorResponses } from '../schemas.js';
import { UserListQuery, UserListResponse, UserParams, UserPatchBody, UserResponse } from './schemas.js';

export interface UserRouteOptions {
  credentials: Authenticator;
  people: PeopleService;
  audit: Pick<AuditService, 'record'>;
  /** The state of each listed account (status, two-factor, last sign-in): src/teams/account-actions.ts. */
  accountActions: Pick<AccountActionService, 'withState'>;
}

export const userRoutes: FastifyPluginAsyncTypebox<UserRouteOptions> = async (app, { credentials, people, audit, accountActions }) => {
  app.setNotFoundHandler(sendNotFound);
  const administration = { onRequest: requireAccountSession(credentials) };
  app.get(
    '/',
    {
      ...administration,
      schema: {
        tags: ['users'],
        security: BEARER,
        description: 'Every account, by id, a page at a time (admins only).',
        querystring: UserListQuery,
        response: { 200: UserListResponse, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => {
      const { q, limit = 50, cursor } = request.query;
      const actor = actorOf(sessionOf(request));
      const page = await people.list(actor, { q, limit, after: cursor === undefined ? undefined : Number(cursor) });
      const users = await accountActions.withState(actor, page.users);
      return { users, next_cursor: page.nextAfter === null ? null : String(page.nextAfter) };
    },
  );

  app.get(
    '/:id',
    {
      ...administration,
      schema: { tags: ['users'], security: BEARER, params: UserParams, response: { 200: UserResponse, ...errorResponses(400, 401, 403, 404) } },
    },
    async (request) => ({ user: await people.read(actorOf(sessionOf(request)), request.params.id) }),
  );

  app.patch(
    '/:id',
    {
      ...administration,
      schema: {
        tags: ['users'],
        security: BEARER,
        description: 'Changes the role of an account (admins only). Granting or removing admin needs your own current password.',
        params: UserParams,
        body: UserPatchBody,
        response: { 200: UserResponse, ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request) => {
      const session = sessionOf(request);
      const { user, from } = await people.changeRole(
        { actor: actorOf(session), tokenHash: session.tokenHash },
        request.params.id,
        request.body.role,
        request.body.password,
      );
      if (from !== user.role) {
        await audit.record({
          action: 'role_changed',
          actor: `user:${session.user.id}`,
          user: { id: user.id, email: user.email },
          detail: { from, to: user.role },
        });
      }
      return { user };
    },
  );
};
