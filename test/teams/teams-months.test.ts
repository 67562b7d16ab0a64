// Closed months (docs/teams.md, "Closed months"; docs/api.md, "Months") through the application in
// process, on both engines: submitting once a month is over, a lead's or an admin's decision through
// `can`, no approval of one's own month, an admin's reopening with its audit, the months of a year
// and of a team, the seal of an approved month, and housekeeping's auto-lock.
import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { OPERATOR } from '../../src/teams/index.js';
import { createTestApp, PASSWORD, type TestApp } from '../support/app.js';
import { login, request, type Method } from '../support/requests.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** The kitchen: admin Xena, lead Lea of A with member Max, lead Ole of B with member Nia (the clock: Monday 2026-03-02). */
async function kitchen() {
  t = await createTestApp();
  const { accounts, people, teams } = t.ctx.services;
  const make = async (name: string, role: 'admin' | 'lead' | 'member') => {
    const user = await accounts.createAccount({ email: `${name.toLowerCase()}@example.com`, password: PASSWORD, full_name: name });
    if (role !== 'member') await people.setRole(user.id, role);
    return { id: user.id, token: await login(t!.app, user.email) };
  };
  const world = {
    X: await make('Xena', 'admin'),
    L: await make('Lea', 'lead'),
    M: await make('Max', 'member'),
    O: await make('Ole', 'lead'),
    N: await make('Nia', 'member'),
  };
  const a = await teams.create(OPERATOR, 'A');
  const b = await teams.create(OPERATOR, 'B');
  await teams.putMember(OPERATOR, a.id, world.L.id, 'lead');
  await teams.putMember(OPERATOR, a.id, world.M.id, 'member');
  await teams.putMember(OPERATOR, b.id, world.O.id, 'lead');
  await teams.putMember(OPERATOR, b.id, world.N.id, 'member');
  return { ...world, teams: { A: a.id, B: b.id } };
}

async function call(token: string, method: Method, url: string, payload?: unknown) {
  const response = await request(t!.app, method, url, { token, payload });
  return { status: response.statusCode, body: response.body ? response.json() : undefined };
}

