// The lock of a closed month (docs/teams.md, "Closed months"), against a real `serve`, on both
// engines: every writing route that can change a day, with a request that touches the approved
// month, answers 409 MONTH_LOCKED naming the month, for the person, the lead and the admin alike, and
// the commands at the shell refuse the same. The table fails when a writing route of the OpenAPI
// document under the trees of figures has neither a row here nor a place in the list of routes that
// cannot change a day (like the permission test). The approved month's seal still matches at the end.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, PASSWORD } from '../support/app.js';
import { cli, createAccountWithCli, tempDb, kitchenWithLeaAndMax } from '../support/cli-accounts.js';
import { cliInProcess } from '../support/cli-in-process.js';
import { callJson, startServer, type RunningServer } from '../support/server.js';

/** The trees whose writing routes change figures of days. */
const FIGURE_TREES = ['/api/time-entries', '/api/settings', '/api/stats', '/api/users/:id/bookings'];

/** Writing routes of those trees that cannot change a day of a closed month, each with why. */
const CANNOT_CHANGE_A_CLOSED_DAY: Record<string, string> = {
  'POST /api/time-entries/start': 'starts now, in this month, which cannot be closed before it is over',
};

/** The month before this one (UTC): over, so it can be submitted and approved. */
function previousMonth(): string {
  const now = new Date();
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  return first.toISOString().slice(0, 7);
}
const LOCKED = previousMonth();
const day = (n: number) => `${LOCKED}-${String(n).padStart(2, '0')}`;
const lastDay = new Date(Date.UTC(Number(LOCKED.slice(0, 4)), Number(LOCKED.slice(5, 7)), 0)).toISOString().slice(0, 10);
const trackingStart = new Date(Date.UTC(Number(LOCKED.slice(0, 4)), Number(LOCKED.slice(5, 7)) - 2, 1)).toISOString().slice(0, 10);

interface World {
  server: RunningServer;
  db: string;
  M: { id: number; token: string };
  L: { token: string };
  X: { token: string };
  entry: number;
  absence: { id: number; request_id: number };
  booking: number;
  schedule: number;
}

let world: World;

async function signIn(server: RunningServer, email: string): Promise<string> {
  const answer = await callJson(server, 'POST', '/api/auth/login', { email, password: PASSWORD });
  expect(answer.status).toBe(200);
  return answer.body.token as string;
}

async function must(method: string, url: string, body: unknown, token: string, status = 200): Promise<any> {
  const answer = await callJson(world.server, method, url, body, token);
  expect(answer.status, `${method} ${url}: ${JSON.stringify(answer.body)}`).toBe(status);
  return answer.body;
}

beforeAll(async () => {
  const db = tempDb();
  await createAccountWithCli(db, 'xena@example.com', ['--role', 'admin']);
  await kitchenWithLeaAndMax(db);
  const server = await startServer(db);
  const [M, L, X] = [await signIn(server, 'max@example.com'), await signIn(server, 'lea@example.com'), await signIn(server, 'xena@example.com')];
  world = { server, db, M: { id: 0, token: M }, L: { token: L }, X: { token: X }, entry: 0, absence: { id: 0, request_id: 0 }, booking: 0, schedule: 0 };
  world.M.id = (await must('GET', '/api/auth/me', undefined, M)).user.id;
  // Max's month before it closes: an entry, an absence, a booking, a schedule, and a timer still running from its last evening.
  await must('PATCH', '/api/settings', { tracking_start: trackingStart, timer_limit_minutes: null }, M);
  world.entry = (await must('POST', '/api/time-entries', { start_at: `${day(10)}T08:00:00Z`, end_at: `${day(10)}T16:00:00Z` }, M, 201)).entry.id;
  world.absence = (await must('POST', '/api/time-entries/absences', { date: day(13), type: 'sick' }, M, 201)).absence;
  world.booking = (await must('POST', '/api/time-entries/bookings', { date: day(14), minutes: 30, kind: 'correction' }, M, 201)).booking.id;
  world.schedule = (await must('POST', '/api/settings/schedules', { valid_from: day(5), weekly_target_minutes: { fri: 300 } }, M, 201)).schedule.id;
  await must('POST', '/api/time-entries', { start_at: `${lastDay}T23:00:00Z` }, M, 201);
  await must('POST', `/api/months/${LOCKED}/submit`, undefined, M);
  expect((await must('POST', `/api/users/${world.M.id}/months/${LOCKED}/approve`, {}, L)).month.state).toBe('approved');
}, 60_000);

afterAll(async () => {
  await world?.server.stop();
});

interface Row {
  route: string;
  /** Whose request: the person M (default), its lead L, the admin X. */
  as?: 'M' | 'L' | 'X';
  url?: () => string;
  body?: () => unknown;
}

