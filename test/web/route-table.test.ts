// The client's route table (src/http/routes-table.ts): a call of `api()` names a route the server has,
// with the params, query and body that route takes; a wrong path or body does not compile (the
// `@ts-expect-error` lines below fail `npm run typecheck` as soon as they compile). The bodies and queries
// the table spells out are held against the routes' schemas in the server's OpenAPI document.
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type { Entry, Settings } from '../../src/http/contract.js';
import type { DownloadRoutes, Routes } from '../../src/http/routes-table.js';
import { routeUrl, type Answer, type ApiCall } from '../../src/web/routes.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { get } from '../support/requests.js';

type BodyRoute = { [K in keyof Routes]: Routes[K] extends { body: unknown } ? K : never }[keyof Routes];
type QueryRoute = { [K in keyof Routes]: Routes[K] extends { query: unknown } ? K : never }[keyof Routes];
type FieldsOf<T> = Extract<keyof NonNullable<T>, string>;
type RequiredOf<T> = { [F in FieldsOf<T>]-?: {} extends Pick<NonNullable<T>, F> ? never : F }[FieldsOf<T>];
/** The list `L`, if it names every member of `U` and nothing else. */
type Exactly<U extends string, L extends readonly string[]> = [U] extends [L[number]] ? ([L[number]] extends [U] ? L : never) : never;
/** A body's fields as [required, optional]: a list that leaves one out or adds one does not compile. */
const fields =
  <T>() =>
  <const R extends readonly string[], const O extends readonly string[]>(
    required: R & Exactly<RequiredOf<T>, R>,
    optional: O & Exactly<Exclude<FieldsOf<T>, RequiredOf<T>>, O>,
  ) => ({ required, optional });
type Body<K extends BodyRoute> = Routes[K]['body'];
type Query<K extends QueryRoute> = Routes[K]['query'];

