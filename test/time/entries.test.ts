// /api/time-entries: every route and error code (docs/time-model.md, docs/api.md), and isolation between users.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { addEntry, asUser, login, type SignedIn, signIn } from '../support/requests.js';

let t: TestApp;
let ann: SignedIn;
beforeEach(async () => {
  t = await createTestApp();
  t.clock.set('2026-03-02T12:00:00.000Z');
  ann = await signIn(t);
});
afterEach(async () => {
  await t.close();
});

describe('authentication', () => {
  it('answers 401 with WWW-Authenticate on every route without a valid token', async () => {
    const routes: Array<['GET' | 'POST' | 'PATCH' | 'DELETE', string]> = [
      ['GET', '/api/time-entries'],
      ['POST', '/api/time-entries'],
      ['POST', '/api/time-entries/start'],
      ['POST', '/api/time-entries/stop'],
      ['GET', '/api/time-entries/current'],
      ['GET', '/api/time-entries/absences'],
      ['POST', '/api/time-entries/absences'],
      ['DELETE', '/api/time-entries/absences/1'],
      ['GET', '/api/time-entries/export'],
      ['GET', '/api/time-entries/1'],
      ['PATCH', '/api/time-entries/1'],
      ['DELETE', '/api/time-entries/1'],
      ['GET', '/api/settings'],
      ['PATCH', '/api/settings'],
    ];
    for (const [method, url] of routes) {
      for (const headers of [{}, { authorization: 'Bearer a.b.c' }]) {
        const response = await t.app.inject({ method, url, headers });
        expect(response.statusCode, `${method} ${url}`).toBe(401);
        expect(response.json().code).toBe('UNAUTHORIZED');
        expect(response.headers['www-authenticate']).toBe('Bearer');
      }
    }
  });
});

