// /api/time-entries (docs/time-model.md): strict authentication. Each handler parses, calls one service
// function, shapes the answer. Static paths come before /:id.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ExportBudget } from '../account-limits.js';
import { Type } from 'typebox';
import type { Services } from '../../composition-root.js';
import { requireSession, sessionOf, type Authenticator } from '../authentication.js';
import { BEARER } from '../openapi.js';
import type { ApiInstance } from '../api-hooks.js';
import { exportClientKey, sendExport } from '../export-reply.js';
import type { SpoolLimits } from '../export-spool.js';
import { AbsencePortion, AbsenceType, errorResponses, LocalDate, nullable } from '../schemas.js';
import { NOTE_MAX_LENGTH } from '../../time/entries/rules.js';
import { AbsenceResponse, AbsenceSchema, BookingSchema, EntryResponse, EntrySchema, IdParams, Instant, RangeQuery } from './schemas.js';

const Note = Type.String({ maxLength: NOTE_MAX_LENGTH });
const NewEntryBody = Type.Object({ start_at: Instant, end_at: Type.Optional(nullable(Instant)), note: Type.Optional(Note) }, { additionalProperties: false });
/** The entry's updated_at as the writer last read it: a change made since is 409 ENTRY_CHANGED (docs/api.md). */
const ExpectedUpdatedAt = Type.Optional(
  Type.String({ maxLength: 64, description: 'the entry’s updated_at as last read; if it changed since, 409 ENTRY_CHANGED with the current entry' }),
);
const EntryPatchBody = Type.Object(
  { start_at: Type.Optional(Instant), end_at: Type.Optional(nullable(Instant)), note: Type.Optional(Note), expected_updated_at: ExpectedUpdatedAt },
  { additionalProperties: false },
);
const EntryDeleteQuery = Type.Object({ expected_updated_at: ExpectedUpdatedAt }, { additionalProperties: false });
const StartBody = nullable(Type.Object({ note: Type.Optional(Note) }, { additionalProperties: false }));
const NewAbsenceBody = Type.Object(
  {
    date: Type.Optional(LocalDate),
    from: Type.Optional(Type.String({ maxLength: 10, description: 'YYYY-MM-DD: the first day of a range (with to, instead of date)' })),
    to: Type.Optional(Type.String({ maxLength: 10, description: 'YYYY-MM-DD: the last day of a range, included (at most 366 days)' })),
    type: AbsenceType,
    portion: Type.Optional(AbsencePortion),
    note: Type.Optional(Note),
  },
  { additionalProperties: false },
);

const NewBookingBody = Type.Object(
  {
    date: LocalDate,
    minutes: Type.Integer({ description: 'signed whole minutes, not 0; a payout is negative' }),
    kind: Type.Union([Type.Literal('payout'), Type.Literal('correction')]),
    note: Type.Optional(Note),
  },
  { additionalProperties: false },
);
const DateRangeQuery = Type.Object(
  {
    from: Type.Optional(Type.String({ maxLength: 10, description: 'YYYY-MM-DD, included' })),
    to: Type.Optional(Type.String({ maxLength: 10, description: 'YYYY-MM-DD, excluded' })),
  },
  { additionalProperties: false },
);

/** What the /api/time-entries routes use. */
export interface TimeEntryRouteOptions {
  credentials: Authenticator;
  timeEntries: Services['timeEntries'];
  absences: Services['absences'];
  bookings: Services['bookings'];
  /** Whether a vacation booking leaves less than nothing of its year's allowance (exceeds_allowance). */
  vacation: Services['vacation'];
  entriesCsv: Services['entriesCsv'];
  /** The account's export budget, shared with the account document (app.ts). */
  exportBudget: ExportBudget;
  /** Where and how far exports are spooled before they are sent (export-spool.ts). */
  exportSpool: SpoolLimits;
}

