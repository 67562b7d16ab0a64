// The forgotten timer (docs/time-model.md): with timer_limit_minutes, a running entry counts up to its
// start plus the limit, housekeeping stops it there and marks it auto_stopped until its end is set again.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { expectError } from '../support/expectations.js';
import { asUser, login, type SignedIn, signIn } from '../support/requests.js';

let t: TestApp;
let ann: SignedIn;
beforeEach(async () => {
  t = await createTestApp();
  t.clock.set('2026-03-16T08:00:00.000Z');
  ann = await signIn(t);
});
afterEach(async () => {
  await t.close();
});

async function at(iso: string): Promise<void> {
  t.clock.set(iso);
  ann = asUser(t, ann.userId, await login(t.app));
}

describe('the forgotten timer', () => {
  it('is stopped by housekeeping at its start plus the limit and marked, until its end is set again', async () => {
    expect((await ann.call('PATCH', '/api/settings', { timer_limit_minutes: 720 })).json()).toMatchObject({ timer_limit_minutes: 720 });
    const started = (await ann.call('POST', '/api/time-entries/start')).json().entry;
    expect(started.auto_stopped).toBe(false);
    const bob = await signIn(t, 'bob@example.com'); // no limit: runs on
    await bob.call('PATCH', '/api/settings', { timer_limit_minutes: null });
    await bob.call('POST', '/api/time-entries/start');
    await at('2026-03-16T19:59:00.000Z');
    expect(await t.ctx.services.timeEntries.stopForgottenTimers()).toBe(0);
    await at('2026-03-17T06:00:00.000Z');
    // Before housekeeping runs, the figures already count up to the limit only.
    const before = (await ann.call('GET', '/api/stats/week?date=2026-03-16')).json();
    expect(before.days[0].worked_minutes).toBe(720);
    expect(await t.ctx.services.timeEntries.stopForgottenTimers()).toBe(1);
    expect((await ann.call('GET', '/api/time-entries/current')).json()).toEqual({ entry: null });
    const stopped = (await ann.call('GET', `/api/time-entries/${started.id}`)).json().entry;
    expect(stopped).toMatchObject({ start_at: '2026-03-16T08:00:00.000Z', end_at: '2026-03-16T20:00:00.000Z', auto_stopped: true });
    expect((await ann.call('GET', '/api/stats/week?date=2026-03-16')).json().days[0].worked_minutes).toBe(720);
    expect((await bob.call('GET', '/api/time-entries/current')).json().entry).not.toBeNull();
    // The one-click fix: the end as it really was; the mark goes.
    const fixed = (await ann.call('PATCH', `/api/time-entries/${started.id}`, { end_at: '2026-03-16T16:30:00.000Z' })).json().entry;
    expect(fixed).toMatchObject({ end_at: '2026-03-16T16:30:00.000Z', auto_stopped: false });
    expect((await ann.call('GET', '/api/stats/week?date=2026-03-16')).json().days[0].worked_minutes).toBe(510);
    expect(await t.ctx.services.timeEntries.stopForgottenTimers()).toBe(0);
  });

  it('refuses a limit outside 1 minute to 31 days; null turns it off', async () => {
    for (const limit of [0, 44_641, 1.5]) {
      const refused = expectError(await ann.call('PATCH', '/api/settings', { timer_limit_minutes: limit }), 400, 'VALIDATION_ERROR');
      expect(refused.details?.[0].field).toBe('timer_limit_minutes');
    }
    await ann.call('PATCH', '/api/settings', { timer_limit_minutes: 60 });
    expect((await ann.call('PATCH', '/api/settings', { timer_limit_minutes: null })).json().timer_limit_minutes).toBeNull();
  });
});