describe('entries', () => {
  it('creates, reads, lists, updates and deletes an entry', async () => {
    const created = await ann.call('POST', '/api/time-entries', { start_at: '2026-03-02T08:00:00+01:00', end_at: '2026-03-02T09:30:00Z', note: ' planning ' });
    expect(created.statusCode).toBe(201);
    const entry = created.json().entry;
    expect(entry).toEqual({
      id: expect.any(Number),
      start_at: '2026-03-02T07:00:00.000Z',
      end_at: '2026-03-02T09:30:00.000Z',
      note: 'planning',
      created_at: '2026-03-02T12:00:00.000Z',
      updated_at: '2026-03-02T12:00:00.000Z',
      auto_stopped: false,
    });

    expect((await ann.call('GET', `/api/time-entries/${entry.id}`)).json()).toEqual({ entry });
    t.clock.advance(60);
    const patched = await ann.call('PATCH', `/api/time-entries/${entry.id}`, { end_at: '2026-03-02T10:00:00Z', note: 'review' });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().entry).toMatchObject({ end_at: '2026-03-02T10:00:00.000Z', note: 'review', updated_at: '2026-03-02T12:01:00.000Z' });

    const list = await ann.call('GET', '/api/time-entries');
    expect(list.json().entries.map((e: { id: number }) => e.id)).toEqual([entry.id]);

    expect((await ann.call('DELETE', `/api/time-entries/${entry.id}`)).statusCode).toBe(204);
    const gone = await ann.call('GET', `/api/time-entries/${entry.id}`);
    expect(gone.statusCode).toBe(404);
    expect(gone.json().code).toBe('NOT_FOUND');
  });

  it('lists the entries overlapping a range, oldest first, with instants or local dates', async () => {
    const monday = await addEntry(ann, '2026-02-23T08:00:00Z', '2026-02-23T12:00:00Z');
    const lateSunday = await addEntry(ann, '2026-03-01T22:00:00Z', '2026-03-02T01:00:00Z');
    const tuesday = await addEntry(ann, '2026-03-03T08:00:00Z', '2026-03-03T12:00:00Z');
    const ids = async (query: string) => (await ann.call('GET', `/api/time-entries${query}`)).json().entries.map((e: { id: number }) => e.id);
    expect(await ids('')).toEqual([monday, lateSunday, tuesday]);
    expect(await ids('?from=2026-03-02&to=2026-03-03')).toEqual([lateSunday]);
    expect(await ids('?from=2026-03-02T00:30:00Z')).toEqual([lateSunday, tuesday]);
    expect(await ids('?to=2026-03-01T22:00:00Z')).toEqual([monday]);
    // Dates are midnight in the user's zone: in Tokyo, 2026-03-02 starts at 2026-03-01T15:00Z.
    await ann.call('PATCH', '/api/settings', { timezone: 'Asia/Tokyo', timezone_valid_from: '1970-01-01' });
    expect(await ids('?from=2026-03-03&to=2026-03-04')).toEqual([tuesday]);
    expect(await ids('?from=2026-03-02&to=2026-03-03')).toEqual([lateSunday]);

    for (const query of ['?from=yesterday', '?to=2026-03-02T10:00:00', '?from=2026-03-05&to=2026-03-01']) {
      const bad = await ann.call('GET', `/api/time-entries${query}`);
      expect(bad.statusCode, query).toBe(400);
      expect(bad.json().code).toBe('VALIDATION_ERROR');
    }
  });

  it('refuses an end before the start, malformed instants and bad ids with 400 VALIDATION_ERROR', async () => {
    const bodies = [
      { start_at: '2026-03-02T10:00:00Z', end_at: '2026-03-02T09:00:00Z' },
      { start_at: '2026-03-02T10:00:00Z', end_at: '2026-03-02T10:00:00Z' },
      { start_at: '2026-03-02 10:00' },
      { start_at: '2026-03-02T10:00:00' },
      { end_at: '2026-03-02T10:00:00Z' },
      { start_at: '2026-03-02T13:00:00Z' }, // a running entry starting in the future
      { start_at: '2026-03-02T08:00:00Z', end_at: '2026-03-02T09:00:00Z', note: 'x'.repeat(1001) },
      { start_at: '2026-01-01T08:00:00Z', end_at: '2026-02-01T08:00:01Z' }, // longer than 31 days
      { start_at: '1969-12-31T23:00:00Z', end_at: '1970-01-01T01:00:00Z' },
    ];
    for (const body of bodies) {
      const response = await ann.call('POST', '/api/time-entries', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().code).toBe('VALIDATION_ERROR');
    }
    const id = await addEntry(ann, '2026-03-02T08:00:00Z', '2026-03-02T09:00:00Z');
    expect((await ann.call('PATCH', `/api/time-entries/${id}`, { end_at: '2026-03-02T07:00:00Z' })).json().code).toBe('VALIDATION_ERROR');
    expect((await ann.call('GET', '/api/time-entries/abc')).json().code).toBe('VALIDATION_ERROR');
    expect((await ann.call('GET', '/api/time-entries/0')).statusCode).toBe(400);
  });

  it('refuses overlapping entries with 409 OVERLAP; touching entries are fine', async () => {
    const first = await addEntry(ann, '2026-03-02T08:00:00Z', '2026-03-02T10:00:00Z');
    const clashes = [
      ['2026-03-02T09:00:00Z', '2026-03-02T11:00:00Z'],
      ['2026-03-02T07:00:00Z', '2026-03-02T08:30:00Z'],
      ['2026-03-02T08:15:00Z', '2026-03-02T08:45:00Z'],
      ['2026-03-02T07:00:00Z', '2026-03-02T11:00:00Z'],
    ];
    for (const [start_at, end_at] of clashes) {
      const response = await ann.call('POST', '/api/time-entries', { start_at, end_at });
      expect(response.statusCode, `${start_at}–${end_at}`).toBe(409);
      expect(response.json().code).toBe('OVERLAP');
    }
    const second = await addEntry(ann, '2026-03-02T10:00:00Z', '2026-03-02T11:00:00Z');
    await addEntry(ann, '2026-03-02T07:00:00Z', '2026-03-02T08:00:00Z');
    // Moving an entry onto another is an overlap too; moving it within its own time is not.
    expect((await ann.call('PATCH', `/api/time-entries/${second}`, { start_at: '2026-03-02T09:59:00Z' })).json().code).toBe('OVERLAP');
    expect((await ann.call('PATCH', `/api/time-entries/${first}`, { start_at: '2026-03-02T08:30:00Z' })).statusCode).toBe(200);
    // A running entry occupies everything after its start.
    t.clock.set('2026-03-02T12:00:00Z');
    expect((await ann.call('POST', '/api/time-entries/start')).statusCode).toBe(201);
    const afterRunning = await ann.call('POST', '/api/time-entries', { start_at: '2026-03-02T12:30:00Z', end_at: '2026-03-02T13:00:00Z' });
    expect(afterRunning.json().code).toBe('OVERLAP');
  });

  it('runs one timer: start 201, second start 409 ALREADY_RUNNING, current, stop 200, stop again 409 NOT_RUNNING', async () => {
    expect((await ann.call('GET', '/api/time-entries/current')).json()).toEqual({ entry: null });
    const started = await ann.call('POST', '/api/time-entries/start', { note: 'deep work' });
    expect(started.statusCode).toBe(201);
    expect(started.json().entry).toMatchObject({ start_at: '2026-03-02T12:00:00.000Z', end_at: null, note: 'deep work' });

    const again = await ann.call('POST', '/api/time-entries/start');
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('ALREADY_RUNNING');
    const runningByPost = await ann.call('POST', '/api/time-entries', { start_at: '2026-03-02T06:00:00Z' });
    expect(runningByPost.json().code).toBe('ALREADY_RUNNING');

    expect((await ann.call('GET', '/api/time-entries/current')).json().entry.id).toBe(started.json().entry.id);
    t.clock.advance(90 * 60);
    const stopped = await ann.call('POST', '/api/time-entries/stop');
    expect(stopped.statusCode).toBe(200);
    expect(stopped.json().entry).toMatchObject({ id: started.json().entry.id, end_at: '2026-03-02T13:30:00.000Z' });
    expect((await ann.call('GET', '/api/time-entries/current')).json()).toEqual({ entry: null });

    const stopAgain = await ann.call('POST', '/api/time-entries/stop');
    expect(stopAgain.statusCode).toBe(409);
    expect(stopAgain.json().code).toBe('NOT_RUNNING');

    // end_at null makes an entry run (again); a second one cannot.
    const resumed = await ann.call('PATCH', `/api/time-entries/${started.json().entry.id}`, { end_at: null });
    expect(resumed.json().entry.end_at).toBeNull();
    const other = await addEntry(ann, '2026-03-02T08:00:00Z', '2026-03-02T09:00:00Z');
    expect((await ann.call('PATCH', `/api/time-entries/${other}`, { end_at: null })).json().code).toBe('ALREADY_RUNNING');
  });

  it('refuses to start when a finished entry reaches past now (409 OVERLAP)', async () => {
    await addEntry(ann, '2026-03-02T11:00:00Z', '2026-03-02T13:00:00Z');
    const response = await ann.call('POST', '/api/time-entries/start');
    expect(response.statusCode).toBe(409);
    expect(response.json().code).toBe('OVERLAP');
  });

  it("answers 404 NOT_FOUND for another user's entry on read, update and delete, and leaves it alone", async () => {
    const bob = await signIn(t, 'bob@example.com');
    const id = await addEntry(ann, '2026-03-02T08:00:00Z', '2026-03-02T09:00:00Z', 'mine');
    for (const [method, payload] of [
      ['GET', undefined],
      ['PATCH', { note: 'stolen' }],
      ['DELETE', undefined],
    ] as const) {
      const response = await bob.call(method, `/api/time-entries/${id}`, payload);
      expect(response.statusCode, method).toBe(404);
      expect(response.json().code).toBe('NOT_FOUND');
    }
    expect((await bob.call('GET', '/api/time-entries')).json()).toEqual({ entries: [] });
    // Bob's entries may overlap Ann's: the rule is per user.
    await addEntry(bob, '2026-03-02T08:00:00Z', '2026-03-02T09:00:00Z');
    expect((await ann.call('GET', `/api/time-entries/${id}`)).json().entry.note).toBe('mine');
  });

  it('ignores a token in the query string', async () => {
    const response = await t.app.inject({ method: 'GET', url: `/api/time-entries?access_token=${ann.token}` });
    expect(response.statusCode).toBe(401);
  });
});

