// /api/stats (docs/time-model.md): optional authentication. With a valid token the user's figures;
// without one (none, garbage, expired, revoked) the answers of the contract, never 401.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { preHandlerAsyncHookHandler } from 'fastify';
import { Type } from 'typebox';
import type { Services } from '../../composition-root.js';
import { accountBudget } from '../account-limits.js';
import { optionalSession, type Authenticator } from '../authentication.js';
import { BEARER, BEARER_OR_ANONYMOUS } from '../openapi.js';
import type { ApiInstance } from '../api-hooks.js';
import { errorResponses } from '../schemas.js';
import { Anonymous, MonthResponse, OvertimeResponse, TodayResponse, VacationResponse, WeekResponse } from './schemas.js';
import { timesheetCsv } from '../../time/timesheet/timesheet.js';
import { startPdfRenderer, type PdfRenderer } from '../../time/timesheet/pdf-renderer.js';
import { unauthorized } from '../../auth/sessions/index.js';

/** `lang`: the language of the public holiday names (and of the PDF), en by default. */
const Lang = (description: string) => Type.Optional(Type.Union([Type.Literal('en'), Type.Literal('de')], { description }));

/** The query of the monthly timesheet, as JSON, CSV and PDF. */
const MonthQuery = Type.Object(
  {
    month: Type.Optional(Type.String({ maxLength: 7, description: 'YYYY-MM (default: this month in the user time zone)' })),
    lang: Lang('language of the public holiday names (JSON, CSV, PDF) and of the PDF (default en)'),
  },
  { additionalProperties: false },
);

/** PDF timesheets per account a minute (at most RATE_LIMIT_STATS; off with it). */
export const PDF_PER_MINUTE = 6;

/** What the /api/stats routes use. */
export interface StatsRouteOptions {
  credentials: Authenticator;
  statistics: Services['statistics'];
  vacation: Services['vacation'];
  timesheet: Services['timesheet'];
  /** RATE_LIMIT_STATS: statistics requests per account a minute (0: no limit). */
  rateLimitStats: number;
  /** Milliseconds since the epoch, of the context's clock. */
  now: () => number;
}

export const statsRoutes: FastifyPluginAsyncTypebox<StatsRouteOptions> = async (app, { credentials, statistics, vacation, timesheet, rateLimitStats, now }) => {
  app.addHook('onRequest', optionalSession(credentials));
  // A signed-in account's statistics read its data from tracking_start on: RATE_LIMIT_STATS a minute.
  app.addHook('preHandler', accountBudget({ name: 'statistics requests', max: rateLimitStats, windowMs: 60_000 }, now));
  // The answers depend on the Authorization header (no-store, Vary: Authorization): api-hooks.ts.
  const security = BEARER_OR_ANONYMOUS;

  app.get(
    '/week',
    {
      schema: {
        tags: ['stats'],
        security,
        querystring: Type.Object(
          {
            date: Type.Optional(Type.String({ maxLength: 10, description: 'YYYY-MM-DD, a day of the week (default: this week)' })),
            region: Type.Optional(Type.String({ maxLength: 16, description: 'without a token: public holidays of this region, e.g. DE-BY' })),
            lang: Lang('language of the public holiday names (default en)'),
          },
          { additionalProperties: false },
        ),
        response: { 200: WeekResponse, ...errorResponses(400, 429) },
      },
    },
    async (request) => {
      const { date, region, lang } = request.query;
      return request.session ? statistics.weekOverview(request.session.user.id, date, lang) : statistics.anonymousWeekOverview(date, region, lang);
    },
  );

  app.get(
    '/overtime',
    {
      schema: { tags: ['stats'], security, response: { 200: Type.Union([OvertimeResponse, Anonymous]), ...errorResponses(429) } },
    },
    async (request) => (request.session ? statistics.overtime(request.session.user.id) : { authenticated: false as const }),
  );

  app.get(
    '/vacation',
    {
      schema: {
        tags: ['stats'],
        security,
        querystring: Type.Object(
          {
            year: Type.Optional(Type.Integer({ minimum: 1970, maximum: 2099, description: 'default: the year of from, else this year in the user time zone' })),
            from: Type.Optional(Type.String({ maxLength: 10, description: 'YYYY-MM-DD: a vacation booking asked about before it is made, from this day' })),
            to: Type.Optional(Type.String({ maxLength: 10, description: 'YYYY-MM-DD: through this day (default: from)' })),
            portion: Type.Optional(Type.Union([Type.Literal('full'), Type.Literal('half')])),
          },
          { additionalProperties: false },
        ),
        response: { 200: Type.Union([VacationResponse, Anonymous]), ...errorResponses(400) },
      },
    },
    async (request) => {
      if (!request.session) return { authenticated: false as const };
      const { year, from, to, portion } = request.query;
      return vacation.vacationYear(request.session.user.id, year, from === undefined ? undefined : { from, to, portion });
    },
  );

  // The monthly timesheet (docs/time-model.md): JSON, and the same figures as CSV and a one-page PDF.
  app.get(
    '/month',
    {
      schema: { tags: ['stats'], security, querystring: MonthQuery, response: { 200: Type.Union([MonthResponse, Anonymous]), ...errorResponses(400) } },
    },
    async (request) =>
      request.session ? timesheet.monthSheet(request.session.user.id, request.query.month, request.query.lang) : { authenticated: false as const },
  );

  // The PDF worker starts with the first sheet (src/time/timesheet/pdf-renderer.ts); PDFs have their own, smaller budget.
  const renderer = startPdfRenderer();
  app.addHook('onClose', renderer.stop);
  const pdfBudget = accountBudget({ name: 'PDF timesheets', max: Math.min(rateLimitStats, PDF_PER_MINUTE), windowMs: 60_000 }, now);
  timesheetFileRoutes(app, timesheet, pdfBudget, renderer);

  app.get(
    '/today',
    {
      schema: { tags: ['stats'], security, response: { 200: Type.Union([TodayResponse, Anonymous]), ...errorResponses(429) } },
    },
    async (request) => (request.session ? statistics.today(request.session.user.id) : { authenticated: false as const }),
  );
};

