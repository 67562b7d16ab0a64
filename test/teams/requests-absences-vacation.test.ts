// Leave requests (docs/teams.md, "Leave requests"), through the application in process, on both
// engines: vacation of a person in a team that requires approval is requested, holds its days and
// changes no figure until a lead of the person's team (or an admin) approves it; rejected, withdrawn
// and cancelled requests are no absences any more; nobody decides their own; a second decision is
// 409 ALREADY_DECIDED.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OPERATOR } from '../../src/teams/index.js';
import { pendingLeaveRequests, pendingMonths } from '../../src/teams/notices-pending.js';
import { createTestApp, PASSWORD, type TestApp } from '../support/app.js';
import { expectError } from '../support/expectations.js';
import { signIn, type SignedIn } from '../support/requests.js';

let t: TestApp;
let ann: SignedIn; // admin, in no team
let lea: SignedIn; // lead of Kitchen
let max: SignedIn; // member of Kitchen
let olga: SignedIn; // lead of Bar
let nina: SignedIn; // member of Bar
let kitchen: number;

async function person(email: string, role: 'admin' | 'lead' | 'member'): Promise<SignedIn> {
  const user = await signIn(t, email);
  await t.ctx.services.people.setRole(user.userId, role);
  await user.call('PATCH', '/api/settings', { tracking_start: '2026-01-01', vacation_days_per_year: 10 });
  return user;
}

beforeEach(async () => {
  t = await createTestApp(); // the clock: Monday 2026-03-02, 09:00 UTC
  ann = await person('ann@example.com', 'admin');
  lea = await person('lea@example.com', 'lead');
  max = await person('max@example.com', 'member');
  olga = await person('olga@example.com', 'lead');
  nina = await person('nina@example.com', 'member');
  const { teams } = t.ctx.services;
  kitchen = (await teams.create(OPERATOR, 'Kitchen')).id;
  const bar = (await teams.create(OPERATOR, 'Bar')).id;
  await teams.putMember(OPERATOR, kitchen, lea.userId, 'lead');
  await teams.putMember(OPERATOR, kitchen, max.userId, 'member');
  await teams.putMember(OPERATOR, bar, olga.userId, 'lead');
  await teams.putMember(OPERATOR, bar, nina.userId, 'member');
});
afterEach(async () => {
  await t.close();
});

/** Max's vacation of 9 to 13 March (five working days), as a request. */
async function maxAsks(body: object = { from: '2026-03-09', to: '2026-03-13' }): Promise<number> {
  const made = await max.call('POST', '/api/time-entries/absences', { type: 'vacation', ...body });
  expect(made.statusCode).toBe(201);
  const absences = made.json().absences ?? [made.json().absence];
  for (const absence of absences) expect(absence).toMatchObject({ state: 'requested', decided_at: null, decision_note: null });
  return absences[0].request_id;
}

const figures = async (user: SignedIn) => ({
  vacation: (await user.call('GET', '/api/stats/vacation?year=2026')).json(),
  week: (await user.call('GET', '/api/stats/week?date=2026-03-09')).json().totals,
  balance: (await user.call('GET', '/api/stats/overtime')).json().balance_minutes,
});

