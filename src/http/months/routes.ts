// Closed months (docs/api.md, "Months"; docs/teams.md, "Closed months"): the own months and their
// submission, a lead's or an admin's decision, an admin's reopening, the seal's verification, a
// team's month, and a correction booked for a person. `can` (src/teams/access.ts) decides through
// the month service; deciding, reopening and booking for another are administration (a session only).
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AuditService } from '../../auth/audit.js';
import type { MonthService } from '../../teams/index.js';
import { requireAccountSession, requireSession, sessionOf, type Authenticator } from '../authentication.js';
import { BEARER } from '../openapi.js';
import type { ApiInstance } from '../api-hooks.js';
import { errorResponses } from '../schemas.js';
import { actorOf } from '../actor.js';
import { BookingSchema } from '../time-entries/schemas.js';
import { Type, type TSchema } from 'typebox';
import {
  ApproveBody,
  CorrectionBody,
  MonthAnswer,
  OwnMonthParams,
  PersonMonthParams,
  PersonParams,
  ReopenBody,
  ReturnBody,
  TeamMonthQuery,
  TeamMonthResponse,
  TeamParams,
  VerifyResponse,
  WaitingResponse,
  YearQuery,
  YearResponse,
} from './schemas.js';

export interface MonthRouteOptions {
  credentials: Authenticator;
  months: MonthService;
  audit: Pick<AuditService, 'record'>;
}

const tags = ['months'];

