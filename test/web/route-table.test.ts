// The client's route table (src/http/routes-table.ts): a call of `api()` names a route the server has,
// with the params, query and body that route takes; a wrong path or body does not compile (the
// `@ts-expect-error` lines below fail `npm run typecheck` as soon as they compile).
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import type { Entry, Settings } from '../../src/http/contract.js';
import type { DownloadRoutes, Routes } from '../../src/http/routes-table.js';
import { routeUrl, type Answer, type ApiCall } from '../../src/web/routes.js';
import { createTestApp, type TestApp } from '../support/app.js';

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
      'POST /api/auth/register': true, 'POST /api/auth/login': true, 'POST /api/auth/login/2fa': true, 'POST /api/auth/logout': true,
      'GET /api/auth/me': true, 'POST /api/auth/request-reset': true, 'POST /api/auth/reset-password': true, 'POST /api/auth/change-password': true,
      'DELETE /api/auth/account': true, 'GET /api/auth/sessions': true, 'DELETE /api/auth/sessions/:id': true, 'POST /api/auth/sessions/revoke-others': true,
      'GET /api/auth/api-tokens': true, 'POST /api/auth/api-tokens': true, 'DELETE /api/auth/api-tokens/:id': true, 'GET /api/auth/2fa': true,
      'POST /api/auth/2fa/setup': true, 'POST /api/auth/2fa/enable': true, 'POST /api/auth/2fa/disable': true, 'POST /api/auth/2fa/recovery-codes': true,
      'GET /api/settings': true, 'PATCH /api/settings': true, 'GET /api/settings/holiday-regions': true, 'GET /api/settings/schedules': true,
      'DELETE /api/settings/schedules/:id': true, 'GET /api/time-entries': true, 'POST /api/time-entries': true, 'POST /api/time-entries/start': true,
      'POST /api/time-entries/stop': true, 'GET /api/time-entries/current': true, 'PATCH /api/time-entries/:id': true, 'DELETE /api/time-entries/:id': true,
      'GET /api/time-entries/absences': true, 'POST /api/time-entries/absences': true, 'DELETE /api/time-entries/absences/:id': true,
      'GET /api/time-entries/bookings': true, 'POST /api/time-entries/bookings': true, 'DELETE /api/time-entries/bookings/:id': true,
      'GET /api/stats/today': true, 'GET /api/stats/week': true, 'GET /api/stats/overtime': true, 'GET /api/stats/vacation': true, 'GET /api/stats/month': true,
      'GET /api/time-entries/export': true, 'GET /api/settings/export': true, 'GET /api/stats/month.csv': true, 'GET /api/stats/month.pdf': true,
    } satisfies Record<keyof Routes | keyof DownloadRoutes, true>;
    it.each(Object.keys(keys))('%s', (key) => {
      const [method, url] = key.split(' ') as [string, string];
      // Fastify lists a route under its path as registered ('' for a prefix's root, not '/').
      const registered = t.app.hasRoute({ method: method as 'GET', url }) || t.app.hasRoute({ method: method as 'GET', url: `${url}/` });
      expect(registered).toBe(true);
    });
  });
});
