// Notices in process (docs/notices.md): recorded once by key, the missing-day reminder from
// NOTIFY_HOUR in each account's zone (a day with a target and nothing recorded; not a day with an
// absence, without a target, a public holiday, or with reminders off), once a day, and the lead's
// digest from its providers. The mail and several processes: test/serve/notices.process.test.ts and
// test/postgres/notices-processes.process.test.ts.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { addEntry, signIn, type SignedIn } from '../support/requests.js';
import { expectError } from '../support/expectations.js';
import { createNoticeService, recordNotice, type PendingProvider } from '../../src/teams/index.js';

let t: TestApp;
let ann: SignedIn;
beforeEach(async () => {
  // Sessions outlive the weeks the clock moves through.
  t = await createTestApp({ env: { JWT_EXPIRATION: '365d' } });
  t.clock.set('2026-03-02T09:00:00.000Z');
  ann = await signIn(t);
});
afterEach(async () => {
  await t.close();
});

const notices = () => t.ctx.services.notices;
const keysOf = async () => (await t.ctx.db.selectFrom('notices').select(['key', 'user_id']).orderBy('id').execute()).map((row) => row.key);

describe('recordNotice', () => {
  it('records a notice once per key, in the caller transaction', async () => {
    const first = await t.ctx.database.transact((trx) => recordNotice(trx, { userId: ann.userId, kind: 'test', key: 'test:1', data: { n: 1 } }));
    const again = await t.ctx.database.transact((trx) => recordNotice(trx, { userId: ann.userId, kind: 'test', key: 'test:1', data: { n: 2 } }));
    expect([first, again]).toEqual([true, false]);
    // A transaction that is rolled back records nothing.
    await expect(
      t.ctx.database.transact(async (trx) => {
        await recordNotice(trx, { userId: ann.userId, kind: 'test', key: 'test:2', data: {} });
        throw new Error('rolled back');
      }),
    ).rejects.toThrow('rolled back');
    const listed = (await ann.call('GET', '/api/notices')).json();
    expect(listed).toMatchObject({ unread: 1, notices: [{ kind: 'test', data: { n: 1 }, read_at: null }] });
  });
});

describe('the missing-day reminder', () => {
  it('reminds of a day with a target and nothing recorded, from NOTIFY_HOUR in the account zone, once', async () => {
    const bob = await signIn(t, 'bob@example.com'); // an absence on Monday
    const cara = await signIn(t, 'cara@example.com'); // reminders off
    const dan = await signIn(t, 'dan@example.com'); // worked on Monday
    const nell = await signIn(t, 'nell@example.com'); // in New York
    await bob.call('POST', '/api/time-entries/absences', { date: '2026-03-16', type: 'sick' });
    expect((await cara.call('PATCH', '/api/settings', { reminders_enabled: false })).json()).toMatchObject({ reminders_enabled: false });
    await addEntry(dan, '2026-03-16T08:00:00.000Z', '2026-03-16T12:00:00.000Z');
    await nell.call('PATCH', '/api/settings', { timezone: 'America/New_York', timezone_valid_from: '2026-03-02' });
    expect((await ann.call('GET', '/api/settings')).json()).toMatchObject({ reminders_enabled: true });

    // Monday morning: Sunday had no target.
    t.clock.set('2026-03-16T09:00:00.000Z');
    await notices().remindMissingDays();
    expect(await keysOf()).toEqual([]);
    // Tuesday 06:59 UTC: before the hour for everyone.
    t.clock.set('2026-03-17T06:59:00.000Z');
    expect(await notices().remindMissingDays()).toEqual({ looked: 0, reminded: 0 });
    // 07:00 UTC: Ann (UTC) is reminded; New York is still at 03:00.
    t.clock.set('2026-03-17T07:00:00.000Z');
    expect(await notices().remindMissingDays()).toEqual({ looked: 4, reminded: 1 });
    expect(await keysOf()).toEqual([`missing-day:${ann.userId}:2026-03-16`]);
    // 07:00 in New York (EDT, UTC−4).
    t.clock.set('2026-03-17T11:00:00.000Z');
    expect(await notices().remindMissingDays()).toEqual({ looked: 1, reminded: 1 });
    expect(await keysOf()).toEqual([`missing-day:${ann.userId}:2026-03-16`, `missing-day:${nell.userId}:2026-03-16`]);
    // Later rounds the same day: nobody is looked at again.
    t.clock.set('2026-03-17T20:00:00.000Z');
    expect(await notices().remindMissingDays()).toEqual({ looked: 0, reminded: 0 });
    const listed = (await ann.call('GET', '/api/notices')).json();
    expect(listed).toMatchObject({ unread: 1, notices: [{ kind: 'missing-day', data: { date: '2026-03-16', target_minutes: 480 } }] });
  });

  it('does not remind of a public holiday of the account region', async () => {
    await ann.call('PATCH', '/api/settings', { holiday_region: 'DE' });
    t.clock.set('2026-04-07T08:00:00.000Z'); // Easter Monday was 2026-04-06
    expect(await notices().remindMissingDays()).toEqual({ looked: 1, reminded: 0 });
    t.clock.set('2026-04-08T08:00:00.000Z'); // Tuesday had a target
    expect(await notices().remindMissingDays()).toEqual({ looked: 1, reminded: 1 });
  });

  it('looks at accounts in batches, a turn of the event loop between two', async () => {
    for (const name of ['b', 'c', 'd', 'e']) await signIn(t, `${name}@example.com`);
    const service = createNoticeService({
      database: t.ctx.database,
      clock: t.clock,
      statistics: t.ctx.services.statistics,
      pending: [],
      mailer: { mode: 'none' },
      report: { failed: () => undefined, notMailed: () => undefined },
      options: { hour: 7, retrySeconds: 60, attempts: 3, batch: 2 },
    });
    t.clock.set('2026-03-17T08:00:00.000Z');
    let turns = 0;
    const tick = setInterval(() => (turns += 1), 0);
    const round = await service.remindMissingDays();
    clearInterval(tick);
    expect(round).toEqual({ looked: 5, reminded: 5 });
    expect(turns).toBeGreaterThan(0);
  });
});

