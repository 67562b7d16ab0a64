// /api/stats (docs/time-model.md): optional authentication. With a valid token the user's figures;
// without one (none, garbage, expired, revoked) the answers of the contract, never 401.
// /api/users/:id/stats (docs/api.md, "Another account's statistics"; docs/teams.md): the same handlers
// with the account of the path, once `can(actor, 'stats.read', person)` allows it (404 otherwise): a
// lead or an admin gets exactly the answer the account gets, from one service call with its id. Both
// trees share the budgets and the PDF worker.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest, preHandlerAsyncHookHandler } from 'fastify';
import { Type } from 'typebox';
import type { Services } from '../../composition-root.js';
import { accountBudget } from '../account-limits.js';
import { optionalSession, requireSession, sessionOf, type Authenticator } from '../authentication.js';
import { BEARER, BEARER_OR_ANONYMOUS } from '../openapi.js';
import { registerApiTree, type ApiInstance } from '../api-hooks.js';
import { errorResponses } from '../schemas.js';
import { Anonymous, MonthResponse, OvertimeResponse, TodayResponse, VacationResponse, WeekResponse } from './schemas.js';
import { timesheetCsv } from '../../time/timesheet/timesheet.js';
import { startPdfRenderer, type PdfRenderer } from '../../time/timesheet/pdf-renderer.js';
import { unauthorized } from '../../auth/sessions/index.js';
import type { MonthService, OverviewService } from '../../teams/index.js';
import { actorOf } from '../actor.js';

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

/** What the statistics trees use. */
export interface StatsRouteOptions {
  credentials: Authenticator;
  statistics: Services['statistics'];
  vacation: Services['vacation'];
  timesheet: Services['timesheet'];
  /** The team layer's reading of another account: whose figures /api/users/:id/stats answers. */
  overview: Pick<OverviewService, 'statsSubject'>;
  /** The team layer's seal of an approved month: printed on its PDF, carried in its JSON (docs/teams.md, "The seal"). */
  seals: Pick<MonthService, 'sealOf'>;
  /** RATE_LIMIT_STATS: statistics requests per account a minute (0: no limit). */
  rateLimitStats: number;
  /** Milliseconds since the epoch, of the context's clock. */
  now: () => number;
}

/** The account whose figures a request reads (its name and address go on the PDF). */
interface Subject {
  id: number;
  full_name: string;
  email: string;
}

/** One tree: the own figures (`person` false: the session's account, or none) or the account of the path. */
interface StatsTree {
  statistics: Services['statistics'];
  vacation: Services['vacation'];
  timesheet: Services['timesheet'];
  seals: Pick<MonthService, 'sealOf'>;
  person: boolean;
  /** Whose figures: undefined is anonymous (only the own tree). */
  who: (request: FastifyRequest) => Promise<Subject | undefined>;
  signIn: (app: ApiInstance) => void;
  budget: preHandlerAsyncHookHandler;
  pdfBudget: preHandlerAsyncHookHandler;
  renderer: PdfRenderer;
}

const PersonParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) });

/** Registers /api/stats and /api/users/:id/stats, with one statistics budget, one PDF budget and one PDF worker. */
export async function registerStatsTrees(app: FastifyInstance, options: StatsRouteOptions): Promise<void> {
  const { credentials, statistics, vacation, timesheet, overview, seals, rateLimitStats, now } = options;
  // A signed-in account's statistics read its data from tracking_start on: RATE_LIMIT_STATS a minute.
  const budget = accountBudget({ name: 'statistics requests', max: rateLimitStats, windowMs: 60_000 }, now);
  // The PDF worker starts with the first sheet (src/time/timesheet/pdf-renderer.ts); PDFs have their own, smaller budget.
  const renderer = startPdfRenderer();
  app.addHook('onClose', renderer.stop);
  const pdfBudget = accountBudget({ name: 'PDF timesheets', max: Math.min(rateLimitStats, PDF_PER_MINUTE), windowMs: 60_000 }, now);
  const shared = { statistics, vacation, timesheet, seals, budget, pdfBudget, renderer };
  await registerApiTree(app, '/api/stats', 'per-token', statsRoutes, {
    ...shared,
    person: false,
    who: async (request) => request.session?.user,
    signIn: (tree) => tree.addHook('onRequest', optionalSession(credentials)),
  });
  await registerApiTree(app, '/api/users/:id/stats', 'per-token', statsRoutes, {
    ...shared,
    person: true,
    who: (request) => overview.statsSubject(actorOf(sessionOf(request)), (request.params as { id: number }).id),
    signIn: (tree) => tree.addHook('onRequest', requireSession(credentials)),
  });
}