/** The fields of every body and query of the table, checked against the table's types here and the server's schemas below. */
const BODIES: { [K in BodyRoute]: { required: readonly string[]; optional: readonly string[] } } = {
  'POST /api/auth/register': fields<Body<'POST /api/auth/register'>>()(['email', 'password', 'full_name'], ['username', 'timezone', 'setup_token']),
  'POST /api/auth/login': fields<Body<'POST /api/auth/login'>>()(['email', 'password'], []),
  'POST /api/auth/login/2fa': fields<Body<'POST /api/auth/login/2fa'>>()(['challenge', 'code'], []),
  'POST /api/auth/request-reset': fields<Body<'POST /api/auth/request-reset'>>()(['email'], []),
  'POST /api/auth/reset-password': fields<Body<'POST /api/auth/reset-password'>>()(['token', 'new_password'], []),
  'POST /api/invitations/preview': fields<Body<'POST /api/invitations/preview'>>()(['token'], []),
  'POST /api/invitations/accept': fields<Body<'POST /api/invitations/accept'>>()(['token', 'password', 'full_name'], ['timezone']),
  'POST /api/auth/change-password': fields<Body<'POST /api/auth/change-password'>>()(['old_password', 'new_password'], ['revoke_api_tokens']),
  'POST /api/auth/sessions/revoke-others': fields<Body<'POST /api/auth/sessions/revoke-others'>>()([], ['revoke_api_tokens']),
  'DELETE /api/auth/account': fields<Body<'DELETE /api/auth/account'>>()(['password'], ['code']),
  'POST /api/auth/api-tokens': fields<Body<'POST /api/auth/api-tokens'>>()(['name', 'expires_in_days', 'password'], ['code']),
  'POST /api/auth/2fa/setup': fields<Body<'POST /api/auth/2fa/setup'>>()([], ['password', 'challenge']),
  'POST /api/auth/2fa/enable': fields<Body<'POST /api/auth/2fa/enable'>>()(['code'], ['challenge']),
  'POST /api/auth/2fa/disable': fields<Body<'POST /api/auth/2fa/disable'>>()(['password', 'code'], []),
  'POST /api/auth/2fa/recovery-codes': fields<Body<'POST /api/auth/2fa/recovery-codes'>>()(['password', 'code'], []),
  'PATCH /api/settings': fields<Body<'PATCH /api/settings'>>()(
    [],
    [
      'timezone',
      'timezone_valid_from',
      'weekly_target_minutes',
      'targets_valid_from',
      'holiday_region',
      'overtime_offset_minutes',
      'tracking_start',
      'break_rules',
      'min_break_minutes',
      'vacation_days_per_year',
      'vacation_carry_over_max_days',
      'vacation_taken_before_tracking_days',
      'timer_limit_minutes',
      'suggest_timer_limit',
      'reminders_enabled',
    ],
  ),
  'POST /api/time-entries': fields<Body<'POST /api/time-entries'>>()(['start_at'], ['end_at', 'note']),
  'POST /api/time-entries/start': fields<Body<'POST /api/time-entries/start'>>()([], ['note']),
  'PATCH /api/time-entries/:id': fields<Body<'PATCH /api/time-entries/:id'>>()([], ['start_at', 'end_at', 'note', 'expected_updated_at']),
  'POST /api/time-entries/absences': fields<Body<'POST /api/time-entries/absences'>>()(['type'], ['date', 'from', 'to', 'portion', 'note']),
  'POST /api/time-entries/bookings': fields<Body<'POST /api/time-entries/bookings'>>()(['date', 'minutes', 'kind'], ['note']),
  'PATCH /api/users/:id': fields<Body<'PATCH /api/users/:id'>>()(['role'], ['password']),
  'POST /api/teams': fields<Body<'POST /api/teams'>>()(['name'], []),
  'PATCH /api/teams/:id': fields<Body<'PATCH /api/teams/:id'>>()([], ['name', 'absence_approval', 'auto_lock_after_days']),
  'PUT /api/teams/:id/members/:userId': fields<Body<'PUT /api/teams/:id/members/:userId'>>()(['role'], []),
  'POST /api/invitations': fields<Body<'POST /api/invitations'>>()(['email', 'full_name', 'team_id', 'role'], ['language']),
  'POST /api/invitations/:id/resend': fields<Body<'POST /api/invitations/:id/resend'>>()([], ['language']),
  'POST /api/requests/:id/approve': fields<Body<'POST /api/requests/:id/approve'>>()([], ['note']),
  'POST /api/requests/:id/reject': fields<Body<'POST /api/requests/:id/reject'>>()([], ['note']),
  'POST /api/users/:id/months/:month/approve': fields<Body<'POST /api/users/:id/months/:month/approve'>>()([], ['comment']),
  'POST /api/users/:id/months/:month/return': fields<Body<'POST /api/users/:id/months/:month/return'>>()(['comment'], []),
  'POST /api/users/:id/months/:month/reopen': fields<Body<'POST /api/users/:id/months/:month/reopen'>>()(['reason'], []),
};
const QUERIES: { [K in QueryRoute]: { required: readonly string[]; optional: readonly string[] } } = {
  'GET /api/settings/holiday-regions': fields<Query<'GET /api/settings/holiday-regions'>>()([], ['lang']),
  'GET /api/time-entries': fields<Query<'GET /api/time-entries'>>()([], ['from', 'to']),
  'DELETE /api/time-entries/:id': fields<Query<'DELETE /api/time-entries/:id'>>()([], ['expected_updated_at']),
  'GET /api/time-entries/absences': fields<Query<'GET /api/time-entries/absences'>>()([], ['from', 'to']),
  'GET /api/time-entries/bookings': fields<Query<'GET /api/time-entries/bookings'>>()([], ['from', 'to']),
  'GET /api/stats/week': fields<Query<'GET /api/stats/week'>>()([], ['date', 'region', 'lang']),
  'GET /api/stats/vacation': fields<Query<'GET /api/stats/vacation'>>()([], ['year', 'from', 'to', 'portion']),
  'GET /api/stats/month': fields<Query<'GET /api/stats/month'>>()([], ['month', 'lang']),
  'GET /api/teams/:id/overview': fields<Query<'GET /api/teams/:id/overview'>>()([], ['week']),
  'GET /api/teams/:id/calendar': fields<Query<'GET /api/teams/:id/calendar'>>()([], ['month', 'lang']),
  'GET /api/auth/setup-link': fields<Query<'GET /api/auth/setup-link'>>()(['token'], []),
  'GET /api/teams': fields<Query<'GET /api/teams'>>()([], ['members']),
  'GET /api/months': fields<Query<'GET /api/months'>>()(['year'], []),
  'GET /api/requests': fields<Query<'GET /api/requests'>>()([], ['state', 'scope']),
  'GET /api/users/:id/stats/week': fields<Query<'GET /api/users/:id/stats/week'>>()([], ['date', 'region', 'lang']),
  'GET /api/users/:id/stats/month': fields<Query<'GET /api/users/:id/stats/month'>>()([], ['month', 'lang']),
  'GET /api/users': fields<Query<'GET /api/users'>>()([], ['q', 'limit', 'cursor']),
  'GET /api/audit': fields<Query<'GET /api/audit'>>()([], ['user', 'actor', 'action', 'from', 'to', 'limit', 'cursor']),
};

