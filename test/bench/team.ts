// The team figure (docs/performance.md): a lead's overview of a team of TEAM_SIZE members with a year
// of entries each (the German break rules on, a change of schedule mid-year, vacation, sick days, a
// few running entries and absences today), as a lead reloads it: answers a second and p95 over one
// connection, and a second account's /me p95 while the lead reloads it over four (the bystander
// pattern of ./bystander.ts); and the team's calendar of this month (GET /api/teams/:id/calendar), as
// anyone in the team reloads it: answers a second and p95 over one connection. The seed goes through the project's own services (an entry import per
// member, as `timetrack entries import` writes it), so the per-day totals are the ones use makes.
import { randomBytes } from 'node:crypto';
import { createContext } from '../../src/composition-root.js';
import { OPERATOR } from '../../src/teams/index.js';
import { cpuSeconds, sleep, type Server } from './processes.js';

export const TEAM_SIZE = 100;
export const TEAM_ANSWERS = `team: overview of ${TEAM_SIZE} members × 1 year, answers/s over 1 connection`;
export const TEAM_P95 = `team: overview of ${TEAM_SIZE} members × 1 year, p95 in ms over 1 connection`;
export const TEAM_CALENDAR = `team: calendar of ${TEAM_SIZE} members × this month, answers/s over 1 connection`;
export const TEAM_BYSTANDER = "team: p95 in ms of a second account's /me while the lead reloads the overview over 4 connections";
const RELOADERS = 4;
const BYSTANDER_PAUSE_MS = 20;
const DAY_MS = 86_400_000;
/** The day of the seeded year from which the members work a shorter week (Friday off). */
const SCHEDULE_CHANGE_DAY = 182;
/** The German law's two rules (docs/time-model.md): 30 minutes beyond 6 hours, 45 beyond 9. */
const GERMAN_BREAKS = [
  { worked_over_minutes: 360, break_minutes: 30 },
  { worked_over_minutes: 540, break_minutes: 45 },
];

const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const percentile = (values: number[], share: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * share))] ?? NaN;

/** A member's year as CSV: two entries a working day with a half-hour break, every fifth day one long one (deducted), a few days missing, none on `away`. */
function yearOfEntries(index: number, from: number, away: Set<string>, running: boolean): string {
  const lines = ['start_at,end_at,note'];
  const shift = (index % 30) * 60_000;
  for (let day = from, n = 0; day < Date.now() - DAY_MS; day += DAY_MS, n += 1) {
    const weekday = new Date(day).getUTCDay();
    const off = weekday === 0 || weekday === 6 || (weekday === 5 && n >= SCHEDULE_CHANGE_DAY);
    if (off || away.has(dateOf(day)) || (n + index) % 23 === 0) continue;
    const at = (hour: number, minute = 0) => new Date(day + hour * 3_600_000 + minute * 60_000 + shift).toISOString();
    if ((n + index) % 5 === 0) lines.push(`${at(7)},${at(16, 15)},long day`);
    else lines.push(`${at(7)},${at(11)},morning`, `${at(11, 30)},${at(15, 45)},afternoon`);
  }
  if (running) lines.push(`${new Date(Date.now() - 3_600_000).toISOString()},,running`);
  return `${lines.join('\n')}\n`;
}

/** Retries a settings change while another account's recount of its days holds the gate (BUSY: docs/security.md). */
async function untilNotBusy<T>(work: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      return await work();
    } catch (error) {
      if ((error as { code?: string }).code !== 'BUSY') throw error;
      await sleep(20);
    }
  }
}