export const timeEntryRoutes: FastifyPluginAsyncTypebox<TimeEntryRouteOptions> = async (
  app,
  { credentials, timeEntries, absences, bookings, vacation, entriesCsv, exportBudget, exportSpool },
) => {
  app.addHook('onRequest', requireSession(credentials));
  const security = BEARER;
  const tags = ['time-entries'];

  app.get(
    '/',
    {
      schema: { tags, security, querystring: RangeQuery, response: { 200: Type.Object({ entries: Type.Array(EntrySchema) }), ...errorResponses(400, 401) } },
    },
    async (request) => ({ entries: await timeEntries.listEntries(sessionOf(request).user.id, request.query) }),
  );

  app.post(
    '/',
    {
      schema: { tags, security, body: NewEntryBody, response: { 201: EntryResponse, ...errorResponses(400, 401, 409) } },
    },
    async (request, reply) => reply.code(201).send({ entry: await timeEntries.createEntry(sessionOf(request).user.id, request.body) }),
  );

  app.post(
    '/start',
    {
      schema: { tags, security, body: StartBody, response: { 201: EntryResponse, ...errorResponses(400, 401, 409) } },
    },
    async (request, reply) => reply.code(201).send({ entry: await timeEntries.startTimer(sessionOf(request).user.id, request.body?.note) }),
  );

  app.post(
    '/stop',
    {
      schema: { tags, security, response: { 200: EntryResponse, ...errorResponses(401, 409) } },
    },
    async (request) => ({ entry: await timeEntries.stopTimer(sessionOf(request).user.id) }),
  );

  app.get(
    '/current',
    {
      schema: { tags, security, response: { 200: Type.Object({ entry: Type.Union([EntrySchema, Type.Null()]) }), ...errorResponses(401) } },
    },
    async (request) => ({ entry: await timeEntries.currentEntry(sessionOf(request).user.id) }),
  );

  absenceAndBookingRoutes(app, absences, bookings, vacation);
  absenceRequestRoutes(app, absences);

  app.get(
    '/export',
    {
      schema: {
        tags,
        security,
        querystring: RangeQuery,
        description: 'The entries overlapping the range as CSV: id, start_at, end_at (UTC), start_local, end_local (user time zone), note',
        produces: ['text/csv'],
        response: { 200: { description: 'CSV, spooled', content: { 'text/csv': { schema: Type.String() } } }, ...errorResponses(400, 401, 409, 429, 503) },
      },
      ...exportBudget,
    },
    async (request, reply) => {
      const csv = await entriesCsv.exportCsv({ userId: sessionOf(request).user.id, client: exportClientKey(request) }, request.query);
      return sendExport(request, reply, csv, { credentials, spool: exportSpool }, 'text/csv; charset=utf-8', 'time-entries.csv');
    },
  );

  entryByIdRoutes(app, timeEntries);
};

/** The days of one booking of absences (docs/time-model.md, Bookings of absences). */
function absenceRequestRoutes(app: ApiInstance, absences: Services['absences']): void {
  const security = BEARER;
  const tags = ['time-entries'];
  app.delete(
    '/absences/requests/:id',
    {
      schema: {
        tags,
        security,
        description: 'Every day of one booking (its request_id): what one POST wrote',
        params: IdParams,
        response: { 200: Type.Object({ absences: Type.Array(AbsenceSchema) }), ...errorResponses(400, 401, 403, 404) },
      },
    },
    async (request) => ({ absences: await absences.deleteAbsenceRequest(sessionOf(request).user.id, request.params.id) }),
  );
}

/** Present (true) when a vacation booking leaves its year less than nothing (docs/api.md). */
const ExceedsAllowance = Type.Optional(Type.Literal(true, { description: 'the vacation booked leaves less than nothing of the allowance' }));
const NewAbsenceResponse = Type.Union([
  Type.Object({ ...AbsenceResponse.properties, exceeds_allowance: ExceedsAllowance }),
  Type.Object({ absences: Type.Array(AbsenceSchema), exceeds_allowance: ExceedsAllowance }),
]);