/** Registered under /api: /months, /months/waiting, /users/:id/months, /users/:id/bookings, /teams/:id/months. */
export const monthRoutes: FastifyPluginAsyncTypebox<MonthRouteOptions> = async (app, options) => {
  const { credentials, months, audit } = options;
  const reading = { onRequest: requireSession(credentials) };
  app.get(
    '/months',
    {
      ...reading,
      schema: {
        tags,
        security: BEARER,
        description: 'Your months of a year, each with its state.',
        querystring: YearQuery,
        response: { 200: YearResponse, ...errorResponses(400, 401) },
      },
    },
    async (request) => ({ year: request.query.year, months: await months.ownYear(actorOf(sessionOf(request)), request.query.year) }),
  );
  app.post(
    '/months/:month/submit',
    {
      ...reading,
      schema: {
        tags,
        security: BEARER,
        description: 'Submits your month for approval, once its last day is over in your zone (from open or returned).',
        params: OwnMonthParams,
        response: { 200: MonthAnswer, ...errorResponses(400, 401, 409) },
      },
    },
    async (request) => {
      const session = sessionOf(request);
      const month = await months.submit(actorOf(session), session.user.id, request.params.month);
      await audit.record({ action: 'month_submitted', actor: `user:${session.user.id}`, userId: session.user.id, detail: { month: month.month } });
      return { month };
    },
  );
  app.get(
    '/users/:id/months/:month/verify',
    {
      ...reading,
      schema: {
        tags,
        security: BEARER,
        description: "Works the approved month's figures out again and compares them with its seal (the person, its lead, an admin).",
        params: PersonMonthParams,
        response: { 200: VerifyResponse, ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request) => months.verify(actorOf(sessionOf(request)), request.params.id, request.params.month),
  );
  app.get(
    '/teams/:id/months',
    {
      ...reading,
      schema: {
        tags,
        security: BEARER,
        description: "Each member's state of the month (a lead of the team and admins; members 403).",
        params: TeamParams,
        querystring: TeamMonthQuery,
        response: { 200: TeamMonthResponse, ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => months.teamMonths(actorOf(sessionOf(request)), request.params.id, request.query.month),
  );
  waitingRoutes(app, options);
  decisionRoutes(app, options);
};

/** What waits for a decision, and one person's month (the client's Approvals): a session or a token. */
function waitingRoutes(app: ApiInstance, { credentials, months }: MonthRouteOptions): void {
  const reading = { onRequest: requireSession(credentials) };
  app.get(
    '/months/waiting',
    {
      ...reading,
      schema: {
        tags,
        security: BEARER,
        description:
          'The submitted months waiting for a decision: of the people in the teams you lead (never your own), or, for an admin, of everyone (members 403).',
        response: { 200: WaitingResponse, ...errorResponses(401, 403) },
      },
    },
    async (request) => ({ months: await months.waiting(actorOf(sessionOf(request))) }),
  );
  app.get(
    '/users/:id/months/:month',
    {
      ...reading,
      schema: {
        tags,
        security: BEARER,
        description: "A person's month and its state (the person, a lead of one of the person's teams, an admin).",
        params: PersonMonthParams,
        response: { 200: MonthAnswer, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => ({ month: await months.personMonth(actorOf(sessionOf(request)), request.params.id, request.params.month) }),
  );
}

/** Approving, returning, reopening, and a correction booked for a person: a session only. */
function decisionRoutes(app: ApiInstance, { credentials, months, audit }: MonthRouteOptions): void {
  const administration = { onRequest: requireAccountSession(credentials) };
  const schema = <Body extends TSchema>(description: string, body: Body) => ({
    ...administration,
    schema: {
      tags,
      security: BEARER,
      description,
      params: PersonMonthParams,
      body,
      response: { 200: MonthAnswer, ...errorResponses(400, 401, 403, 404, 409) },
    },
  });
  app.post(
    '/users/:id/months/:month/approve',
    schema('Approves a submitted month and seals its figures (a lead of one of the person’s teams, an admin; never your own).', ApproveBody),
    async (request) => {
      const session = sessionOf(request);
      const { id, month: named } = request.params;
      const month = await months.approve(actorOf(session), id, named, request.body.comment);
      await audit.record({ action: 'month_approved', actor: `user:${session.user.id}`, userId: id, detail: { month: month.month, digest: month.digest } });
      return { month };
    },
  );
  app.post(
    '/users/:id/months/:month/return',
    schema('Returns a submitted month to the person with a comment (a lead of one of the person’s teams, an admin; never your own).', ReturnBody),
    async (request) => {
      const session = sessionOf(request);
      const { id, month: named } = request.params;
      const month = await months.return(actorOf(session), id, named, request.body.comment);
      await audit.record({ action: 'month_returned', actor: `user:${session.user.id}`, userId: id, detail: { month: month.month, comment: month.comment } });
      return { month };
    },
  );
  app.post(
    '/users/:id/months/:month/reopen',
    schema('Opens an approved or locked month again, with a reason (admins only; audited with the digest it had).', ReopenBody),
    async (request) => {
      const session = sessionOf(request);
      const { id, month: named } = request.params;
      const { month, previous_digest } = await months.reopen(actorOf(session), id, named, request.body.reason);
      const detail = { month: month.month, reason: month.comment, digest: previous_digest };
      await audit.record({ action: 'month_reopened', actor: `user:${session.user.id}`, userId: id, detail });
      return { month };
    },
  );
  app.post(
    '/users/:id/bookings',
    {
      ...administration,
      schema: {
        tags,
        security: BEARER,
        description: "Books a correction on the person's balance, dated in an open month (a lead of one of the person's teams, an admin).",
        params: PersonParams,
        body: CorrectionBody,
        response: { 201: Type.Object({ booking: BookingSchema }), ...errorResponses(400, 401, 403, 404, 409) },
      },
    },
    async (request, reply) => {
      const session = sessionOf(request);
      const { id } = request.params;
      const booking = await months.bookCorrection(actorOf(session), id, request.body);
      const detail = { booking_id: booking.id, date: booking.date, minutes: booking.minutes, kind: booking.kind };
      await audit.record({ action: 'balance_booked', actor: `user:${session.user.id}`, userId: id, detail });
      return reply.code(201).send({ booking });
    },
  );
}