type JsonSchema = { properties?: Record<string, unknown>; required?: string[]; anyOf?: JsonSchema[]; oneOf?: JsonSchema[] };
type Operation = { requestBody?: { content: Record<string, { schema: JsonSchema }> }; parameters?: Array<{ in: string; name: string; required?: boolean }> };
/** An operation of the OpenAPI document by its table key ("PATCH /api/time-entries/:id" is /api/time-entries/{id}). */
const operationOf = (doc: { paths: Record<string, Record<string, Operation>> }, key: string): Operation | undefined => {
  const [method, url] = key.split(' ') as [string, string];
  const path = url.replace(/:(\w+)/g, '{$1}');
  // A prefix's root route is listed with its trailing slash.
  return (doc.paths[path] ?? doc.paths[`${path}/`])?.[method.toLowerCase()];
};
/** A body schema's fields as [required, optional], sorted; a nullable body is its object branch. */
function schemaFields(schema: JsonSchema): { required: string[]; optional: string[] } {
  const object = [schema, ...(schema.anyOf ?? []), ...(schema.oneOf ?? [])].find((branch) => branch.properties) ?? {};
  const names = Object.keys(object.properties ?? {});
  const required = object.required ?? [];
  return { required: [...required].sort(), optional: names.filter((name) => !required.includes(name)).sort() };
}
const sorted = (spec: { required: readonly string[]; optional: readonly string[] }) => ({
  required: [...spec.required].sort(),
  optional: [...spec.optional].sort(),
});

/** Calls that must compile, and calls that must not; never run. */
export function typedCalls(api: ApiCall): void {
  void api('GET /api/time-entries', { query: { from: '2026-03-02', to: '2026-03-09' } });
  void api('GET /api/time-entries');
  void api('PATCH /api/time-entries/:id', { params: { id: 1 }, body: { end_at: '2026-03-02T17:00:00Z' } });
  void api('POST /api/time-entries/stop');
  // @ts-expect-error: no such route
  void api('GET /api/time-entry');
  // @ts-expect-error: the route is POST, not GET
  void api('GET /api/time-entries/stop');
  // @ts-expect-error: a wrong body (note is a string)
  void api('PATCH /api/time-entries/:id', { params: { id: 1 }, body: { note: 5 } });
  // @ts-expect-error: a body field the route does not take
  void api('POST /api/time-entries/bookings', { body: { date: '2026-03-02', minutes: -60, kind: 'payout', hours: 1 } });
  // @ts-expect-error: a booking needs its kind
  void api('POST /api/time-entries/bookings', { body: { date: '2026-03-02', minutes: -60 } });
  // @ts-expect-error: the :id param is missing
  void api('DELETE /api/time-entries/:id');
  // @ts-expect-error: a query parameter the route does not take
  void api('GET /api/stats/week', { query: { week: '2026-03-02' } });
  // @ts-expect-error: the list of a body's fields leaves one out
  fields<Body<'POST /api/auth/login'>>()(['email'], []);
  // @ts-expect-error: the list of a body's fields names one the body does not have
  fields<Body<'POST /api/auth/login'>>()(['email', 'password'], ['remember']);
  // @ts-expect-error: a required field listed as optional
  fields<Body<'POST /api/auth/login'>>()(['email'], ['password']);
}