const ROWS: Row[] = [
  { route: 'POST /api/time-entries', body: () => ({ start_at: `${day(20)}T08:00:00Z`, end_at: `${day(20)}T12:00:00Z` }) },
  { route: 'POST /api/time-entries', body: () => ({ start_at: `${lastDay}T20:00:00Z`, end_at: `${lastDay}T22:00:00Z` }) },
  { route: 'PATCH /api/time-entries/:id', url: () => `/api/time-entries/${world.entry}`, body: () => ({ end_at: `${day(10)}T15:00:00Z` }) },
  { route: 'DELETE /api/time-entries/:id', url: () => `/api/time-entries/${world.entry}` },
  { route: 'POST /api/time-entries/stop', body: () => ({}) },
  { route: 'POST /api/time-entries/absences', body: () => ({ date: day(21), type: 'sick' }) },
  { route: 'POST /api/time-entries/absences', body: () => ({ from: day(26), to: lastDay, type: 'vacation' }) },
  { route: 'DELETE /api/time-entries/absences/:id', url: () => `/api/time-entries/absences/${world.absence.id}` },
  { route: 'DELETE /api/time-entries/absences/requests/:id', url: () => `/api/time-entries/absences/requests/${world.absence.request_id}` },
  { route: 'POST /api/time-entries/bookings', body: () => ({ date: day(22), minutes: 30, kind: 'correction' }) },
  { route: 'DELETE /api/time-entries/bookings/:id', url: () => `/api/time-entries/bookings/${world.booking}` },
  { route: 'POST /api/settings/schedules', body: () => ({ valid_from: day(19), weekly_target_minutes: { mon: 300 } }) },
  { route: 'DELETE /api/settings/schedules/:id', url: () => `/api/settings/schedules/${world.schedule}` },
  { route: 'PATCH /api/settings', body: () => ({ timezone: 'Europe/Berlin', timezone_valid_from: day(1) }) },
  { route: 'PATCH /api/settings', body: () => ({ break_rules: [{ worked_over_minutes: 360, break_minutes: 30 }] }) },
  { route: 'PATCH /api/settings', body: () => ({ min_break_minutes: 20 }) },
  { route: 'PATCH /api/settings', body: () => ({ tracking_start: day(15) }) },
  { route: 'PATCH /api/settings', body: () => ({ weekly_target_minutes: { mon: 400 }, targets_valid_from: day(12) }) },
  { route: 'PATCH /api/settings', body: () => ({ holiday_region: 'DE-BY' }) },
  { route: 'POST /api/users/:id/bookings', as: 'L', url: () => `/api/users/${world.M.id}/bookings`, body: () => ({ date: day(23), minutes: 30 }) },
  { route: 'POST /api/users/:id/bookings', as: 'X', url: () => `/api/users/${world.M.id}/bookings`, body: () => ({ date: day(23), minutes: -30 }) },
];

describe('a closed month', () => {
  it('every writing route of the figures has a row, or cannot change a day', async () => {
    const document = (await callJson(world.server, 'GET', '/api/openapi.json')).body as { paths: Record<string, Record<string, unknown>> };
    const writing = Object.entries(document.paths).flatMap(([route, methods]) =>
      Object.keys(methods)
        .filter((method) => ['post', 'put', 'patch', 'delete'].includes(method))
        .map((method) => `${method.toUpperCase()} ${route.replace(/\{(\w+)\}/g, ':$1').replace(/(.)\/$/, '$1')}`),
    );
    const ofFigures = writing.filter((route) => FIGURE_TREES.some((tree) => route.split(' ')[1]!.startsWith(tree)));
    expect(ofFigures.length).toBeGreaterThan(10);
    const covered = new Set([...ROWS.map((row) => row.route), ...Object.keys(CANNOT_CHANGE_A_CLOSED_DAY)]);
    expect(ofFigures.filter((route) => !covered.has(route))).toEqual([]);
    expect([...covered].filter((route) => !ofFigures.includes(route))).toEqual([]);
  });

  it.each(ROWS.map((row, index) => [`${row.route} #${index + 1} (${row.as ?? 'M'})`, row] as const))('%s answers 409 MONTH_LOCKED', async (_name, row) => {
    const [method, route] = row.route.split(' ') as [string, string];
    const answer = await callJson(world.server, method, row.url?.() ?? route, row.body?.(), world[row.as ?? 'M'].token);
    expect(answer.status, JSON.stringify(answer.body)).toBe(409);
    expect(answer.body).toMatchObject({ code: 'MONTH_LOCKED', month: LOCKED });
    expect(answer.body.message).toContain(LOCKED);
  });

  it('refuses the commands at the shell alike: a booking, an import of entries', async () => {
    const booked = await cli(world.db, ['balance', 'book', 'max@example.com', '--date', day(24), '--minutes', '60', '--kind', 'correction']);
    expect(booked.exitCode).toBe(1);
    expect(String(booked.stderr)).toContain(LOCKED);
    const file = path.join(makeTempDir(), 'entries.csv');
    fs.writeFileSync(file, `start_at,end_at,note\n${day(25)}T08:00:00Z,${day(25)}T09:00:00Z,late\n`);
    const imported = await cliInProcess(world.db, ['entries', 'import', '--user', 'max@example.com', file, '--apply']);
    expect(imported.exitCode).toBe(1);
    expect(imported.stderr).toContain(LOCKED);
  });

  it('takes a correction in an open month, booked by the lead and audited with the lead, and its seal still matches', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const booked = await must('POST', `/api/users/${world.M.id}/bookings`, { date: today, minutes: 45, note: 'agreed' }, world.L.token, 201);
    expect(booked.booking).toMatchObject({ date: today, minutes: 45, kind: 'correction' });
    const lead = (await must('GET', '/api/auth/me', undefined, world.L.token)).user.id;
    const trail = await must('GET', `/api/audit?action=balance_booked&user=${world.M.id}`, undefined, world.X.token);
    expect(trail.events).toEqual([expect.objectContaining({ actor: `user:${lead}`, detail: expect.objectContaining({ booking_id: booked.booking.id }) })]);
    expect(await must('GET', `/api/users/${world.M.id}/months/${LOCKED}/verify`, undefined, world.M.token)).toMatchObject({ matches: true });
  });
});