/** The canonical JSON of docs/teams.md, "The seal", written out here once more. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const keys = Object.keys(value).sort();
    return `{${keys.map((key) => `${JSON.stringify(key)}:${canonical((value as Record<string, unknown>)[key])}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

describe('closed months', () => {
  it('are submitted once over, decided by a lead or an admin of the person, never by the person', async () => {
    const w = await kitchen();
    expect(await call(w.M.token, 'POST', '/api/months/2026-03/submit')).toMatchObject({ status: 409, body: { code: 'MONTH_NOT_OVER' } });
    expect(await call(w.M.token, 'POST', '/api/months/2026-13/submit')).toMatchObject({ status: 400 });
    expect(await call(w.M.token, 'POST', '/api/months/2026-02/submit')).toMatchObject({
      status: 200,
      body: { month: { month: '2026-02', state: 'submitted', submitted_by: w.M.id } },
    });
    expect(await call(w.M.token, 'POST', '/api/months/2026-02/submit')).toMatchObject({ status: 409, body: { code: 'MONTH_STATE' } });

    const approve = (who: { token: string }, body: object = {}) => call(who.token, 'POST', `/api/users/${w.M.id}/months/2026-02/approve`, body);
    expect(await approve(w.O)).toMatchObject({ status: 404 });
    expect(await approve(w.M)).toMatchObject({ status: 403, body: { code: 'FORBIDDEN' } });
    expect(await call(w.L.token, 'POST', `/api/users/${w.M.id}/months/2026-02/return`, { comment: '  ' })).toMatchObject({ status: 400 });
    expect(await call(w.L.token, 'POST', `/api/users/${w.M.id}/months/2026-02/return`, { comment: 'the 12th is missing' })).toMatchObject({
      status: 200,
      body: { month: { state: 'returned', comment: 'the 12th is missing', decided_by: w.L.id } },
    });
    expect(await approve(w.L)).toMatchObject({ status: 409, body: { code: 'MONTH_STATE' } });
    expect(await call(w.M.token, 'POST', '/api/months/2026-02/submit')).toMatchObject({ status: 200 });

    // Two approvals at once leave one decision.
    const both = await Promise.all([approve(w.L, { comment: 'fine' }), approve(w.X)]);
    expect(both.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const year = await call(w.M.token, 'GET', '/api/months?year=2026');
    expect(year.body.months).toHaveLength(12);
    expect(year.body.months[1]).toMatchObject({ month: '2026-02', state: 'approved' });
    expect(year.body.months[0]).toMatchObject({ month: '2026-01', state: 'open', digest: null });

    const team = await call(w.L.token, 'GET', `/api/teams/${w.teams.A}/months?month=2026-02`);
    expect(team.body.members.map((row: any) => [row.user.id, row.state])).toEqual([
      [w.L.id, 'open'],
      [w.M.id, 'approved'],
    ]);
    expect(await call(w.M.token, 'GET', `/api/teams/${w.teams.A}/months?month=2026-02`)).toMatchObject({ status: 403 });
    expect(await call(w.O.token, 'GET', `/api/teams/${w.teams.A}/months?month=2026-02`)).toMatchObject({ status: 404 });
  });

  it("wait for a decision in the list of their lead and of admins only, never in the lead's own; a person's month reads within the reach", async () => {
    const w = await kitchen();
    for (const who of [w.M, w.L, w.N]) expect((await call(who.token, 'POST', '/api/months/2026-01/submit')).status).toBe(200);
    expect((await call(w.M.token, 'POST', '/api/months/2026-02/submit')).status).toBe(200);
    const waiting = async (who: { token: string }) => {
      const answer = await call(who.token, 'GET', '/api/months/waiting');
      return answer.status === 200
        ? answer.body.months.map((m: { user: { id: number }; month: string; state: string }) => [m.user.id, m.month, m.state])
        : answer.status;
    };
    // Lea leads A (Max): his two months, oldest first, not her own; Ole leads B (Nia); Xena sees all; a member may not ask.
    expect(await waiting(w.L)).toEqual([
      [w.M.id, '2026-01', 'submitted'],
      [w.M.id, '2026-02', 'submitted'],
    ]);
    expect(await waiting(w.O)).toEqual([[w.N.id, '2026-01', 'submitted']]);
    expect(((await waiting(w.X)) as unknown[]).length).toBe(4);
    expect(await waiting(w.M)).toBe(403);
    // Decided: out of the list.
    expect((await call(w.L.token, 'POST', `/api/users/${w.M.id}/months/2026-01/approve`, {})).status).toBe(200);
    expect((await call(w.L.token, 'POST', `/api/users/${w.M.id}/months/2026-02/return`, { comment: 'Tuesday is missing' })).status).toBe(200);
    expect(await waiting(w.L)).toEqual([]);

    const read = (who: { token: string }, id: number, month: string) => call(who.token, 'GET', `/api/users/${id}/months/${month}`);
    expect(await read(w.L, w.M.id, '2026-02')).toMatchObject({
      status: 200,
      body: { month: { month: '2026-02', state: 'returned', comment: 'Tuesday is missing' } },
    });
    expect(await read(w.M, w.M.id, '2026-01')).toMatchObject({ status: 200, body: { month: { state: 'approved', decided_by: w.L.id } } });
    expect(await read(w.X, w.M.id, '2025-12')).toMatchObject({ status: 200, body: { month: { state: 'open', digest: null } } });
    expect(await read(w.O, w.M.id, '2026-01')).toMatchObject({ status: 404, body: { code: 'USER_NOT_FOUND' } });
    expect(await read(w.M, w.L.id, '2026-01')).toMatchObject({ status: 404 });
    expect(await read(w.L, w.M.id, '2026-1')).toMatchObject({ status: 400 });
  });

  it('refuse approving your own month, also for an admin, unless one admin and no lead exist', async () => {
    const w = await kitchen();
    for (const who of [w.L, w.X]) {
      expect(await call(who.token, 'POST', '/api/months/2026-01/submit')).toMatchObject({ status: 200 });
      expect(await call(who.token, 'POST', `/api/users/${who.id}/months/2026-01/approve`, {})).toMatchObject({ status: 403, body: { code: 'SELF_APPROVAL' } });
    }
    // Lea's month is decided by the admin; once no lead is left, the only admin approves her own.
    expect(await call(w.X.token, 'POST', `/api/users/${w.L.id}/months/2026-01/approve`, {})).toMatchObject({ status: 200 });
    for (const lead of [w.L, w.O]) await t!.ctx.services.people.setRole(lead.id, 'member');
    expect(await call(w.X.token, 'POST', `/api/users/${w.X.id}/months/2026-01/approve`, {})).toMatchObject({
      status: 200,
      body: { month: { state: 'approved' } },
    });
  });

  it('seal the approved figures, verify them, and reopen only by an admin with a reason, audited', async () => {
    const w = await kitchen();
    await t!.ctx.services.settings.updateSettings(w.M.id, { tracking_start: '2026-02-01' });
    expect(await call(w.M.token, 'POST', '/api/time-entries', { start_at: '2026-02-10T08:00:00Z', end_at: '2026-02-10T16:30:00Z' })).toMatchObject({
      status: 201,
    });
    await call(w.M.token, 'POST', '/api/months/2026-02/submit');
    const approved = await call(w.L.token, 'POST', `/api/users/${w.M.id}/months/2026-02/approve`, {});
    const { vacation: _vacation, seal: _seal, ...figures } = (await call(w.M.token, 'GET', '/api/stats/month?month=2026-02')).body;
    expect(approved.body.month.digest).toBe(createHash('sha256').update(canonical(figures), 'utf8').digest('hex'));
    expect(await call(w.L.token, 'GET', `/api/users/${w.M.id}/months/2026-02/verify`)).toMatchObject({ status: 200, body: { matches: true } });
    expect(await call(w.O.token, 'GET', `/api/users/${w.M.id}/months/2026-02/verify`)).toMatchObject({ status: 404 });

    // A change behind the lock's back (straight into the database) shows as a difference.
    await t!.ctx.db
      .insertInto('bookings')
      .values({ user_id: w.M.id, date: '2026-02-11', minutes: 30, kind: 'correction', note: '', created_at: '2026-03-02T09:00:00Z' })
      .execute();
    const verified = await call(w.M.token, 'GET', `/api/users/${w.M.id}/months/2026-02/verify`);
    expect(verified.body).toMatchObject({ matches: false, differences: ['balance_after_minutes', 'days/2026-02-11', 'totals'] });

    const reopen = (who: { token: string }, body: object) => call(who.token, 'POST', `/api/users/${w.M.id}/months/2026-02/reopen`, body);
    expect(await reopen(w.L, { reason: 'typo' })).toMatchObject({ status: 403 });
    expect(await reopen(w.X, {})).toMatchObject({ status: 400 });
    expect(await reopen(w.X, { reason: 'the 11th was wrong' })).toMatchObject({ status: 200, body: { month: { state: 'open', digest: null } } });
    expect(await reopen(w.X, { reason: 'again' })).toMatchObject({ status: 409, body: { code: 'MONTH_STATE' } });
    const [event] = await t!.ctx.services.audit.list({ action: 'month_reopened' });
    expect(event).toMatchObject({ actor: `user:${w.X.id}` });
    expect(JSON.stringify(event!.detail)).toContain(approved.body.month.digest);
    expect(JSON.stringify(event!.detail)).toContain('the 11th was wrong');
  });

  it('lock by themselves that many days after their end when the team says so (housekeeping, once)', async () => {
    const w = await kitchen();
    expect(await call(w.L.token, 'PATCH', `/api/teams/${w.teams.A}`, { auto_lock_after_days: 1 })).toMatchObject({ status: 403 });
    expect(await call(w.X.token, 'PATCH', `/api/teams/${w.teams.A}`, { auto_lock_after_days: 1 })).toMatchObject({
      status: 200,
      body: { team: { name: 'A', auto_lock_after_days: 1 } },
    });
    await call(w.M.token, 'POST', '/api/months/2026-02/submit');
    // 2 March: the 1st was the first day after February's end; one day has passed.
    const { months } = t!.ctx.services;
    expect(await Promise.all([months.lockOverdueMonths(), months.lockOverdueMonths()])).toSatisfy((counts: number[]) => counts[0]! + counts[1]! === 2);
    expect(await months.lockOverdueMonths()).toBe(0);
    expect((await months.status(w.M.id, '2026-02')).state).toBe('locked');
    expect((await months.status(w.L.id, '2026-02')).state).toBe('locked');
    expect((await months.status(w.N.id, '2026-02')).state).toBe('open');
  });
});
