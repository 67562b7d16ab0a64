// /api/teams (docs/api.md, "Teams"; docs/teams.md): teams and their members. Reading takes a session
// or an API token; every change is administration (a session only: 403 FORBIDDEN_FOR_API_TOKEN).
// `can` (src/teams/access.ts) decides the rest through the team service: outside the actor's reach 404.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { AuditService } from '../../auth/audit.js';
import type { CalendarService, OverviewService, TeamService } from '../../teams/index.js';
import { requireAccountSession, requireSession, sessionOf, type Authenticator } from '../authentication.js';
import { sendNotFound } from '../error-handler.js';
import { BEARER } from '../openapi.js';
import type { ApiInstance } from '../api-hooks.js';
import type { onRequestHookHandler } from 'fastify';
import { errorResponses } from '../schemas.js';
import { actorOf } from '../actor.js';
import {
  CalendarQuery,
  CalendarResponse,
  MemberBody,
  MemberParams,
  OverviewQuery,
  OverviewResponse,
  TeamDetailResponse,
  TeamListQuery,
  TeamListResponse,
  TeamNameBody,
  TeamParams,
  TeamPatchBody,
  TeamResponse,
} from './schemas.js';

export interface TeamRouteOptions {
  credentials: Authenticator;
  teams: TeamService;
  audit: Pick<AuditService, 'record'>;
  overview: Pick<OverviewService, 'teamOverview'>;
  calendar: Pick<CalendarService, 'teamCalendar'>;
}

export const teamRoutes: FastifyPluginAsyncTypebox<TeamRouteOptions> = async (app, { credentials, teams, audit, overview, calendar }) => {
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
        description: 'The teams within reach: every team for an admin, your own otherwise; with members=true each with its members.',
        querystring: TeamListQuery,
        response: { 200: TeamListResponse, ...errorResponses(400, 401) },
      },
    },
    async (request) => {
      const actor = actorOf(sessionOf(request));
      return { teams: request.query.members === true ? await teams.listWithMembers(actor) : await teams.list(actor) };
    },
  );

  app.post(
    '/',
    { ...administration, schema: { ...schema, body: TeamNameBody, response: { 201: TeamResponse, ...errorResponses(400, 401, 403, 409) } } },
    async (request, reply) => {
      const session = sessionOf(request);
      const team = await teams.create(actorOf(session), request.body.name);
      await audit.record({ action: 'team_created', actor: `user:${session.user.id}`, detail: { team: team.id, name: team.name } });
      return reply.code(201).send({ team });
    },
  );

  app.get(
    '/:id',
    { ...reading, schema: { ...schema, params: TeamParams, response: { 200: TeamDetailResponse, ...errorResponses(400, 401, 404) } } },
    async (request) => teams.show(actorOf(sessionOf(request)), request.params.id),
  );

  overviewRoute(app, reading, overview);
  calendarRoute(app, reading, calendar);

  app.patch(
    '/:id',
    {
      ...administration,
      schema: { ...schema, params: TeamParams, body: TeamPatchBody, response: { 200: TeamResponse, ...errorResponses(400, 401, 403, 404, 409) } },
    },
    async (request) => {
      const session = sessionOf(request);
      const actor = `user:${session.user.id}`;
      const { name, absence_approval, auto_lock_after_days: days } = request.body;
      let team = name === undefined ? undefined : await teams.rename(actorOf(session), request.params.id, name);
      if (team) await audit.record({ action: 'team_renamed', actor, detail: { team: team.id, to: team.name } });
      if (absence_approval !== undefined) {
        team = await teams.setAbsenceApproval(actorOf(session), request.params.id, absence_approval);
        await audit.record({ action: 'team_approval_changed', actor, detail: { team: team.id, absence_approval } });
      }
      if (days !== undefined) {
        team = await teams.setAutoLock(actorOf(session), request.params.id, days);
        await audit.record({ action: 'team_auto_lock_set', actor, detail: { team: team.id, auto_lock_after_days: days } });
      }
      return { team: team! };
    },
  );

  app.delete(
    '/:id',
    { ...administration, schema: { ...schema, params: TeamParams, response: { 204: Type.Null(), ...errorResponses(400, 401, 403, 404) } } },
    async (request, reply) => {
      const session = sessionOf(request);
      await teams.remove(actorOf(session), request.params.id);
      await audit.record({ action: 'team_deleted', actor: `user:${session.user.id}`, detail: { team: request.params.id } });
      return reply.code(204).send(null);
    },
  );

  memberRoutes(app, { credentials, teams, audit });
};

/** Adding an account to a team, changing its role there, taking it out. */
function memberRoutes(app: ApiInstance, { credentials, teams, audit }: Omit<TeamRouteOptions, 'overview' | 'calendar'>): void {
  const administration = { onRequest: requireAccountSession(credentials) };
  const schema = { tags: ['teams'], security: BEARER };
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
      const session = sessionOf(request);
      const { id, userId } = request.params;
      await teams.putMember(actorOf(session), id, userId, request.body.role);
      await audit.record({ action: 'team_member_added', actor: `user:${session.user.id}`, userId, detail: { team: id, role: request.body.role } });
      return teams.show(actorOf(session), id);
    },
  );

  app.delete(
    '/:id/members/:userId',
    { ...administration, schema: { ...schema, params: MemberParams, response: { 204: Type.Null(), ...errorResponses(400, 401, 403, 404) } } },
    async (request, reply) => {
      const session = sessionOf(request);
      const { id, userId } = request.params;
      await teams.removeMember(actorOf(session), id, userId);
      await audit.record({ action: 'team_member_removed', actor: `user:${session.user.id}`, userId, detail: { team: id } });
      return reply.code(204).send(null);
    },
  );
}

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

/** GET /api/teams/:id/calendar: the team's month, for its members, its leads and admins (docs/teams.md, "Team calendar"). */
function calendarRoute(app: ApiInstance, reading: { onRequest: onRequestHookHandler }, calendar: TeamRouteOptions['calendar']): void {
  app.get(
    '/:id/calendar',
    {
      ...reading,
      schema: {
        tags: ['teams'],
        security: BEARER,
        description:
          "The team's month: every member's days with their target, public holiday and absence, from each member's own month. A lead of the team and admins see each absence's type; a member sees another member's absence as `away`.",
        params: TeamParams,
        querystring: CalendarQuery,
        response: { 200: CalendarResponse, ...errorResponses(400, 401, 404, 429, 503) },
      },
    },
    async (request) => calendar.teamCalendar(actorOf(sessionOf(request)), request.params.id, request.query.month, request.query.lang),
  );
}
