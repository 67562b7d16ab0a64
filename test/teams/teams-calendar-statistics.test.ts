// A team's calendar (src/teams/calendar.ts; docs/teams.md, "Team calendar") over HTTP in process, on
// both engines: every member's row is what the member's own GET /api/stats/month says of its days
// (a target above 0, the public holiday in the member's region and language, the absence), for a team
// of more members than are read at once, in four zones and five holiday regions, with schedules that
// change within a month, a tracking start within a month, whole and half absences of every type, time
// worked and running entries. A
// lead and an admin see each absence's kind; a member sees its own, and another's only as `away`.
import { afterEach, describe, expect, it } from 'vitest';
import { OPERATOR } from '../../src/teams/index.js';
import { createTestApp, PASSWORD, type TestApp } from '../support/app.js';
import { login, request } from '../support/requests.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const MEMBERS = 12;
const ZONES = ['Europe/Berlin', 'America/Los_Angeles', 'Pacific/Auckland', 'Asia/Kolkata'];
const REGIONS = ['DE-BY', 'US-CA', 'NZ', 'DE-BE', 'FR'];
const MONTHS = ['2026-02', '2026-03', '2026-04', '2026-05', '2026-12'];

interface CalendarDay {
  date: string;
  target: boolean;
  holiday: string | null;
  absence: null | { type: string; portion: string; state?: string };
}
interface Calendar {
  month: string;
  days: string[];
  members: Array<{ user: { id: number; email: string }; days: CalendarDay[] }>;
}
interface MonthDay {
  date: string;
  target_minutes: number;
  public_holiday: string | null;
  absence: string | null;
  absence_portion: string | null;
}

async function setUpTeam(app: TestApp) {
  const { accounts, people, settings, absences, teams, timeEntries } = app.ctx.services;
  const lead = await accounts.createAccount({ email: 'lea@example.com', password: PASSWORD, full_name: 'Lea' });
  await people.setRole(lead.id, 'lead');
  const admin = await accounts.createAccount({ email: 'ada@example.com', password: PASSWORD, full_name: 'Ada' });
  await people.setRole(admin.id, 'admin');
  const outsider = await accounts.createAccount({ email: 'otto@example.com', password: PASSWORD, full_name: 'Otto' });
  const team = await teams.create(OPERATOR, 'Calendar');
  await teams.putMember(OPERATOR, team.id, lead.id, 'lead');
  const ids: number[] = [];
  for (let i = 0; i < MEMBERS; i++) {
    const email = `m${String(i).padStart(2, '0')}@example.com`;
    const user = await accounts.createAccount({ email, password: PASSWORD, full_name: `M ${i}` });
    ids.push(user.id);
    await settings.updateSettings(user.id, {
      timezone: ZONES[i % ZONES.length]!,
      timezone_valid_from: '1970-01-01',
      tracking_start: i % 3 === 0 ? '2026-02-11' : '2026-01-01',
      holiday_region: REGIONS[i % REGIONS.length]!,
    });
    // Schedules that change within a month: no Friday, a Saturday, a part-time week.
    if (i % 2 === 1) await settings.updateSettings(user.id, { weekly_target_minutes: { fri: 0, sat: 240 }, targets_valid_from: '2026-03-16' });
    if (i % 4 === 2) await settings.updateSettings(user.id, { weekly_target_minutes: { tue: 0, wed: 0 }, targets_valid_from: '2026-04-01' });
    if (i % 5 === 0) await absences.createAbsenceRange(user.id, { from: '2026-03-09', to: '2026-03-20', type: 'vacation' });
    if (i % 3 === 1) await absences.createAbsence(user.id, { date: '2026-03-03', type: i % 2 === 0 ? 'sick' : 'vacation', portion: 'half' });
    await absences.createAbsence(user.id, { date: `2026-04-${String(10 + i).padStart(2, '0')}`, type: 'holiday' });
    await absences.createAbsenceRange(user.id, { from: '2026-12-21', to: '2026-12-31', type: 'vacation' });
    await absences.createAbsence(user.id, { date: '2026-05-01', type: 'sick' }); // a holiday in some regions
    // Time worked, and a running entry, which a day's target does not depend on.
    await timeEntries.createEntry(user.id, { start_at: '2026-02-27T08:00:00Z', end_at: '2026-02-27T16:00:00Z', note: '' });
    if (i % 4 === 3) await timeEntries.createEntry(user.id, { start_at: '2026-03-01T22:30:00Z', note: 'running' });
    await teams.putMember(OPERATOR, team.id, user.id, 'member');
  }
  return { team, lead, admin, outsider, ids };
}

async function calendarOf(app: TestApp, token: string, teamId: number, query: string) {
  return request(app.app, 'GET', `/api/teams/${teamId}/calendar${query}`, { token });
}