describe('the route table', () => {
  it('gives each route the answer of its response schema', () => {
    expectTypeOf<Answer<'GET /api/time-entries'>>().toEqualTypeOf<{ entries: Entry[] }>();
    expectTypeOf<Answer<'PATCH /api/settings'>>().toEqualTypeOf<Settings>();
    // The anonymous statistics answer never reaches a view: api() ends the session instead.
    expectTypeOf<Answer<'GET /api/stats/today'>>().not.toHaveProperty('authenticated');
  });

  it('builds the URL from the params and the query, leaving out what is not given', () => {
    expect(routeUrl('PATCH /api/time-entries/:id', { params: { id: 7 } })).toEqual({ method: 'PATCH', path: '/api/time-entries/7' });
    expect(routeUrl('GET /api/time-entries', { query: { from: '2026-03-02', to: '2026-03-09' } }).path).toBe('/api/time-entries?from=2026-03-02&to=2026-03-09');
    expect(routeUrl('GET /api/stats/month.csv', { query: { month: '2026-03', lang: undefined } }).path).toBe('/api/stats/month.csv?month=2026-03');
    expect(routeUrl('GET /api/settings').path).toBe('/api/settings');
  });

  describe('names routes the server has', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp();
    });
    afterAll(async () => {
      await t.close();
    });
    // Every key of the table, once (a key added to or removed from the table must be added or removed here).
    const keys = {
      'POST /api/auth/register': true,
      'GET /api/auth/registration': true,
      'GET /api/auth/setup-link': true,
      'POST /api/auth/login': true,
      'POST /api/auth/login/2fa': true,
      'POST /api/auth/logout': true,
      'GET /api/auth/me': true,
      'POST /api/auth/request-reset': true,
      'POST /api/auth/reset-password': true,
      'POST /api/auth/change-password': true,
      'DELETE /api/auth/account': true,
      'GET /api/auth/sessions': true,
      'DELETE /api/auth/sessions/:id': true,
      'POST /api/auth/sessions/revoke-others': true,
      'GET /api/auth/api-tokens': true,
      'POST /api/auth/api-tokens': true,
      'DELETE /api/auth/api-tokens/:id': true,
      'GET /api/auth/2fa': true,
      'POST /api/auth/2fa/setup': true,
      'POST /api/auth/2fa/enable': true,
      'POST /api/auth/2fa/disable': true,
      'POST /api/auth/2fa/recovery-codes': true,
      'GET /api/settings': true,
      'PATCH /api/settings': true,
      'GET /api/settings/holiday-regions': true,
      'GET /api/settings/schedules': true,
      'DELETE /api/settings/schedules/:id': true,
      'GET /api/time-entries': true,
      'POST /api/time-entries': true,
      'POST /api/time-entries/start': true,
      'POST /api/time-entries/stop': true,
      'GET /api/time-entries/current': true,
      'PATCH /api/time-entries/:id': true,
      'DELETE /api/time-entries/:id': true,
      'GET /api/time-entries/absences': true,
      'POST /api/time-entries/absences': true,
      'DELETE /api/time-entries/absences/:id': true,
      'DELETE /api/time-entries/absences/requests/:id': true,
      'POST /api/requests/:id/withdraw': true,
      'POST /api/requests/:id/cancel': true,
      'GET /api/time-entries/bookings': true,
      'POST /api/time-entries/bookings': true,
      'DELETE /api/time-entries/bookings/:id': true,
      'GET /api/stats/today': true,
      'GET /api/stats/week': true,
      'GET /api/stats/overtime': true,
      'GET /api/stats/vacation': true,
      'GET /api/stats/month': true,
      'GET /api/months': true,
      'POST /api/months/:month/submit': true,
      'GET /api/requests': true,
      'POST /api/requests/:id/approve': true,
      'POST /api/requests/:id/reject': true,
      'GET /api/months/waiting': true,
      'GET /api/users/:id/months/:month': true,
      'POST /api/users/:id/months/:month/approve': true,
      'POST /api/users/:id/months/:month/return': true,
      'POST /api/users/:id/months/:month/reopen': true,
      'GET /api/users': true,
      'PATCH /api/users/:id': true,
      'POST /api/users/:id/disable': true,
      'POST /api/users/:id/enable': true,
      'POST /api/users/:id/unlock': true,
      'POST /api/users/:id/two-factor-reset': true,
      'POST /api/users/:id/reset-link': true,
      'GET /api/audit': true,
      'GET /api/time-entries/export': true,
      'GET /api/settings/export': true,
      'GET /api/stats/month.csv': true,
      'GET /api/stats/month.pdf': true,
      'GET /api/teams': true,
      'POST /api/invitations/preview': true,
      'POST /api/invitations/accept': true,
      'GET /api/teams/:id/overview': true,
      'GET /api/teams/:id/calendar': true,
      'GET /api/users/:id/stats/week': true,
      'GET /api/users/:id/stats/month': true,
      'GET /api/users/:id/stats/month.pdf': true,
      'POST /api/teams': true,
      'GET /api/teams/:id': true,
      'PATCH /api/teams/:id': true,
      'DELETE /api/teams/:id': true,
      'PUT /api/teams/:id/members/:userId': true,
      'DELETE /api/teams/:id/members/:userId': true,
      'GET /api/invitations': true,
      'POST /api/invitations': true,
      'POST /api/invitations/:id/resend': true,
      'DELETE /api/invitations/:id': true,
      'GET /api/notices': true,
      'POST /api/notices/:id/read': true,
      'POST /api/notices/read-all': true,
    } satisfies Record<keyof Routes | keyof DownloadRoutes, true>;
    it.each(Object.keys(BODIES))('%s: the body fields of its schema', async (key) => {
      const doc = (await get(t.app, '/api/openapi.json')).json();
      const body = operationOf(doc, key)?.requestBody?.content['application/json']?.schema;
      expect(body && schemaFields(body)).toEqual(sorted(BODIES[key as BodyRoute]));
    });
    it.each(Object.keys(QUERIES))('%s: the query fields of its schema', async (key) => {
      const doc = (await get(t.app, '/api/openapi.json')).json();
      const query = (operationOf(doc, key)?.parameters ?? []).filter((parameter) => parameter.in === 'query');
      const names = query.map((parameter) => parameter.name);
      const required = query.filter((parameter) => parameter.required).map((parameter) => parameter.name);
      expect({ required: required.sort(), optional: names.filter((name) => !required.includes(name)).sort() }).toEqual(sorted(QUERIES[key as QueryRoute]));
    });
    it.each(Object.keys(keys))('%s', (key) => {
      const [method, url] = key.split(' ') as [string, string];
      // Fastify lists a route under its path as registered ('' for a prefix's root, not '/').
      const registered = t.app.hasRoute({ method: method as 'GET', url }) || t.app.hasRoute({ method: method as 'GET', url: `${url}/` });
      expect(registered).toBe(true);
    });
  });
});