/** One lead and TEAM_SIZE members with a year each, in one team; answers the lead's address. */
export async function seedTeam(env: Record<string, string>, password: string): Promise<{ leadEmail: string; teamId: number }> {
  const ctx = await createContext({ env: { ...env, LOG_LEVEL: 'warn' }, migrate: true, logDestination: process.stderr });
  const { accounts, people, settings, absences, entriesCsv, teams } = ctx.services;
  const suffix = randomBytes(3).toString('hex');
  const leadEmail = `lead-${suffix}@example.com`;
  const lead = await accounts.createAccount({ email: leadEmail, password, full_name: 'Lead' });
  await people.setRole(lead.id, 'lead');
  const team = await teams.create(OPERATOR, `Bench team ${suffix}`);
  await teams.putMember(OPERATOR, team.id, lead.id, 'lead');
  const from = Date.parse(`${dateOf(Date.now() - 365 * DAY_MS)}T00:00:00Z`);
  const seedMember = async (index: number) => {
    const user = await accounts.createAccount({ email: `member-${index}-${suffix}@example.com`, password, full_name: `Member ${index}` });
    await untilNotBusy(() =>
      settings.updateSettings(user.id, {
        timezone: 'Europe/Berlin',
        timezone_valid_from: '1970-01-01',
        holiday_region: 'DE-BY',
        tracking_start: dateOf(from),
        break_rules: GERMAN_BREAKS,
        vacation_days_per_year: 30,
      }),
    );
    // Mid-year, a shorter week (Friday off).
    await settings.updateSettings(user.id, {
      weekly_target_minutes: { mon: 480, tue: 480, wed: 480, thu: 480, fri: 0 },
      targets_valid_from: dateOf(from + SCHEDULE_CHANGE_DAY * DAY_MS),
    });
    // Two weeks of vacation in spring, one in autumn, a sick day, four days planned; every tenth sick today.
    const away = new Set<string>();
    const ranges: Array<[number, number, string]> = [
      [from + (90 + (index % 20)) * DAY_MS, 13, 'vacation'],
      [from + (260 + (index % 15)) * DAY_MS, 6, 'vacation'],
      [from + (200 + (index % 30)) * DAY_MS, 0, 'sick'],
      [Date.now() + (20 + (index % 10)) * DAY_MS, 3, 'vacation'],
    ];
    if (index % 10 === 0) ranges.push([Date.now(), 0, 'sick']);
    for (const [start, days, type] of ranges) {
      for (let day = 0; day <= days; day++) away.add(dateOf(start + day * DAY_MS));
      if (days === 0) await absences.createAbsence(user.id, { date: dateOf(start), type });
      else await absences.createAbsenceRange(user.id, { from: dateOf(start), to: dateOf(start + days * DAY_MS), type });
    }
    const imported = await entriesCsv.importCsv(user.id, yearOfEntries(index, from, away, index % 4 === 0), { apply: true });
    if (!imported.applied) throw new Error(`seeding member ${index}: ${JSON.stringify(imported.problems.slice(0, 3))}`);
    await teams.putMember(OPERATOR, team.id, user.id, 'member');
  };
  // Ten at a time: the writes of one overlap the hashing of the next.
  for (let i = 0; i < TEAM_SIZE; i += 10) await Promise.all(Array.from({ length: 10 }, (_, j) => seedMember(i + j)));
  await ctx.close();
  return { leadEmail, teamId: team.id };
}

async function timed(url: string, token: string): Promise<{ ms: number; status: number; body: string }> {
  const started = performance.now();
  const response = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
  const body = await response.text();
  return { ms: performance.now() - started, status: response.status, body };
}

export interface TeamResult {
  /** One connection: answers a second and p95. */
  answersPerSecond: number;
  p95Ms: number;
  answers: number;
  /** serve's CPU time per answer over one connection, and its CPU use then (% of one core): far below 100, the machine was short of CPU. */
  cpuMsPerAnswer: number;
  busyPercent: number;
  /** Four connections reloading: their answers a second, the bystander's /me p95 and its idle p95. */
  loadedAnswersPerSecond: number;
  meP95: number;
  idleMeP95: number;
  asked: number;
}