describe('requested absences', () => {
  it('a team requires approval by default; an admin turns it off and on, a lead may not', async () => {
    expect((await lea.call('GET', `/api/teams/${kitchen}`)).json().team).toMatchObject({ name: 'Kitchen', absence_approval: 'required' });
    expectError(await lea.call('PATCH', `/api/teams/${kitchen}`, { absence_approval: 'none' }), 403, 'FORBIDDEN');
    const off = await ann.call('PATCH', `/api/teams/${kitchen}`, { absence_approval: 'none' });
    expect(off.json()).toEqual({ team: expect.objectContaining({ id: kitchen, name: 'Kitchen', absence_approval: 'none' }) });
    expectError(await ann.call('PATCH', `/api/teams/${kitchen}`, {}), 400, 'VALIDATION_ERROR');
    expectError(await ann.call('PATCH', `/api/teams/${kitchen}`, { absence_approval: 'maybe' }), 400, 'VALIDATION_ERROR');
    // With `none`, Max books as a person in no team does.
    const booked = await max.call('POST', '/api/time-entries/absences', { date: '2026-03-09', type: 'vacation' });
    expect(booked.json().absence).toMatchObject({ state: 'booked' });
    expect((await max.call('GET', '/api/requests')).json()).toEqual({ requests: [] });
    const audit = await t.ctx.services.audit.list({ action: 'team_approval_changed' });
    expect(audit.map((row) => [row.actor, row.detail])).toEqual([[`user:${ann.userId}`, { team: kitchen, absence_approval: 'none' }]]);
  });

  it('hold their days and change no target, balance or taken day until approved; sick days and people in no team book at once', async () => {
    const before = await figures(max);
    const id = await maxAsks();
    await maxAsks({ date: '2026-02-27' }); // a past day: the balance would count it
    const during = await figures(max);
    expect(during.week).toEqual(before.week);
    expect(during.balance).toBe(before.balance);
    expect(during.vacation).toMatchObject({ taken_days: 0, planned_days: 0, requested_days: 6, remaining_days: before.vacation.remaining_days - 6 });
    const week = (await max.call('GET', '/api/stats/week?date=2026-03-09')).json();
    expect(week.days[0]).toMatchObject({ absence: null, target_minutes: 480 });
    // The day is held: no second absence on it.
    expectError(await max.call('POST', '/api/time-entries/absences', { date: '2026-03-10', type: 'sick' }), 409, 'ABSENCE_EXISTS');
    // Its days go only through the request.
    const listed = (await max.call('GET', '/api/time-entries/absences?from=2026-03-01&to=2026-04-01')).json().absences;
    expectError(await max.call('DELETE', `/api/time-entries/absences/${listed[0].id}`), 403, 'FORBIDDEN');
    expectError(await max.call('DELETE', `/api/time-entries/absences/requests/${id}`), 403, 'FORBIDDEN');
    // A sick day is immediate.
    const sick = await max.call('POST', '/api/time-entries/absences', { date: '2026-03-16', type: 'sick' });
    expect(sick.json().absence).toMatchObject({ state: 'booked' });
    expect((await max.call('GET', '/api/stats/week?date=2026-03-16')).json().days[0]).toMatchObject({ absence: 'sick', target_minutes: 0 });
    // Ann is in no team: her vacation counts at once.
    const own = await ann.call('POST', '/api/time-entries/absences', { date: '2026-03-09', type: 'vacation' });
    expect(own.json().absence).toMatchObject({ state: 'booked' });
    expect((await figures(ann)).vacation).toMatchObject({ planned_days: 1, requested_days: 0 });
  });

  it('approved: the days count, the person sees who decided, when and the note; a second decision is 409', async () => {
    const before = await figures(max);
    const id = await maxAsks();
    t.clock.set('2026-03-02T10:00:00.000Z');
    const approved = await lea.call('POST', `/api/requests/${id}/approve`, { note: 'Enjoy' });
    expect(approved.statusCode).toBe(200);
    expect(approved.json().request).toMatchObject({
      id,
      person: { id: max.userId, email: 'max@example.com' },
      from: '2026-03-09',
      to: '2026-03-13',
      portion: 'full',
      days: 5,
      state: 'approved',
      exceeds_allowance: false,
      note: 'Enjoy',
      decided_by: { id: lea.userId, full_name: expect.any(String) },
      decided_at: '2026-03-02T10:00:00.000Z',
    });
    const after = await figures(max);
    expect(after.vacation).toMatchObject({ planned_days: 5, requested_days: 0, remaining_days: before.vacation.remaining_days - 5 });
    // A past day approved: the balance no longer counts its target.
    const past = await maxAsks({ date: '2026-02-27' });
    expect((await figures(max)).balance).toBe(before.balance);
    await lea.call('POST', `/api/requests/${past}/approve`);
    expect(await figures(max)).toMatchObject({ balance: before.balance + 480, vacation: { taken_days: 1, planned_days: 5 } });
    expect((await max.call('GET', '/api/stats/week?date=2026-03-09')).json().days[0]).toMatchObject({ absence: 'vacation', target_minutes: 0 });
    const absences = (await max.call('GET', '/api/time-entries/absences?from=2026-03-09&to=2026-03-14')).json().absences;
    expect(absences).toHaveLength(5);
    for (const absence of absences) expect(absence).toMatchObject({ state: 'approved', decided_at: '2026-03-02T10:00:00.000Z', decision_note: 'Enjoy' });
    expect((await max.call('GET', '/api/requests')).json().requests[1]).toEqual(approved.json().request);
    expectError(await lea.call('POST', `/api/requests/${id}/approve`), 409, 'ALREADY_DECIDED');
    expectError(await ann.call('POST', `/api/requests/${id}/reject`), 409, 'ALREADY_DECIDED');
    const audit = await t.ctx.services.audit.list({ action: 'leave_request_decided' });
    expect(audit.map((row) => [row.actor, row.user_id, row.detail]).reverse()).toEqual([
      [`user:${lea.userId}`, max.userId, { request: id, decision: 'approve', from: 'requested', to: 'approved', note: 'Enjoy' }],
      [`user:${lea.userId}`, max.userId, { request: past, decision: 'approve', from: 'requested', to: 'approved' }],
    ]);
  });

  it('show in the team calendar as requested to the lead, not to another member, until approved', async () => {
    await t.ctx.services.teams.putMember(OPERATOR, kitchen, nina.userId, 'member');
    const id = await maxAsks({ date: '2026-03-09', portion: 'half' });
    const dayOf = async (reader: SignedIn) => {
      const calendar = (await reader.call('GET', `/api/teams/${kitchen}/calendar?month=2026-03`)).json();
      const row = calendar.members.find((member: { user: { id: number } }) => member.user.id === max.userId);
      return row.days.find((day: { date: string }) => day.date === '2026-03-09');
    };
    expect(await dayOf(lea)).toMatchObject({ target: true, absence: { type: 'vacation', portion: 'half', state: 'requested' } });
    expect((await dayOf(max)).absence).toEqual({ type: 'vacation', portion: 'half', state: 'requested' });
    expect((await dayOf(nina)).absence).toBeNull();
    expect((await lea.call('POST', `/api/requests/${id}/approve`, {})).statusCode).toBe(200);
    expect((await dayOf(lea)).absence).toEqual({ type: 'vacation', portion: 'half', state: 'approved' });
    expect((await dayOf(nina)).absence).toEqual({ type: 'away', portion: 'half' });
  });

  it('in a closed month: approving the days, or their cancellation, is 409 MONTH_LOCKED; rejecting and withdrawing change no figure and go through', async () => {
    // February is over (the clock: 2 March), so Max may submit it.
    const asked = await maxAsks({ date: '2026-02-23' });
    const approvedBefore = await maxAsks({ date: '2026-02-24' });
    expect((await lea.call('POST', `/api/requests/${approvedBefore}/approve`, {})).statusCode).toBe(200);
    expect((await max.call('POST', `/api/requests/${approvedBefore}/cancel`)).statusCode).toBe(200);
    const third = await maxAsks({ date: '2026-02-25' });
    expect((await max.call('POST', '/api/months/2026-02/submit', {})).statusCode).toBe(200);
    expect((await lea.call('POST', `/api/users/${max.userId}/months/2026-02/approve`, {})).statusCode).toBe(200);
    // The month's figures, without the vacation block of its year (which the requests move).
    const february = async () => ({ ...(await max.call('GET', '/api/stats/month?month=2026-02')).json(), vacation: undefined });
    const before = await february();
    const locked = await lea.call('POST', `/api/requests/${asked}/approve`, {});
    expect([locked.statusCode, locked.json()]).toMatchObject([409, { code: 'MONTH_LOCKED', month: '2026-02' }]);
    const cancellation = await lea.call('POST', `/api/requests/${approvedBefore}/approve`, {});
    expect([cancellation.statusCode, cancellation.json()]).toMatchObject([409, { code: 'MONTH_LOCKED', month: '2026-02' }]);
    expect((await lea.call('POST', `/api/requests/${asked}/reject`, {})).statusCode).toBe(200);
    expect((await max.call('POST', `/api/requests/${third}/withdraw`)).statusCode).toBe(200);
    expect((await lea.call('POST', `/api/requests/${approvedBefore}/reject`, {})).statusCode).toBe(200);
    expect(await february()).toEqual(before);
    expect((await max.call('GET', `/api/users/${max.userId}/months/2026-02/verify`)).json()).toMatchObject({ matches: true });
  });

  it('the person hears of each decision and of a returned month under the bell; the lead finds them in its digest while they wait', async () => {
    const db = t.ctx.database.db;
    const id = await maxAsks({ date: '2026-02-23' });
    expect((await max.call('POST', '/api/months/2026-02/submit', {})).statusCode).toBe(200);
    expect(await pendingLeaveRequests(db).pending(lea.userId)).toEqual([
      { kind: 'leave-request', id, person: expect.any(String), summary: 'vacation 2026-02-23' },
    ]);
    expect(await pendingMonths(db).pending(lea.userId)).toEqual([
      { kind: 'month', id: `${max.userId}:2026-02`, person: expect.any(String), summary: 'month 2026-02 submitted' },
    ]);
    // Nothing of another team's people, nor of the lead's own.
    expect(await pendingLeaveRequests(db).pending(olga.userId)).toEqual([]);
    expect(await pendingMonths(db).pending(olga.userId)).toEqual([]);
    expect((await lea.call('POST', `/api/requests/${id}/approve`, { note: 'Enjoy' })).statusCode).toBe(200);
    expect((await lea.call('POST', `/api/users/${max.userId}/months/2026-02/return`, { comment: 'The 23rd is missing' })).statusCode).toBe(200);
    expect(await pendingLeaveRequests(db).pending(lea.userId)).toEqual([]);
    expect(await pendingMonths(db).pending(lea.userId)).toEqual([]);
    const { notices } = (await max.call('GET', '/api/notices')).json();
    expect(notices.map((notice: { kind: string; data: object }) => [notice.kind, notice.data])).toEqual([
      ['month-returned', { month: '2026-02', comment: 'The 23rd is missing' }],
      ['request-decided', { request: id, approved: true, cancellation: false, from: '2026-02-23', to: '2026-02-23', note: 'Enjoy' }],
    ]);
    expect((await max.call('POST', `/api/requests/${id}/cancel`)).statusCode).toBe(200);
    expect((await lea.call('POST', `/api/requests/${id}/reject`, {})).statusCode).toBe(200);
    const latest = (await max.call('GET', '/api/notices')).json().notices[0];
    expect(latest).toMatchObject({ kind: 'request-decided', data: { request: id, approved: false, cancellation: true, note: null } });
  });

  it('rejected or withdrawn: the absences are gone; only the person withdraws (anyone else finds nothing), only while it waits', async () => {
    const before = await figures(max);
    const rejected = await maxAsks();
    expect((await lea.call('POST', `/api/requests/${rejected}/reject`, { note: 'Busy week' })).json().request).toMatchObject({
      state: 'rejected',
      note: 'Busy week',
    });
    expect((await max.call('GET', '/api/time-entries/absences?from=2026-03-09&to=2026-03-14')).json().absences).toEqual([]);
    expect(await figures(max)).toEqual(before);
    expectError(await max.call('POST', `/api/requests/${rejected}/withdraw`), 409, 'ALREADY_DECIDED');

    const withdrawn = await maxAsks({ date: '2026-03-10', portion: 'half' });
    expect((await max.call('GET', '/api/stats/vacation?year=2026')).json()).toMatchObject({ requested_days: 0.5 });
    expectError(await lea.call('POST', `/api/requests/${withdrawn}/withdraw`), 404, 'NOT_FOUND');
    expectError(await olga.call('POST', `/api/requests/${withdrawn}/withdraw`), 404, 'NOT_FOUND');
    expect((await max.call('POST', `/api/requests/${withdrawn}/withdraw`)).json().request).toMatchObject({ state: 'withdrawn', days: 0.5, portion: 'half' });
    expect(await figures(max)).toEqual(before);
    expectError(await lea.call('POST', `/api/requests/${withdrawn}/approve`), 409, 'ALREADY_DECIDED');
    // The days are free again.
    expect((await max.call('POST', '/api/time-entries/absences', { date: '2026-03-10', type: 'sick' })).statusCode).toBe(201);
  });

  it('cancelling approved vacation is a request: the days stay until a lead approves the cancellation; rejecting it keeps them', async () => {
    const before = await figures(max);
    const id = await maxAsks();
    expectError(await max.call('POST', `/api/requests/${id}/cancel`), 409, 'ALREADY_DECIDED'); // not approved yet: withdraw it
    await lea.call('POST', `/api/requests/${id}/approve`);
    const approved = await figures(max);
    expect((await max.call('POST', `/api/requests/${id}/cancel`)).json().request).toMatchObject({ state: 'cancel_requested' });
    expect(await figures(max)).toEqual(approved);
    const absences = (await max.call('GET', '/api/time-entries/absences?from=2026-03-09&to=2026-03-14')).json().absences;
    for (const absence of absences) expect(absence).toMatchObject({ state: 'cancel_requested' });
    expect((await lea.call('POST', `/api/requests/${id}/reject`, { note: 'Needed' })).json().request).toMatchObject({ state: 'approved', note: 'Needed' });
    expect(await figures(max)).toEqual(approved);
    await max.call('POST', `/api/requests/${id}/cancel`);
    expect((await ann.call('POST', `/api/requests/${id}/approve`)).json().request).toMatchObject({ state: 'cancelled', decided_by: { id: ann.userId } });
    expect(await figures(max)).toEqual(before);
    expect((await max.call('GET', '/api/time-entries/absences?from=2026-03-09&to=2026-03-14')).json().absences).toEqual([]);
    expectError(await lea.call('POST', `/api/requests/${id}/reject`), 409, 'ALREADY_DECIDED');
  });

  it('a request beyond what remains is accepted with exceeds_allowance, which the lead sees', async () => {
    await max.call('PATCH', '/api/settings', { vacation_days_per_year: 2 });
    const made = await max.call('POST', '/api/time-entries/absences', { type: 'vacation', from: '2026-03-09', to: '2026-03-11' });
    expect(made.json()).toMatchObject({ exceeds_allowance: true, absences: [{ state: 'requested' }, {}, {}] });
    const [request] = (await lea.call('GET', '/api/requests?scope=team&state=requested')).json().requests;
    expect(request).toMatchObject({ person: { id: max.userId }, days: 3, exceeds_allowance: true, state: 'requested' });
    expect((await max.call('GET', '/api/stats/vacation?year=2026')).json()).toMatchObject({ requested_days: 3, remaining_days: -1 });
    const fits = await maxAsks({ date: '2026-01-05' });
    expect((await max.call('GET', '/api/requests')).json().requests.find((r: { id: number }) => r.id === fits)).toMatchObject({ exceeds_allowance: true });
  });
});