describe('absences', () => {
  it('creates, lists by range, refuses a second absence on the same day, deletes', async () => {
    const created = await ann.call('POST', '/api/time-entries/absences', { date: '2026-03-04', type: 'vacation', note: 'ski' });
    expect(created.statusCode).toBe(201);
    expect(created.json()).toEqual({
      absence: {
        id: expect.any(Number),
        date: '2026-03-04',
        type: 'vacation',
        portion: 'full',
        note: 'ski',
        request_id: created.json().absence.id,
        state: 'booked',
        decided_at: null,
        decision_note: null,
      },
    });
    const sick = await ann.call('POST', '/api/time-entries/absences', { date: '2026-03-06', type: 'sick' });
    expect(sick.json().absence).toMatchObject({ type: 'sick', note: '' });

    const twice = await ann.call('POST', '/api/time-entries/absences', { date: '2026-03-04', type: 'sick' });
    expect(twice.statusCode).toBe(409);
    expect(twice.json().code).toBe('ABSENCE_EXISTS');

    const dates = async (query: string) => (await ann.call('GET', `/api/time-entries/absences${query}`)).json().absences.map((a: { date: string }) => a.date);
    expect(await dates('')).toEqual(['2026-03-04', '2026-03-06']);
    expect(await dates('?from=2026-03-05')).toEqual(['2026-03-06']);
    expect(await dates('?to=2026-03-06')).toEqual(['2026-03-04']);
    expect(await dates('?from=2026-03-04&to=2026-03-06T08:00:00Z')).toEqual(['2026-03-04', '2026-03-06']);

    expect((await ann.call('DELETE', `/api/time-entries/absences/${created.json().absence.id}`)).statusCode).toBe(204);
    expect(await dates('')).toEqual(['2026-03-06']);
    const again = await ann.call('DELETE', `/api/time-entries/absences/${created.json().absence.id}`);
    expect(again.statusCode).toBe(404);
    expect(again.json().code).toBe('NOT_FOUND');
  });

  it('refuses a bad date or type with 400 VALIDATION_ERROR', async () => {
    for (const body of [
      { date: '2026-02-30', type: 'vacation' },
      { date: '04.03.2026', type: 'vacation' },
      { date: '2026-03-04', type: 'party' },
      { type: 'sick' },
    ]) {
      const response = await ann.call('POST', '/api/time-entries/absences', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().code).toBe('VALIDATION_ERROR');
    }
  });

  it("answers 404 for another user's absence, lists only one's own, and lets both have the same day", async () => {
    const bob = await signIn(t, 'bob@example.com');
    const id = (await ann.call('POST', '/api/time-entries/absences', { date: '2026-03-04', type: 'vacation' })).json().absence.id;
    const response = await bob.call('DELETE', `/api/time-entries/absences/${id}`);
    expect(response.statusCode).toBe(404);
    expect(response.json().code).toBe('NOT_FOUND');
    expect((await bob.call('GET', '/api/time-entries/absences')).json()).toEqual({ absences: [] });
    expect((await bob.call('POST', '/api/time-entries/absences', { date: '2026-03-04', type: 'sick' })).statusCode).toBe(201);
    expect((await ann.call('GET', '/api/time-entries/absences')).json().absences).toHaveLength(1);
  });
});