/** Measures the overview of `teamId` (the lead's `leadToken`) for `seconds` each way; `meToken` the bystander's. */
export async function teamFigures(server: Server, teamId: number, leadToken: string, meToken: string, seconds: number): Promise<TeamResult> {
  const baseUrl = server.url;
  const overview = `${baseUrl}/api/teams/${teamId}/overview`;
  const first = await timed(overview, leadToken);
  const members = first.status === 200 ? (JSON.parse(first.body) as { members: unknown[] }).members.length : 0;
  if (members !== TEAM_SIZE + 1) throw new Error(`team overview: ${first.status}, ${members} members: ${first.body.slice(0, 300)}`);
  for (let i = 0; i < 3; i++) await timed(overview, leadToken); // warm-up
  const reload = async (until: number, into: number[]) => {
    while (performance.now() < until) {
      const answer = await timed(overview, leadToken);
      if (answer.status !== 200) throw new Error(`team overview under load: ${answer.status} ${answer.body.slice(0, 300)}`);
      into.push(answer.ms);
    }
  };

  const single: number[] = [];
  const cpuBefore = cpuSeconds(server.child.pid!);
  let started = performance.now();
  await reload(started + seconds * 1000, single);
  const singleSeconds = (performance.now() - started) / 1000;
  const cpu = cpuSeconds(server.child.pid!) - cpuBefore;

  const idle: number[] = [];
  for (let i = 0; i < 50; i++) idle.push((await timed(`${baseUrl}/api/auth/me`, meToken)).ms);
  const loaded: number[] = [];
  started = performance.now();
  const until = started + seconds * 1000;
  const reloaders = Array.from({ length: RELOADERS }, () => reload(until, loaded));
  await sleep(300);
  const me: number[] = [];
  while (performance.now() < until) {
    const answer = await timed(`${baseUrl}/api/auth/me`, meToken);
    if (answer.status !== 200) throw new Error(`bystander /me: ${answer.status}`);
    me.push(answer.ms);
    await sleep(BYSTANDER_PAUSE_MS);
  }
  await Promise.all(reloaders);
  const loadedSeconds = (performance.now() - started) / 1000;
  return {
    answersPerSecond: single.length / singleSeconds,
    p95Ms: percentile(single, 0.95),
    answers: single.length,
    cpuMsPerAnswer: (cpu * 1000) / single.length,
    busyPercent: (100 * cpu) / singleSeconds,
    loadedAnswersPerSecond: loaded.length / loadedSeconds,
    meP95: percentile(me, 0.95),
    idleMeP95: percentile(idle, 0.95),
    asked: me.length,
  };
}

/** Answers a second and p95 over one connection of the team's calendar of this month (`GET /api/teams/:id/calendar`), for `seconds`. */
export async function calendarFigures(
  server: Server,
  teamId: number,
  leadToken: string,
  seconds: number,
): Promise<{ answersPerSecond: number; p95Ms: number; answers: number; cpuMsPerAnswer: number }> {
  const calendar = `${server.url}/api/teams/${teamId}/calendar?lang=de`;
  const first = await timed(calendar, leadToken);
  const members = first.status === 200 ? (JSON.parse(first.body) as { members: unknown[] }).members.length : 0;
  if (members !== TEAM_SIZE + 1) throw new Error(`team calendar: ${first.status}, ${members} members: ${first.body.slice(0, 300)}`);
  for (let i = 0; i < 3; i++) await timed(calendar, leadToken); // warm-up
  const times: number[] = [];
  const cpuBefore = cpuSeconds(server.child.pid!);
  const started = performance.now();
  while (performance.now() < started + seconds * 1000) {
    const answer = await timed(calendar, leadToken);
    if (answer.status !== 200) throw new Error(`team calendar: ${answer.status} ${answer.body.slice(0, 300)}`);
    times.push(answer.ms);
  }
  const cpu = cpuSeconds(server.child.pid!) - cpuBefore;
  return {
    answersPerSecond: times.length / ((performance.now() - started) / 1000),
    p95Ms: percentile(times, 0.95),
    answers: times.length,
    cpuMsPerAnswer: (cpu * 1000) / times.length,
  };
}