/** Absences (vacation, sick, holiday) and bookings on the balance, under the same prefix and hooks. */
function absenceAndBookingRoutes(app: ApiInstance, absences: Services['absences'], bookings: Services['bookings'], vacation: Services['vacation']): void {
  const security = BEARER;
  const tags = ['time-entries'];

  app.get(
    '/absences',
    {
      schema: { tags, security, querystring: RangeQuery, response: { 200: Type.Object({ absences: Type.Array(AbsenceSchema) }), ...errorResponses(400, 401) } },
    },
    async (request) => ({ absences: await absences.listAbsences(sessionOf(request).user.id, request.query) }),
  );

  app.post(
    '/absences',
    {
      schema: {
        tags,
        security,
        description: 'One day (date), or every day with a target from `from` through `to` that is not a public holiday (all or none)',
        body: NewAbsenceBody,
        response: { 201: NewAbsenceResponse, ...errorResponses(400, 401, 409) },
      },
    },
    async (request, reply) => {
      const userId = sessionOf(request).user.id;
      const { from, to } = request.body;
      const range = from !== undefined || to !== undefined;
      const made = range ? await absences.createAbsenceRange(userId, request.body) : [await absences.createAbsence(userId, request.body)];
      // A vacation that leaves less than nothing is booked all the same; the answer says so.
      const dates = made.map((absence) => absence.date);
      const exceeds = request.body.type === 'vacation' && (await vacation.exceedsAllowance(userId, dates));
      const flag = exceeds ? { exceeds_allowance: true as const } : {};
      return reply.code(201).send(range ? { absences: made, ...flag } : { absence: made[0]!, ...flag });
    },
  );

  app.delete(
    '/absences/:id',
    {
      schema: { tags, security, params: IdParams, response: { 204: Type.Null(), ...errorResponses(400, 401, 403, 404) } },
    },
    async (request, reply) => {
      await absences.deleteAbsence(sessionOf(request).user.id, request.params.id);
      return reply.code(204).send(null);
    },
  );

  // Bookings on the balance (docs/time-model.md): payouts and corrections, counted on their date.
  app.get(
    '/bookings',
    {
      schema: {
        tags,
        security,
        querystring: DateRangeQuery,
        response: { 200: Type.Object({ bookings: Type.Array(BookingSchema) }), ...errorResponses(400, 401) },
      },
    },
    async (request) => ({ bookings: await bookings.listBookings(sessionOf(request).user.id, request.query) }),
  );

  app.post(
    '/bookings',
    {
      schema: { tags, security, body: NewBookingBody, response: { 201: Type.Object({ booking: BookingSchema }), ...errorResponses(400, 401, 409) } },
    },
    async (request, reply) => reply.code(201).send({ booking: await bookings.createBooking(sessionOf(request).user.id, request.body) }),
  );

  app.delete(
    '/bookings/:id',
    {
      schema: { tags, security, params: IdParams, response: { 204: Type.Null(), ...errorResponses(400, 401, 404) } },
    },
    async (request, reply) => {
      await bookings.deleteBooking(sessionOf(request).user.id, request.params.id);
      return reply.code(204).send(null);
    },
  );
}

/** One entry by its id: read, change, delete. */
function entryByIdRoutes(app: ApiInstance, timeEntries: Services['timeEntries']): void {
  const security = BEARER;
  const tags = ['time-entries'];

  app.get(
    '/:id',
    {
      schema: { tags, security, params: IdParams, response: { 200: EntryResponse, ...errorResponses(400, 401, 404) } },
    },
    async (request) => ({ entry: await timeEntries.getEntry(sessionOf(request).user.id, request.params.id) }),
  );

  app.patch(
    '/:id',
    {
      schema: {
        tags,
        security,
        description: 'With expected_updated_at: only if the entry is unchanged since (409 ENTRY_CHANGED with the current entry otherwise)',
        params: IdParams,
        body: EntryPatchBody,
        response: { 200: EntryResponse, ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request) => ({ entry: await timeEntries.updateEntry(sessionOf(request).user.id, request.params.id, request.body) }),
  );

  app.delete(
    '/:id',
    {
      schema: {
        tags,
        security,
        description: 'With ?expected_updated_at=: only if the entry is unchanged since (409 ENTRY_CHANGED with the current entry otherwise)',
        params: IdParams,
        querystring: EntryDeleteQuery,
        response: { 204: Type.Null(), ...errorResponses(400, 401, 404, 409) },
      },
    },
    async (request, reply) => {
      await timeEntries.deleteEntry(sessionOf(request).user.id, request.params.id, request.query.expected_updated_at);
      return reply.code(204).send(null);
    },
  );
}
