// A lead's overview of a team larger than the few members it works out at once (src/teams/overview.ts,
// docs/teams.md "The lead's view"), through the application in process, on both engines: every row,
// in the team's order, is the member's own week, balance, vacation year, running entry and today's
// absence as the member's own statistics answer them, for members in four zones with different break
// rules, schedules, absences and running entries, whose figures are read together.
import { afterEach, describe, expect, it } from 'vitest';
import { OPERATOR } from '../../src/teams/index.js';
import { createTestApp, PASSWORD, type TestApp } from '../support/app.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

const MEMBERS = 23;
const ZONES = ['Europe/Berlin', 'America/Los_Angeles', 'Pacific/Auckland', 'Asia/Kolkata'];
const GERMAN_BREAKS = [
  { worked_over_minutes: 360, break_minutes: 30 },
  { worked_over_minutes: 540, break_minutes: 45 },
];

/** The days from `from` through `through`, as dates. */
function dates(from: string, through: string): string[] {
  const found: string[] = [];
  for (let day = Date.parse(`${from}T00:00:00Z`); day <= Date.parse(`${through}T00:00:00Z`); day += 86_400_000)
    found.push(new Date(day).toISOString().slice(0, 10));
  return found;
}

describe("a lead's overview of a team of more members than it reads at once", () => {
  it("every row is the member's own answers, in the team's order", { timeout: 120_000 }, async () => {
    t = await createTestApp(); // the clock: Monday 2026-03-02, 09:00 UTC
    const { accounts, people, settings, timeEntries, absences, teams, overview, statistics, vacation } = t.ctx.services;
    const lead = await accounts.createAccount({ email: 'lea@example.com', password: PASSWORD, full_name: 'Lea' });
    await people.setRole(lead.id, 'lead');
    const team = await teams.create(OPERATOR, 'Many');
    await teams.putMember(OPERATOR, team.id, lead.id, 'lead');
    const ids: number[] = [];
    for (let i = 0; i < MEMBERS; i++) {
      const user = await accounts.createAccount({
        email: `m${String(i).padStart(2, '0')}@example.com`,
        password: PASSWORD,
        full_name: `M ${String(i).padStart(2, '0')}`,
      });
      ids.push(user.id);
      await settings.updateSettings(user.id, {
        timezone: ZONES[i % ZONES.length]!,
        timezone_valid_from: '1970-01-01',
        tracking_start: '2026-02-02',
        break_rules: i % 3 === 0 ? GERMAN_BREAKS : [],
        vacation_days_per_year: 20 + i,
      });
      if (i % 2 === 1) await settings.updateSettings(user.id, { weekly_target_minutes: { fri: 0, mon: 300 + i }, targets_valid_from: '2026-02-16' });
      for (const [n, date] of dates('2026-02-02', '2026-03-01').entries()) {
        if ((n + i) % 7 >= 5 || (n + i) % 9 === 0) continue;
        await timeEntries.createEntry(user.id, { start_at: `${date}T07:00:00Z`, end_at: `${date}T11:00:00Z`, note: '' });
        await timeEntries.createEntry(user.id, { start_at: `${date}T11:${10 + i}:00Z`, end_at: `${date}T${14 + (i % 4)}:45:00Z`, note: '' });
      }
      if (i % 6 === 5) {
        // Vacation booked, then the tracking start moved after it: those days count nowhere (the
        // overview reads ten members' vacation days at once, from the earliest start among them).
        await absences.createAbsenceRange(user.id, { from: '2026-02-10', to: '2026-02-12', type: 'vacation' });
        await settings.updateSettings(user.id, { tracking_start: '2026-02-16' });
      }
      if (i % 5 === 0) await absences.createAbsenceRange(user.id, { from: '2026-02-24', to: '2026-02-26', type: 'vacation' }).catch(() => undefined);
      if (i % 3 === 1) await absences.createAbsence(user.id, { date: '2026-03-02', type: i % 2 === 0 ? 'sick' : 'vacation', portion: 'half' });
      if (i % 4 === 2) await timeEntries.createEntry(user.id, { start_at: '2026-03-02T08:30:00Z', note: 'running' });
      await teams.putMember(OPERATOR, team.id, user.id, 'member');
    }

    const running = new Set(ids.filter((_, i) => i % 4 === 2));
    for (const week of [undefined, '2026-02-23', '2026-02-10']) {
      const answer = await overview.teamOverview({ userId: lead.id, role: 'lead', viaApiToken: false }, team.id, week);
      expect(answer.members.map((row) => row.user.id)).toEqual([lead.id, ...ids]);
      for (const row of answer.members.slice(1)) {
        const own = await statistics.weekOverview(row.user.id, answer.week_start);
        const { worked_minutes, target_minutes, balance_minutes } = own.totals;
        expect(row.week, `${row.user.full_name} ${answer.week_start}`).toEqual({ worked_minutes, target_minutes, balance_minutes });
        expect(row.balance_minutes).toBe((await statistics.overtime(row.user.id)).balance_minutes);
        expect(row.vacation).toEqual(await vacation.vacationYear(row.user.id, Number(answer.week_start.slice(0, 4))));
        const missing = own.days.filter((d) => d.complete && d.target_minutes > 0 && d.worked_minutes === 0 && d.break_minutes === 0 && d.absence === null);
        expect(row.missing_days).toEqual(missing.map((d) => d.date));
        expect(row.running_since !== null).toBe(running.has(row.user.id));
        const today = (await statistics.today(row.user.id)).date;
        expect(row.today).toBe(today);
        const [absence] = await absences.listAbsences(row.user.id, { from: today, to: new Date(Date.parse(today) + 86_400_000).toISOString().slice(0, 10) });
        expect(row.absence_today).toBe(absence?.date === today ? absence.type : null);
      }
      // The data has what the rows show: missing days, absences today, running entries.
      if (week === '2026-02-23') expect(answer.members.some((row) => row.missing_days.length > 0)).toBe(true);
      if (week === undefined) expect(answer.members.filter((row) => row.absence_today !== null).length).toBeGreaterThan(5);
    }
  });
});