describe('the bell', () => {
  it('lists the account own notices newest first, marks one and all read, and 404 for another account notice', async () => {
    const bob = await signIn(t, 'bob@example.com');
    for (const n of [1, 2, 3]) await recordNotice(t.ctx.db, { userId: ann.userId, kind: 'test', key: `t:${n}`, data: { n } });
    await recordNotice(t.ctx.db, { userId: bob.userId, kind: 'test', key: 'b:1', data: {} });
    const listed = (await ann.call('GET', '/api/notices')).json();
    expect(listed.unread).toBe(3);
    expect(listed.notices.map((notice: { data: { n: number } }) => notice.data.n)).toEqual([3, 2, 1]);
    const bobs = (await bob.call('GET', '/api/notices')).json().notices[0];
    expectError(await ann.call('POST', `/api/notices/${bobs.id}/read`), 404, 'NOT_FOUND');
    expect((await ann.call('POST', `/api/notices/${listed.notices[1].id}/read`)).statusCode).toBe(204);
    expect((await ann.call('GET', '/api/notices')).json().unread).toBe(2);
    expect((await ann.call('POST', '/api/notices/read-all')).json()).toEqual({ read: 2 });
    expect((await ann.call('GET', '/api/notices')).json().unread).toBe(0);
    expect((await bob.call('GET', '/api/notices')).json().unread).toBe(1);
  });
});

describe("the lead's digest", () => {
  it('lists what waits for a lead, from NOTIFY_HOUR in its zone, once a day, and nothing when nothing waits', async () => {
    const lea = await signIn(t, 'lea@example.com');
    await t.ctx.db.updateTable('users').set({ role: 'lead' }).where('id', '=', lea.userId).execute();
    const team = await t.ctx.db
      .insertInto('teams')
      .values({ name: 'Kitchen', name_key: 'kitchen', created_at: '2026-03-02T09:00:00.000Z' })
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.ctx.db.insertInto('team_members').values({ team_id: team.id, user_id: lea.userId, role: 'lead' }).execute();
    const waiting = new Map<number, Array<{ kind: string; id: number; person: string; summary: string }>>();
    const provider: PendingProvider = { pending: async (leadId) => waiting.get(leadId) ?? [] };
    const service = createNoticeService({
      database: t.ctx.database,
      clock: t.clock,
      statistics: t.ctx.services.statistics,
      pending: [provider],
      mailer: { mode: 'none' },
      report: { failed: () => undefined, notMailed: () => undefined },
      options: { hour: 7, retrySeconds: 60, attempts: 3 },
    });
    t.clock.set('2026-03-17T08:00:00.000Z');
    expect(await service.sendDigests()).toEqual({ looked: 1, digests: 0 }); // nothing waits
    t.clock.set('2026-03-18T06:00:00.000Z');
    waiting.set(lea.userId, [{ kind: 'leave-request', id: 7, person: 'Max', summary: '2026-04-01 – 2026-04-03' }]);
    expect(await service.sendDigests()).toEqual({ looked: 0, digests: 0 }); // before the hour
    t.clock.set('2026-03-18T07:30:00.000Z');
    expect(await service.sendDigests()).toEqual({ looked: 1, digests: 1 });
    expect(await service.sendDigests()).toEqual({ looked: 0, digests: 0 }); // once a day
    expect(await keysOf()).toEqual([`lead-digest:${lea.userId}:2026-03-18`]);
    const listed = (await lea.call('GET', '/api/notices')).json();
    expect(listed.notices[0]).toMatchObject({ kind: 'lead-digest', data: { date: '2026-03-18', items: [{ kind: 'leave-request', id: 7, person: 'Max' }] } });
    // Ann is no lead: never looked at.
    expect((await ann.call('GET', '/api/notices')).json().notices).toEqual([]);
  });
});
