// /api/requests (docs/api.md, "Leave requests"; docs/teams.md, "Leave requests"): the list, a lead's
// or an admin's decision (a session only: administration, an API token 403 FORBIDDEN_FOR_API_TOKEN),
// and the person's withdrawal and cancellation. `can` decides through the leave request service.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { NOTE_MAX_LENGTH } from '../../time/entries/rules.js';
import type { LeaveRequestService } from '../../teams/requests/index.js';
import { requireAccountSession, requireSession, sessionOf, type Authenticator } from '../authentication.js';
import { sendNotFound } from '../error-handler.js';
import { BEARER } from '../openapi.js';
import { errorResponses } from '../schemas.js';
import { actorOf } from '../actor.js';
import { RequestListQuery, RequestListResponse, RequestParams, RequestResponse } from './schemas.js';

/** A decision's body: nothing, or the lead's note the person sees. */
const DecisionBody = Type.Union([
  Type.Null(),
  Type.Object(
    { note: Type.Optional(Type.String({ maxLength: NOTE_MAX_LENGTH, description: 'the lead’s note, shown to the person' })) },
    { additionalProperties: false },
  ),
]);

export interface RequestRouteOptions {
  credentials: Authenticator;
  requests: LeaveRequestService;
}

export const requestRoutes: FastifyPluginAsyncTypebox<RequestRouteOptions> = async (app, { credentials, requests }) => {
  app.setNotFoundHandler(sendNotFound);
  const own = { onRequest: requireSession(credentials) };
  const administration = { onRequest: requireAccountSession(credentials) };
  const schema = { tags: ['requests'], security: BEARER };

  app.get(
    '/',
    {
      ...own,
      schema: {
        ...schema,
        description: 'Your own leave requests, or with scope=team those you may decide (a lead: its people’s; an admin: everyone’s).',
        querystring: RequestListQuery,
        response: { 200: RequestListResponse, ...errorResponses(400, 401, 403) },
      },
    },
    async (request) => ({ requests: await requests.list(actorOf(sessionOf(request)), request.query) }),
  );

  for (const step of ['approve', 'reject'] as const) {
    app.post(
      `/:id/${step}`,
      {
        ...administration,
        schema: {
          ...schema,
          description: `${step === 'approve' ? 'Approves' : 'Rejects'} a leave request, or a cancellation asked for (a lead of one of the person's teams, or an admin; never one's own).`,
          params: RequestParams,
          body: DecisionBody,
          response: { 200: RequestResponse, ...errorResponses(400, 401, 403, 404, 409) },
        },
      },
      async (request) => {
        const note = request.body?.note;
        return { request: await requests[step](actorOf(sessionOf(request)), request.params.id, note === undefined ? {} : { note }) };
      },
    );
  }

  for (const step of ['withdraw', 'cancel'] as const) {
    app.post(
      `/:id/${step}`,
      {
        ...own,
        schema: {
          ...schema,
          description:
            step === 'withdraw'
              ? 'Withdraws your own request while it waits: its absences go.'
              : 'Asks to cancel your own approved vacation: its absences stay until a lead approves the cancellation.',
          params: RequestParams,
          response: { 200: RequestResponse, ...errorResponses(400, 401, 403, 404, 409) },
        },
      },
      async (request) => ({ request: await requests[step](actorOf(sessionOf(request)), request.params.id) }),
    );
  }
};
