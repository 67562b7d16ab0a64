// GET /api/audit (docs/api.md, "Audit trail"): the trail of `timetrack audit list`, newest first, a page
// at a time. Admins only, a session only (an API token: 403 FORBIDDEN_FOR_API_TOKEN).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DateTime } from 'luxon';
import type { AccountActionService } from '../../teams/account-actions.js';
import { requireAccountSession, sessionOf, type Authenticator } from '../authentication.js';
import { sendNotFound } from '../error-handler.js';
import { BEARER } from '../openapi.js';
import { errorResponses } from '../schemas.js';
import { actorOf } from '../actor.js';
import { AuditQuery, AuditResponse } from './schemas.js';

export interface AuditRouteOptions {
  credentials: Authenticator;
  accountActions: AccountActionService;
}

/** The start of a UTC day, or of the next one. */
function dayStart(date: string, next = false): string {
  const day = DateTime.fromISO(date, { zone: 'utc' }).startOf('day');
  return (next ? day.plus({ days: 1 }) : day).toISO()!;
}

function parseCursor(cursor: string | undefined): { at: string; id: number } | undefined {
  if (cursor === undefined) return undefined;
  const split = cursor.lastIndexOf('_');
  return { at: cursor.slice(0, split), id: Number(cursor.slice(split + 1)) };
}

export const auditRoutes: FastifyPluginAsyncTypebox<AuditRouteOptions> = async (app, { credentials, accountActions }) => {
  app.setNotFoundHandler(sendNotFound);
  app.get(
    '/',
    {
      onRequest: requireAccountSession(credentials),
      schema: {
        tags: ['audit'],
        security: BEARER,
        description: 'The audit trail, newest first, a page at a time: what `timetrack audit list` shows (admins only).',
        querystring: AuditQuery,
        response: { 200: AuditResponse, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => {
      const { user, actor, action, from, to, limit = 50, cursor } = request.query;
      const events = await accountActions.trail(actorOf(sessionOf(request)), {
        user,
        actor,
        action,
        since: from === undefined ? undefined : dayStart(from),
        until: to === undefined ? undefined : dayStart(to, true),
        before: parseCursor(cursor),
        limit: limit + 1,
      });
      const page = events.slice(0, limit);
      const last = page[page.length - 1];
      return { events: page, next_cursor: events.length > limit && last ? `${last.at}_${last.id}` : null };
    },
  );
};