describe('settings', () => {
  it('answers the defaults, then the whole object after a partial PATCH', async () => {
    const defaults = await ann.call('GET', '/api/settings');
    expect(defaults.statusCode).toBe(200);
    expect(defaults.json()).toEqual({
      timezone: 'UTC',
      zones: [{ valid_from: '2026-03-02', timezone: 'UTC' }],
      weekly_target_minutes: { mon: 480, tue: 480, wed: 480, thu: 480, fri: 480, sat: 0, sun: 0 },
      targets_valid_from: '2026-03-02',
      holiday_region: null,
      overtime_offset_minutes: 0,
      tracking_start: '2026-03-02',
      break_rules: [],
      min_break_minutes: 15,
      vacation_days_per_year: null,
      vacation_carry_over_max_days: null,
      vacation_taken_before_tracking_days: null,
      // A new account has the forgotten-timer limit on (docs/time-model.md).
      timer_limit_minutes: 720,
      suggest_timer_limit: false,
      reminders_enabled: true,
    });
    const patched = await ann.call('PATCH', '/api/settings', {
      timezone: 'europe/berlin',
      timezone_valid_from: '1970-01-01',
      weekly_target_minutes: { fri: 240 },
      holiday_region: 'de-by',
      overtime_offset_minutes: -90,
      tracking_start: '2026-01-01',
    });
    expect(patched.statusCode).toBe(200);
    const expected = {
      timezone: 'Europe/Berlin',
      // From a day on or before the tracking start: every day counts in the new zone.
      zones: [{ valid_from: '2026-01-01', timezone: 'Europe/Berlin' }],
      weekly_target_minutes: { mon: 480, tue: 480, wed: 480, thu: 480, fri: 240, sat: 0, sun: 0 },
      // The new targets apply from today on (in the new zone); the days before keep the defaults.
      targets_valid_from: '2026-03-02',
      holiday_region: 'DE-BY',
      overtime_offset_minutes: -90,
      tracking_start: '2026-01-01',
      break_rules: [],
      min_break_minutes: 15,
      vacation_days_per_year: null,
      vacation_carry_over_max_days: null,
      vacation_taken_before_tracking_days: null,
      timer_limit_minutes: 720,
      suggest_timer_limit: false,
      reminders_enabled: true,
    };
    expect(patched.json()).toEqual(expected);
    expect((await ann.call('GET', '/api/settings')).json()).toEqual(expected);
    // Another user keeps the defaults.
    const bob = await signIn(t, 'bob@example.com');
    expect((await bob.call('GET', '/api/settings')).json().timezone).toBe('UTC');
    // null resets the region and the tracking start.
    const reset = await ann.call('PATCH', '/api/settings', { holiday_region: null, tracking_start: null });
    expect(reset.json()).toMatchObject({ holiday_region: null, tracking_start: '2026-03-02' });
  });

  it('refuses an unknown time zone or region, a negative or too large target, and a bad date with 400 VALIDATION_ERROR', async () => {
    const bodies = [
      { timezone: 'Mars/Olympus' },
      { holiday_region: 'XX' },
      { holiday_region: 'DE-ZZ' },
      { weekly_target_minutes: { mon: -1 } },
      { weekly_target_minutes: { tue: 1441 } },
      { weekly_target_minutes: { wed: 7.5 } },
      { overtime_offset_minutes: 1.5 },
      { tracking_start: '2026-13-01' },
    ];
    for (const body of bodies) {
      const response = await ann.call('PATCH', '/api/settings', body);
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(response.json().code).toBe('VALIDATION_ERROR');
    }
    expect((await ann.call('GET', '/api/settings')).json().timezone).toBe('UTC');
  });
});

