// What the browser client needs of the API (docs/api.md): register in the browser's zone, validation
// errors that name their field, an overlap that names its entry, request-reset saying when no mail can be sent.
import { afterEach, describe, expect, it } from 'vitest';
import { account, createTestApp, type TestApp } from '../support/app.js';
import { expectError } from '../support/expectations.js';
import { addEntry, login, post, register, signIn, asUser } from '../support/requests.js';

const apps: TestApp[] = [];
afterEach(async () => {
  for (const t of apps.splice(0)) await t.close();
});
async function app(env: Record<string, string> = {}): Promise<TestApp> {
  const t = await createTestApp({ env });
  apps.push(t);
  return t;
}

describe('register with the browser zone', () => {
  it('an account registered at 16:30 in Los Angeles starts there: its zone, and today there as tracking start', async () => {
    const t = await app();
    // 2026-03-03T00:30Z is 16:30 on Monday 2 March in Los Angeles (and already Tuesday in UTC).
    t.clock.set('2026-03-03T00:30:00.000Z');
    const { user } = await register(t.app, account({ timezone: 'America/Los_Angeles' } as never));
    const ann = asUser(t, user.id, await login(t.app));
    const settings = (await ann.call('GET', '/api/settings')).json();
    expect(settings).toMatchObject({ timezone: 'America/Los_Angeles', tracking_start: '2026-03-02' });
    // Today's target counts: the first day is today, not tomorrow.
    expect((await ann.call('GET', '/api/stats/today')).json()).toMatchObject({ date: '2026-03-02', target_minutes: 480 });
  });

  it('without a zone the account is in UTC, as before', async () => {
    const t = await app();
    const ann = await signIn(t);
    expect((await ann.call('GET', '/api/settings')).json().timezone).toBe('UTC');
  });

  it('an unknown zone is a 400 naming the field, and no account is made', async () => {
    const t = await app();
    const body = expectError(await post(t.app, '/api/auth/register', account({ timezone: 'Berlin' } as never)), 400, 'VALIDATION_ERROR');
    expect(body.details).toEqual([{ field: 'timezone', message: expect.stringMatching(/^timezone must be an IANA time zone/) }]);
    expect(await t.ctx.db.selectFrom('users').select('id').execute()).toEqual([]);
  });
});

describe('validation errors name their field (details)', () => {
  it('a schema failure: the dotted path of the field', async () => {
    const t = await app();
    const ann = await signIn(t);
    const wrongType = expectError(await ann.call('PATCH', '/api/settings', { weekly_target_minutes: { mon: 'eight' } }), 400, 'VALIDATION_ERROR');
    expect(wrongType.details).toEqual([{ field: 'weekly_target_minutes.mon', message: expect.stringContaining('weekly_target_minutes.mon') }]);
    const missing = expectError(await ann.call('POST', '/api/time-entries', { note: 'no start' }), 400, 'VALIDATION_ERROR');
    expect(missing.details).toEqual([{ field: 'start_at', message: expect.any(String) }]);
  });

  it("a service's rule: the field it checks", async () => {
    const t = await app();
    const ann = await signIn(t);
    const region = expectError(await ann.call('PATCH', '/api/settings', { holiday_region: 'Germany' }), 400, 'VALIDATION_ERROR');
    expect(region.details).toEqual([{ field: 'holiday_region', message: region.message }]);
    const zone = expectError(await ann.call('PATCH', '/api/settings', { timezone: 'Berlin' }), 400, 'VALIDATION_ERROR');
    expect(zone.details?.[0].field).toBe('timezone');
    const target = expectError(await ann.call('PATCH', '/api/settings', { weekly_target_minutes: { tue: 2000 } }), 400, 'VALIDATION_ERROR');
    expect(target.details?.[0].field).toBe('weekly_target_minutes.tue');
    const backwards = expectError(
      await ann.call('POST', '/api/time-entries', { start_at: '2026-03-02T10:00:00Z', end_at: '2026-03-02T09:00:00Z' }),
      400,
      'VALIDATION_ERROR',
    );
    expect(backwards.details?.[0].field).toBe('end_at');
  });
});

describe('an overlap names the entry in the way', () => {
  it('OVERLAP answers its id and times; a Start while an entry covers now too', async () => {
    const t = await app();
    const ann = await signIn(t);
    t.clock.set('2026-03-02T11:00:00.000Z');
    const id = await addEntry(ann, '2026-03-02T10:00:00Z', '2026-03-02T12:00:00Z', 'now');
    const clash = expectError(
      await ann.call('POST', '/api/time-entries', { start_at: '2026-03-02T11:00:00Z', end_at: '2026-03-02T13:00:00Z' }),
      409,
      'OVERLAP',
    );
    expect(clash.entry).toEqual({ id, start_at: '2026-03-02T10:00:00.000Z', end_at: '2026-03-02T12:00:00.000Z' });
    const start = expectError(await ann.call('POST', '/api/time-entries/start', {}), 409, 'OVERLAP');
    expect(start.entry?.id).toBe(id);
  });
});

describe('an entry planned later today (docs/time-model.md)', () => {
  it('does not block Start now; the stop ends the timer where that entry starts, never overlapping it', async () => {
    const t = await app();
    const ann = await signIn(t);
    t.clock.set('2026-03-02T08:00:00.000Z');
    const meeting = await addEntry(ann, '2026-03-02T13:00:00Z', '2026-03-02T14:00:00Z', 'afternoon meeting');
    const started = await ann.call('POST', '/api/time-entries/start', {});
    expect(started.statusCode, started.body).toBe(201);
    // Still running at 15:00: the stop ends it at 13:00, where the meeting starts.
    t.clock.set('2026-03-02T15:00:00.000Z');
    const stopped = await ann.call('POST', '/api/time-entries/stop', {});
    expect(stopped.statusCode, stopped.body).toBe(200);
    expect(stopped.json().entry).toMatchObject({ start_at: '2026-03-02T08:00:00.000Z', end_at: '2026-03-02T13:00:00.000Z' });
    const listed = (await ann.call('GET', '/api/time-entries?from=2026-03-02&to=2026-03-03')).json();
    expect(listed.entries.map((entry: { id: number }) => entry.id)).toContain(meeting);
  });
});

describe('request-reset tells whether mail can be sent, the same for every address', () => {
  it('without SMTP: delivery "none" and a sentence saying to ask the administrator', async () => {
    const t = await app();
    await register(t.app);
    const known = (await post(t.app, '/api/auth/request-reset', { email: 'ann@example.com' })).json();
    const unknown = (await post(t.app, '/api/auth/request-reset', { email: 'nobody@example.com' })).json();
    expect(known).toEqual(unknown);
    expect(known).toEqual({ delivery: 'none', message: expect.stringMatching(/ask the administrator/) });
  });

  it('with SMTP: delivery "mail"', async () => {
    const t = await app({ SMTP_HOST: '127.0.0.1', SMTP_PORT: '9', SMTP_FROM: 'timetrack@example.org', PUBLIC_URL: 'https://time.example.org/' });
    const answer = (await post(t.app, '/api/auth/request-reset', { email: 'nobody@example.com' })).json();
    expect(answer).toEqual({ delivery: 'mail', message: expect.stringMatching(/reset link has been sent/) });
  });
});
