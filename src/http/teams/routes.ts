// /api/teams (docs/api.md, "Teams"; docs/teams.md): teams and their members. Reading takes a session
// or an API token; every change is administration (a session only: 403 FORBIDDEN_FOR_API_TOKEN).
// `can` (src/teams/access.ts) decides the rest through the team service: outside the actor's reach 404.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { OverviewService, TeamService } from '../../teams/index.js';
import { requireAccountSession, requireSession, sessionOf, type Authenticator } from '../authentication.js';
import { sendNotFound } from '../error-handler.js';
import { BEARER } from '../openapi.js';
import type { ApiInstance } from '../api-hooks.js';
import type { onRequestHookHandler } from 'fastify';
import { errorResponses } from '../schemas.js';
import { actorOf } from '../actor.js';
import {
  MemberBody,
  MemberParams,
  OverviewQuery,
  OverviewResponse,
  TeamDetailResponse,
  TeamListResponse,
  TeamNameBody,
  TeamParams,
  TeamResponse,
} from './schemas.js';

export interface TeamRouteOptions {
  credentials: Authenticator;
  teams: TeamService;
  overview: Pick<OverviewService, 'teamOverview'>;
}

export const teamRoutes: FastifyPluginAsyncTypebox<TeamRouteOptions> = async (app, { credentials, teams, overview }) => {
  app.setNotFoundHandler(sendNotFound);
  const reading = { onRequest: requireSession(credentials) };
  const administration = { onRequest: requireAccountSession(credentials) };
  const schema = { tags: ['teams'], security: BEARER };

  app.get(
    '/',
    {
      ...reading,
      schema: {
        ...schema,
        description: 'The teams within reach: every team for an admin, your own otherwise.',
        response: { 200: TeamListResponse, ...errorResponses(401) },
      },
    },
    async (request) => ({ teams: await teams.list(actorOf(sessionOf(request))) }),
  );

  app.post(
    '/',
    { ...administration, schema: { ...schema, body: TeamNameBody, response: { 201: TeamResponse, ...errorResponses(400, 401, 403, 409) } } },
    async (request, reply) => reply.code(201).send({ team: await teams.create(actorOf(sessionOf(request)), request.body.name) }),
  );

  app.get(
    '/:id',
    { ...reading, schema: { ...schema, params: TeamParams, response: { 200: TeamDetailResponse, ...errorResponses(400, 401, 404) } } },
    async (request) => teams.show(actorOf(sessionOf(request)), request.params.id),
  );

  overviewRoute(app, reading, overview);

  app.patch(
    '/:id',
    {
      ...administration,
      schema: { ...schema, params: TeamParams, body: TeamNameBody, response: { 200: TeamResponse, ...errorResponses(400, 401, 403, 404, 409) } },
    },
    async (request) => ({ team: await teams.rename(actorOf(sessionOf(request)), request.params.id, request.body.name) }),
  );

  app.delete(
    '/:id',
    { ...administration, schema: { ...schema, params: TeamParams, response: { 204: Type.Null(), ...errorResponses(400, 401, 403, 404) } } },
    async (request, reply) => {
      await teams.remove(actorOf(sessionOf(request)), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.put(
    '/:id/members/:userId',
    {
      ...administration,
      schema: {
        ...schema,
        description: 'Adds the account to the team or changes its role there. A lead of the team may add members, never leads.',
        params: MemberParams,
        body: MemberBody,
        response: { 200: TeamDetailResponse, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const actor = actorOf(sessionOf(request));
      await teams.putMember(actor, request.params.id, request.params.userId, request.body.role);
      return teams.show(actor, request.params.id);
    },
  );

  app.delete(
    '/:id/members/:userId',
    { ...administration, schema: { ...schema, params: MemberParams, response: { 204: Type.Null(), ...errorResponses(400, 401, 403, 404) } } },
    async (request, reply) => {
      await teams.removeMember(actorOf(sessionOf(request)), request.params.id, request.params.userId);
      return reply.code(204).send(null);
    },
  );
};

/** GET /api/teams/:id/overview: the team's week, for a lead of the team and admins (docs/teams.md, "The lead's view"). */
function overviewRoute(app: ApiInstance, reading: { onRequest: onRequestHookHandler }, overview: TeamRouteOptions['overview']): void {
  app.get(
    '/:id/overview',
    {
      ...reading,
      schema: {
        tags: ['teams'],
        security: BEARER,
        description: "The team's week: every member's figures, as each member gets them (a lead of the team and admins; members 403).",
        params: TeamParams,
        querystring: OverviewQuery,
        response: { 200: OverviewResponse, ...errorResponses(400, 401, 403, 404, 429, 503) },
      },
    },
    async (request) => overview.teamOverview(actorOf(sessionOf(request)), request.params.id, request.query.week),
  );
}
