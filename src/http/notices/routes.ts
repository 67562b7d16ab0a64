// The bell (docs/api.md, "Notices"; docs/notices.md): an account's own notices, newest first, with the
// unread count, and marking one or all of them read. Own notices only: another account's id is 404.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { NoticeService } from '../../teams/index.js';
import { requireSession, sessionOf, type Authenticator } from '../authentication.js';
import { sendNotFound } from '../error-handler.js';
import { BEARER } from '../openapi.js';
import { errorResponses } from '../schemas.js';

export const NoticeSchema = Type.Object({
  id: Type.Integer(),
  kind: Type.String({ description: 'missing-day, lead-digest, or a kind of the leave requests and months' }),
  data: Type.Record(Type.String(), Type.Unknown(), { description: 'what the notice says; its fields depend on the kind (docs/notices.md)' }),
  created_at: Type.String(),
  read_at: Type.Union([Type.String(), Type.Null()]),
});
export const NoticesResponse = Type.Object({
  notices: Type.Array(NoticeSchema, { description: 'the newest 50, newest first' }),
  unread: Type.Integer({ description: 'how many of all the account notices are unread' }),
});
export const NoticeParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });

export interface NoticeRouteOptions {
  credentials: Authenticator;
  notices: Pick<NoticeService, 'list' | 'markRead' | 'markAllRead'>;
}

export const noticeRoutes: FastifyPluginAsyncTypebox<NoticeRouteOptions> = async (app, { credentials, notices }) => {
  app.setNotFoundHandler(sendNotFound);
  app.addHook('onRequest', requireSession(credentials));
  const schema = { tags: ['notices'], security: BEARER };
  app.get(
    '/',
    {
      schema: {
        ...schema,
        description: 'The account own notices, newest first, and the unread count.',
        response: { 200: NoticesResponse, ...errorResponses(401) },
      },
    },
    async (request) => notices.list(sessionOf(request).user.id),
  );
  app.post(
    '/:id/read',
    {
      schema: { ...schema, description: 'Marks one own notice read.', params: NoticeParams, response: { 204: Type.Null(), ...errorResponses(400, 401, 404) } },
    },
    async (request, reply) => {
      await notices.markRead(sessionOf(request).user.id, request.params.id);
      return reply.code(204).send(null);
    },
  );
  app.post(
    '/read-all',
    { schema: { ...schema, description: 'Marks every own notice read.', response: { 200: Type.Object({ read: Type.Integer() }), ...errorResponses(401) } } },
    async (request) => ({ read: await notices.markAllRead(sessionOf(request).user.id) }),
  );
};