/** The monthly timesheet as a file: CSV and a one-page PDF, with a token only (401 without). */
function timesheetFileRoutes(app: ApiInstance, timesheet: Services['timesheet'], pdfBudget: preHandlerAsyncHookHandler, renderer: PdfRenderer): void {
  app.get(
    '/month.csv',
    {
      schema: {
        tags: ['stats'],
        security: BEARER,
        querystring: MonthQuery,
        produces: ['text/csv'],
        response: { 200: { description: 'CSV', content: { 'text/csv': { schema: Type.String() } } }, ...errorResponses(400, 401) },
      },
    },
    async (request, reply) => {
      if (!request.session) throw unauthorized();
      const sheet = await timesheet.monthSheet(request.session.user.id, request.query.month, request.query.lang);
      return reply
        .type('text/csv; charset=utf-8')
        .header('Content-Disposition', `attachment; filename="timesheet-${sheet.month}.csv"`)
        .send(timesheetCsv(sheet));
    },
  );

  app.get(
    '/month.pdf',
    {
      schema: {
        tags: ['stats'],
        security: BEARER,
        querystring: MonthQuery,
        produces: ['application/pdf'],
        response: {
          200: { description: 'PDF', content: { 'application/pdf': { schema: Type.String({ format: 'binary' }) } } },
          ...errorResponses(400, 401, 429, 503),
        },
      },
      preHandler: pdfBudget,
    },
    async (request, reply) => {
      if (!request.session) throw unauthorized();
      const { user } = request.session;
      // The whole sheet takes its turn in the lane: a request past its short queue is refused at arrival.
      const { sheet, pdf } = await renderer.run(async (draw) => {
        const read = await timesheet.monthSheet(user.id, request.query.month, request.query.lang);
        return { sheet: read, pdf: await draw(read, { name: user.full_name, email: user.email }, request.query.lang ?? 'en') };
      });
      // The schema documents the body as binary; Fastify sends a Buffer as it is, unserialized.
      return reply
        .type('application/pdf')
        .header('Content-Disposition', `attachment; filename="timesheet-${sheet.month}.pdf"`)
        .send(pdf as unknown as string);
    },
  );
}