describe('a timer forgotten for more than 31 days', () => {
  it('cannot be stopped blindly (400 VALIDATION_ERROR) but can be given its end with PATCH', async () => {
    const started = (await ann.call('POST', '/api/time-entries/start')).json().entry;
    t.clock.advance(32 * 86_400);
    // The old session has expired meanwhile.
    ann = asUser(t, ann.userId, await login(t.app));
    const stop = await ann.call('POST', '/api/time-entries/stop');
    expect(stop.statusCode).toBe(400);
    expect(stop.json().message).toMatch(/at most 31 days/);
    const fixed = await ann.call('PATCH', `/api/time-entries/${started.id}`, { end_at: '2026-03-02T17:00:00Z' });
    expect(fixed.statusCode).toBe(200);
    expect((await ann.call('GET', '/api/time-entries/current')).json()).toEqual({ entry: null });
  });
});

describe('OpenAPI', () => {
  it('documents every time-tracking route from its schemas', async () => {
    const document = (await t.app.inject({ method: 'GET', url: '/api/openapi.json' })).json();
    const paths = Object.keys(document.paths);
    for (const path of [
      '/api/time-entries/',
      '/api/time-entries/start',
      '/api/time-entries/stop',
      '/api/time-entries/current',
      '/api/time-entries/absences',
      '/api/time-entries/absences/{id}',
      '/api/time-entries/export',
      '/api/time-entries/{id}',
      '/api/settings/',
      '/api/stats/week',
      '/api/stats/overtime',
      '/api/stats/today',
    ]) {
      expect(paths, path).toContain(path);
    }
    expect(Object.keys(document.paths['/api/time-entries/{id}'])).toEqual(expect.arrayContaining(['get', 'patch', 'delete']));
  });
});