describe('who decides', () => {
  it('a lead of one of the person’s teams or an admin; another team’s lead finds nothing; a member may not; an API token may not', async () => {
    const id = await maxAsks();
    expectError(await olga.call('POST', `/api/requests/${id}/approve`), 404, 'NOT_FOUND');
    expectError(await nina.call('POST', `/api/requests/${id}/approve`), 404, 'NOT_FOUND');
    expectError(await max.call('POST', `/api/requests/${id}/approve`), 403, 'FORBIDDEN');
    expectError(await lea.call('POST', '/api/requests/999999/approve'), 404, 'NOT_FOUND');
    const token = await lea.call('POST', '/api/auth/api-tokens', { name: 'script', expires_in_days: 1, password: PASSWORD });
    const viaToken = await t.app.inject({ method: 'POST', url: `/api/requests/${id}/approve`, headers: { authorization: `Bearer ${token.json().token}` } });
    expectError(viaToken, 403, 'FORBIDDEN_FOR_API_TOKEN');
    expect((await ann.call('POST', `/api/requests/${id}/reject`)).json().request).toMatchObject({ state: 'rejected', decided_by: { id: ann.userId } });
  });

  it('nobody approves their own request (403 SELF_APPROVAL), an admin neither, unless nobody else could', async () => {
    const { teams } = t.ctx.services;
    // Lea's own vacation waits too (Kitchen requires approval); Ann decides it.
    const leas = (await lea.call('POST', '/api/time-entries/absences', { date: '2026-03-20', type: 'vacation' })).json().absence.request_id;
    expectError(await lea.call('POST', `/api/requests/${leas}/approve`), 403, 'SELF_APPROVAL');
    expectError(await lea.call('POST', `/api/requests/${leas}/reject`), 403, 'SELF_APPROVAL');
    await teams.putMember(OPERATOR, kitchen, ann.userId, 'member');
    const anns = (await ann.call('POST', '/api/time-entries/absences', { date: '2026-03-20', type: 'vacation' })).json().absence.request_id;
    expectError(await ann.call('POST', `/api/requests/${anns}/approve`), 403, 'SELF_APPROVAL');
    expect((await ann.call('POST', `/api/requests/${leas}/approve`)).json().request).toMatchObject({ state: 'approved' });
    expect((await lea.call('POST', `/api/requests/${anns}/approve`)).json().request).toMatchObject({ state: 'approved' });
    // The only admin, and no lead left: Ann may decide her own.
    for (const other of [lea, olga]) await t.ctx.services.people.setRole(other.userId, 'member');
    const alone = (await ann.call('POST', '/api/time-entries/absences', { date: '2026-03-23', type: 'vacation' })).json().absence.request_id;
    expect((await ann.call('POST', `/api/requests/${alone}/approve`)).json().request).toMatchObject({ state: 'approved', decided_by: { id: ann.userId } });
    // The operator at the shell decides any request, recorded with no account.
    const maxs = await maxAsks();
    expect(await t.ctx.services.requests.approve(OPERATOR, maxs, { auditActor: 'os:test' })).toMatchObject({ state: 'approved', decided_by: null });
  });

  it('lists: one’s own; with scope=team a lead’s people’s and an admin’s all; a member 403; by state', async () => {
    const maxs = await maxAsks();
    const ninas = (await nina.call('POST', '/api/time-entries/absences', { date: '2026-03-20', type: 'vacation' })).json().absence.request_id;
    const ids = async (user: SignedIn, query: string) => (await user.call('GET', `/api/requests${query}`)).json().requests.map((r: { id: number }) => r.id);
    expect(await ids(max, '')).toEqual([maxs]);
    expect(await ids(lea, '')).toEqual([]);
    expect(await ids(lea, '?scope=team')).toEqual([maxs]);
    expect(await ids(olga, '?scope=team')).toEqual([ninas]);
    expect(await ids(ann, '?scope=team')).toEqual([ninas, maxs]);
    expectError(await max.call('GET', '/api/requests?scope=team'), 403, 'FORBIDDEN');
    await lea.call('POST', `/api/requests/${maxs}/approve`);
    expect(await ids(ann, '?scope=team&state=requested')).toEqual([ninas]);
    expect(await ids(ann, '?scope=team&state=approved')).toEqual([maxs]);
    expectError(await ann.call('GET', '/api/requests?state=done'), 400, 'VALIDATION_ERROR');
  });
});