const statsRoutes: FastifyPluginAsyncTypebox<StatsTree> = async (app, tree) => {
  const { statistics, who, person } = tree;
  tree.signIn(app);
  app.addHook('preHandler', tree.budget);
  // The answers depend on the Authorization header (no-store, Vary: Authorization): api-hooks.ts.
  const security = person ? BEARER : BEARER_OR_ANONYMOUS;
  // Another account's figures: the account of the path (a lead's member, or anyone for an admin).
  const params = person ? { params: PersonParams } : {};
  const refusals = person ? ([401, 404] as const) : ([] as const);

  app.get(
    '/week',
    {
      schema: {
        tags: ['stats'],
        security,
        ...params,
        querystring: Type.Object(
          {
            date: Type.Optional(Type.String({ maxLength: 10, description: 'YYYY-MM-DD, a day of the week (default: this week)' })),
            region: Type.Optional(Type.String({ maxLength: 16, description: 'without a token: public holidays of this region, e.g. DE-BY' })),
            lang: Lang('language of the public holiday names (default en)'),
          },
          { additionalProperties: false },
        ),
        response: { 200: WeekResponse, ...errorResponses(400, 429, ...refusals) },
      },
    },
    async (request) => {
      const { date, region, lang } = request.query;
      const user = await who(request);
      return user ? statistics.weekOverview(user.id, date, lang) : statistics.anonymousWeekOverview(date, region, lang);
    },
  );

  app.get(
    '/overtime',
    {
      schema: { tags: ['stats'], security, ...params, response: { 200: Type.Union([OvertimeResponse, Anonymous]), ...errorResponses(429, ...refusals) } },
    },
    async (request) => {
      const user = await who(request);
      return user ? statistics.overtime(user.id) : { authenticated: false as const };
    },
  );

  monthAndVacationRoutes(app, tree, security, params);
  timesheetFileRoutes(app, tree, params);

  if (person) return;
  app.get(
    '/today',
    {
      schema: { tags: ['stats'], security, response: { 200: Type.Union([TodayResponse, Anonymous]), ...errorResponses(429) } },
    },
    async (request) => (request.session ? statistics.today(request.session.user.id) : { authenticated: false as const }),
  );
};

/** The vacation year and the monthly timesheet as JSON. */
function monthAndVacationRoutes(app: ApiInstance, { vacation, timesheet, seals, who, person }: StatsTree, security: typeof BEARER, params: object): void {
  const refusals = person ? ([401, 404] as const) : ([] as const);
  app.get(
    '/vacation',
    {
      schema: {
        tags: ['stats'],
        security,
        ...params,
        querystring: Type.Object(
          {
            year: Type.Optional(Type.Integer({ minimum: 1970, maximum: 2099, description: 'default: the year of from, else this year in the user time zone' })),
            from: Type.Optional(Type.String({ maxLength: 10, description: 'YYYY-MM-DD: a vacation booking asked about before it is made, from this day' })),
            to: Type.Optional(Type.String({ maxLength: 10, description: 'YYYY-MM-DD: through this day (default: from)' })),
            portion: Type.Optional(Type.Union([Type.Literal('full'), Type.Literal('half')])),
          },
          { additionalProperties: false },
        ),
        response: { 200: Type.Union([VacationResponse, Anonymous]), ...errorResponses(400, ...refusals) },
      },
    },
    async (request) => {
      const user = await who(request);
      if (!user) return { authenticated: false as const };
      const { year, from, to, portion } = request.query;
      return vacation.vacationYear(user.id, year, from === undefined ? undefined : { from, to, portion });
    },
  );

  // The monthly timesheet (docs/time-model.md): JSON, and the same figures as CSV and a one-page PDF.
  app.get(
    '/month',
    {
      schema: {
        tags: ['stats'],
        security,
        ...params,
        querystring: MonthQuery,
        response: { 200: Type.Union([MonthResponse, Anonymous]), ...errorResponses(400, ...refusals) },
      },
    },
    async (request) => {
      const user = await who(request);
      if (!user) return { authenticated: false as const };
      const sheet = await timesheet.monthSheet(user.id, request.query.month, request.query.lang);
      // An approved month carries its seal and whose it is: the file `timetrack report verify` checks.
      const seal = await seals.sealOf(user.id, sheet.month);
      return seal ? { ...sheet, seal: { account_id: user.id, email: user.email, lang: request.query.lang ?? 'en', ...seal } } : sheet;
    },
  );
}

/** The monthly timesheet as a file: CSV and a one-page PDF, with a token only (401 without). */
function timesheetFileRoutes(app: ApiInstance, { timesheet, seals, pdfBudget, renderer, who, person }: StatsTree, params: object): void {
  const refusals = person ? ([404] as const) : ([] as const);
  app.get(
    '/month.csv',
    {
      schema: {
        tags: ['stats'],
        security: BEARER,
        ...params,
        querystring: MonthQuery,
        produces: ['text/csv'],
        response: { 200: { description: 'CSV', content: { 'text/csv': { schema: Type.String() } } }, ...errorResponses(400, 401, ...refusals) },
      },
    },
    async (request, reply) => {
      const user = await who(request);
      if (!user) throw unauthorized();
      const sheet = await timesheet.monthSheet(user.id, request.query.month, request.query.lang);
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
        ...params,
        querystring: MonthQuery,
        produces: ['application/pdf'],
        response: {
          200: { description: 'PDF', content: { 'application/pdf': { schema: Type.String({ format: 'binary' }) } } },
          ...errorResponses(400, 401, 429, 503, ...refusals),
        },
      },
      preHandler: pdfBudget,
    },
    async (request, reply) => {
      const user = await who(request);
      if (!user) throw unauthorized();
      // The whole sheet takes its turn in the lane: a request past its short queue is refused at arrival.
      const { sheet, pdf } = await renderer.run(async (draw) => {
        const read = await timesheet.monthSheet(user.id, request.query.month, request.query.lang);
        const seal = await seals.sealOf(user.id, read.month);
        return { sheet: read, pdf: await draw(read, { id: user.id, name: user.full_name, email: user.email }, request.query.lang ?? 'en', seal) };
      });
      // The schema documents the body as binary; Fastify sends a Buffer as it is, unserialized.
      return reply
        .type('application/pdf')
        .header('Content-Disposition', `attachment; filename="timesheet-${sheet.month}.pdf"`)
        .send(pdf as unknown as string);
    },
  );
}
