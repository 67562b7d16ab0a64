// /api/settings (docs/time-model.md): strict authentication. Both routes answer the whole settings object.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ExportBudget } from '../account-limits.js';
import { Type } from 'typebox';
import type { Services } from '../../composition-root.js';
import { holidayRegions } from '../../time/calendar/holidays.js';
import { requireSession, sessionOf, type Authenticator } from '../authentication.js';
import { BEARER } from '../openapi.js';
import { exportClientKey, sendExport } from '../export-reply.js';
import type { SpoolLimits } from '../export-spool.js';
import { errorResponses, nullable, nullableNumber } from '../schemas.js';
import { HolidayRegionsResponse, ScheduleSchema, SchedulesResponse, SettingsSchema } from './schemas.js';
import { IdParams } from '../time-entries/schemas.js';

// Types only: ranges (targets ≥ 0, known zone and region) are the settings service's rules.
const DayTarget = Type.Optional(Type.Integer());
const WeeklyTargetPatch = Type.Object(
  { mon: DayTarget, tue: DayTarget, wed: DayTarget, thu: DayTarget, fri: DayTarget, sat: DayTarget, sun: DayTarget },
  { additionalProperties: false },
);
const NewScheduleBody = Type.Object(
  {
    valid_from: Type.String({ maxLength: 10, description: 'YYYY-MM-DD: the first day the targets apply' }),
    weekly_target_minutes: WeeklyTargetPatch,
  },
  { additionalProperties: false },
);
const SettingsPatchBody = Type.Object(
  {
    timezone: Type.Optional(Type.String({ maxLength: 64, description: 'IANA zone, from timezone_valid_from on (docs/time-model.md, Time zone history)' })),
    timezone_valid_from: Type.Optional(
      Type.String({
        maxLength: 10,
        description:
          'YYYY-MM-DD: the first day of timezone (default: today in that zone; on or before tracking_start: every day, the one change that recounts past days; after today: 400)',
      }),
    ),
    weekly_target_minutes: Type.Optional(WeeklyTargetPatch),
    targets_valid_from: Type.Optional(
      Type.String({ maxLength: 10, description: 'YYYY-MM-DD: the first day of weekly_target_minutes (default: today in the user time zone)' }),
    ),
    holiday_region: Type.Optional(nullable(Type.String({ maxLength: 16 }))),
    overtime_offset_minutes: Type.Optional(Type.Integer()),
    tracking_start: Type.Optional(nullable(Type.String({ maxLength: 10, description: 'YYYY-MM-DD; null: the day the account was made' }))),
    break_rules: Type.Optional(
      Type.Array(Type.Object({ worked_over_minutes: Type.Integer(), break_minutes: Type.Integer() }, { additionalProperties: false }), { maxItems: 10 }),
    ),
    min_break_minutes: Type.Optional(Type.Integer({ description: 'the shortest gap between entries that counts as a break (default 15)' })),
    vacation_days_per_year: Type.Optional(nullableNumber(Type.Number({ description: 'days of vacation a year, halves allowed; null: not tracked' }))),
    vacation_carry_over_max_days: Type.Optional(nullableNumber(Type.Number({ description: 'the most days carried into a year; null: no limit' }))),
    vacation_taken_before_tracking_days: Type.Optional(
      nullableNumber(Type.Number({ description: 'days of vacation taken in the year of tracking_start before it, halves allowed; null: none' })),
    ),
    timer_limit_minutes: Type.Optional(
      nullableNumber(Type.Integer({ description: 'a running entry is stopped at its start plus this many minutes; null: off' })),
    ),
    suggest_timer_limit: Type.Optional(Type.Boolean({ description: 'false: the offer on Today to turn the timer limit on is dismissed' })),
    reminders_enabled: Type.Optional(
      Type.Boolean({ description: 'false: no mail or notice about a day with a target and nothing recorded (docs/notices.md)' }),
    ),
  },
  { additionalProperties: false },
);

/** What the /api/settings routes use. */
export interface SettingsRouteOptions {
  credentials: Authenticator;
  settings: Services['settings'];
  schedules: Services['schedules'];
  accountData: Services['accountData'];
  /** The account's export budget, shared with the CSV export of time entries (app.ts). */
  exportBudget: ExportBudget;
  /** Where and how far exports are spooled before they are sent (export-spool.ts). */
  exportSpool: SpoolLimits;
}

export const settingsRoutes: FastifyPluginAsyncTypebox<SettingsRouteOptions> = async (app, options) => {
  const { credentials, settings, schedules, accountData, exportBudget, exportSpool } = options;
  app.addHook('onRequest', requireSession(credentials));
  const security = BEARER;

  // Data portability: the signed-in person's whole account as one JSON document (docs/api.md),
  // the same document as `timetrack user export`, streamed.
  app.get(
    '/export',
    {
      schema: {
        tags: ['settings'],
        security,
        produces: ['application/json'],
        response: {
          200: { description: 'the account document (docs/api.md), spooled, then sent', content: { 'application/json': { schema: Type.Unknown() } } },
          ...errorResponses(401, 409, 429, 503),
        },
      },
      ...exportBudget,
    },
    async (request, reply) => {
      const exported = await accountData.exportAccount({ userId: sessionOf(request).user.id, client: exportClientKey(request) });
      return sendExport(request, reply, exported, { credentials, spool: exportSpool }, 'application/json; charset=utf-8', 'timetrack-account.json');
    },
  );

  // The regions a holiday_region may name, with names for a list to choose from.
  app.get(
    '/holiday-regions',
    {
      schema: {
        tags: ['settings'],
        security,
        querystring: Type.Object({ lang: Type.Optional(Type.Union([Type.Literal('en'), Type.Literal('de')])) }, { additionalProperties: false }),
        response: { 200: HolidayRegionsResponse, ...errorResponses(400, 401) },
      },
    },
    async (request) => ({ regions: await holidayRegions(request.query.lang ?? 'en') }),
  );

  // Target schedules (docs/time-model.md): weekly targets, each valid from a date on.
  app.get(
    '/schedules',
    {
      schema: { tags: ['settings'], security, response: { 200: SchedulesResponse, ...errorResponses(401) } },
    },
    async (request) => ({ schedules: await schedules.listSchedules(sessionOf(request).user.id) }),
  );

  app.post(
    '/schedules',
    {
      schema: {
        tags: ['settings'],
        security,
        body: NewScheduleBody,
        response: { 201: Type.Object({ schedule: ScheduleSchema }), ...errorResponses(400, 401, 409) },
      },
    },
    async (request, reply) => reply.code(201).send({ schedule: await schedules.createSchedule(sessionOf(request).user.id, request.body) }),
  );

  app.delete(
    '/schedules/:id',
    {
      schema: { tags: ['settings'], security, params: IdParams, response: { 204: Type.Null(), ...errorResponses(400, 401, 404) } },
    },
    async (request, reply) => {
      await schedules.deleteSchedule(sessionOf(request).user.id, request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/',
    {
      schema: { tags: ['settings'], security, response: { 200: SettingsSchema, ...errorResponses(401) } },
    },
    async (request) => settings.getSettings(sessionOf(request).user.id),
  );

  app.patch(
    '/',
    {
      schema: { tags: ['settings'], security, body: SettingsPatchBody, response: { 200: SettingsSchema, ...errorResponses(400, 401, 429, 503) } },
    },
    async (request) => settings.updateSettings(sessionOf(request).user.id, request.body),
  );
};