describe("a team's calendar", () => {
  it("every member's row is the member's own month: target, holiday, absence", { timeout: 120_000 }, async () => {
    t = await createTestApp(); // the clock: Monday 2026-03-02, 09:00 UTC
    const { team, lead, ids } = await setUpTeam(t);
    const leadToken = await login(t.app, 'lea@example.com');
    const tokens = new Map<number, string>();
    for (const [i, id] of ids.entries()) tokens.set(id, await login(t.app, `m${String(i).padStart(2, '0')}@example.com`));
    let absencesSeen = 0;
    let holidaysSeen = 0;
    for (const month of MONTHS) {
      for (const lang of ['en', 'de']) {
        const response = await calendarOf(t, leadToken, team.id, `?month=${month}&lang=${lang}`);
        expect(response.statusCode, response.body).toBe(200);
        const calendar = response.json() as Calendar;
        expect(calendar.month).toBe(month);
        expect(calendar.days[0]).toBe(`${month}-01`);
        expect(calendar.members.map((row) => row.user.id)).toEqual([lead.id, ...ids]);
        for (const row of calendar.members.slice(1)) {
          const own = await request(t.app, 'GET', `/api/stats/month?month=${month}&lang=${lang}`, { token: tokens.get(row.user.id)! });
          expect(own.statusCode, own.body).toBe(200);
          const expected = (own.json() as { days: MonthDay[] }).days.map((day) => ({
            date: day.date,
            target: day.target_minutes > 0,
            holiday: day.public_holiday,
            absence: day.absence === null ? null : { type: day.absence, portion: day.absence_portion, state: 'approved' },
          }));
          expect(row.days, `${row.user.email} ${month} ${lang}`).toEqual(expected);
          expect(row.days.map((day) => day.date)).toEqual(calendar.days);
          absencesSeen += expected.filter((day) => day.absence !== null).length;
          holidaysSeen += expected.filter((day) => day.holiday !== null).length;
        }
      }
    }
    // The generated team has something to compare on every axis.
    expect(absencesSeen).toBeGreaterThan(100);
    expect(holidaysSeen).toBeGreaterThan(20);
  });

  it('a member sees the grid, its own absences with their kind, the others only as away; outside the team 404', { timeout: 60_000 }, async () => {
    t = await createTestApp();
    const { team, ids } = await setUpTeam(t);
    const leadView = (await calendarOf(t, await login(t.app, 'lea@example.com'), team.id, '?month=2026-03')).json() as Calendar;
    const adminView = (await calendarOf(t, await login(t.app, 'ada@example.com'), team.id, '?month=2026-03')).json() as Calendar;
    expect(adminView.members).toEqual(leadView.members);
    const member = ids[1]!; // a half day of vacation on 2026-03-03
    const response = await calendarOf(t, await login(t.app, 'm01@example.com'), team.id, '?month=2026-03');
    expect(response.statusCode).toBe(200);
    const memberView = response.json() as Calendar;
    expect(memberView.members.find((row) => row.user.id === member)!.days[2]!.absence).toEqual({ type: 'vacation', portion: 'half', state: 'approved' });
    let away = 0;
    for (const [index, row] of memberView.members.entries()) {
      const full = leadView.members[index]!;
      expect(row.user).toEqual(full.user);
      if (row.user.id === member) {
        expect(row.days).toEqual(full.days);
        continue;
      }
      for (const [d, day] of row.days.entries()) {
        const seen = full.days[d]!;
        expect(day).toEqual({ ...seen, absence: seen.absence === null ? null : { type: 'away', portion: seen.absence.portion } });
        if (seen.absence !== null) away++;
      }
    }
    expect(away).toBeGreaterThan(10);
    // Another member's vacation (m00: 2026-03-09 to 03-20) says nothing of its kind to a member.
    expect(memberView.members.find((row) => row.user.id === ids[0])!.days[9]!.absence).toEqual({ type: 'away', portion: 'full' });

    const outsider = await calendarOf(t, await login(t.app, 'otto@example.com'), team.id, '?month=2026-03');
    expect(outsider.statusCode).toBe(404);
    expect(outsider.json().code).toBe('NOT_FOUND');
    expect((await calendarOf(t, await login(t.app, 'lea@example.com'), team.id + 1000, '')).statusCode).toBe(404);
  });

  it('the month: YYYY-MM, every day of it, this month in your own zone by default', async () => {
    t = await createTestApp(); // Monday 2026-03-02, 09:00 UTC
    const { team, lead } = await setUpTeam(t);
    const token = await login(t.app, 'lea@example.com');
    for (const [month, length] of [
      ['2024-02', 29],
      ['2026-02', 28],
      ['2026-04', 30],
      ['2026-12', 31],
    ] as const) {
      const calendar = (await calendarOf(t, token, team.id, `?month=${month}`)).json() as Calendar;
      expect(calendar.days.length).toBe(length);
      expect(calendar.days.at(-1)).toBe(`${month}-${length}`);
    }
    for (const bad of ['2026-13', '2026-3', 'March', '2026-00']) {
      const response = await calendarOf(t, token, team.id, `?month=${bad}`);
      expect(response.statusCode, bad).toBe(400);
    }
    expect(((await calendarOf(t, token, team.id, '')).json() as Calendar).month).toBe('2026-03');
    // 1 March, 05:00 UTC: still 28 February for Lea in Honolulu.
    await t.ctx.services.settings.updateSettings(lead.id, { timezone: 'Pacific/Honolulu', timezone_valid_from: '1970-01-01' });
    t.clock.set('2026-03-01T05:00:00Z');
    expect(((await calendarOf(t, token, team.id, '')).json() as Calendar).month).toBe('2026-02');
  });
});
