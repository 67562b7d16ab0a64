// The lead's view of a team against a real `serve`, on both engines (docs/teams.md, "The lead's
// view"; docs/api.md, "Another account's statistics" and "Teams"): who reads another account's
// statistics and a team's overview (a lead of the team and admins; another lead 404; a member 404 for
// another person, 403 for the overview; a lead's API token reads), and the equality: every member's row
// of the overview is that member's own week, overtime and vacation answer, and
// /api/users/:id/stats/month is the member's own /api/stats/month, byte for byte, for members in
// different zones with entries, absences and a change of schedule.
import { DateTime } from 'luxon';
import { afterAll, describe, expect, it } from 'vitest';
import { PASSWORD } from '../support/app.js';
import { createAccountWithCli, tempDb } from '../support/cli-accounts.js';
import { call, callJson, startServer, type RunningServer } from '../support/server.js';

// One server for the file (docs/testing.md, "How fast"), on a database with an admin and two leads made
// before it starts; each case builds teams and members of its own.
let server: RunningServer | undefined;
let staff: Promise<{ ann: Who; lea: Who; lou: Who }> | undefined;
afterAll(async () => {
  await staff?.catch(() => undefined);
  await server?.stop();
});

interface Who {
  token: string;
  id: number;
}

async function signIn(email: string): Promise<Who> {
  const answer = await callJson(server!, 'POST', '/api/auth/login', { email, password: PASSWORD });
  expect(answer.status).toBe(200);
  return { token: answer.body.token as string, id: answer.body.user.id as number };
}

async function register(email: string): Promise<Who> {
  const made = await callJson(server!, 'POST', '/api/auth/register', { email, password: PASSWORD, full_name: email.split('@')[0] });
  expect(made.status, JSON.stringify(made.body)).toBe(201);
  return signIn(email);
}

const api = (method: string, url: string, who: { token: string }, body?: unknown) => callJson(server!, method, url, body, who.token);

async function ok(method: string, url: string, who: Who, body?: unknown) {
  const answer = await api(method, url, who, body);
  expect(answer.status, `${method} ${url}: ${JSON.stringify(answer.body)}`).toBeLessThan(300);
  return answer.body;
}

/** The file's server, started at the first call, with Ann (an admin), Lea and Lou (leads), signed in. */
function signedInStaff(): Promise<{ ann: Who; lea: Who; lou: Who }> {
  staff ??= (async () => {
    const db = tempDb();
    await createAccountWithCli(db, 'ann@example.com', ['--role', 'admin']);
    await createAccountWithCli(db, 'lea@example.com', ['--role', 'lead']);
    await createAccountWithCli(db, 'lou@example.com', ['--role', 'lead']);
    server = await startServer(db);
    return { ann: await signIn('ann@example.com'), lea: await signIn('lea@example.com'), lou: await signIn('lou@example.com') };
  })();
  return staff;
}

/** Two teams: Kitchen (lead Lea, member Max), Garden (lead Lou, member Ola); Ann is an admin. */
async function twoTeams() {
  const { ann, lea, lou } = await signedInStaff();
  const [max, ola] = [await register('max@example.com'), await register('ola@example.com')];
  const kitchen = (await ok('POST', '/api/teams', ann, { name: 'Kitchen' })).team.id as number;
  const garden = (await ok('POST', '/api/teams', ann, { name: 'Garden' })).team.id as number;
  await ok('PUT', `/api/teams/${kitchen}/members/${lea.id}`, ann, { role: 'lead' });
  await ok('PUT', `/api/teams/${kitchen}/members/${max.id}`, ann, { role: 'member' });
  await ok('PUT', `/api/teams/${garden}/members/${lou.id}`, ann, { role: 'lead' });
  await ok('PUT', `/api/teams/${garden}/members/${ola.id}`, ann, { role: 'member' });
  return { ann, lea, lou, max, ola, kitchen, garden };
}

/** Two readings of the same URL with two tokens, byte for byte; asked again if a running entry's minute passed between them. */
async function sameText(url: string, own: string, other: string, ownUrl = url) {
  let pair: string[] = [];
  for (let attempt = 0; attempt < 3; attempt++) {
    pair = [(await call(server!, 'GET', ownUrl, undefined, own)).text, (await call(server!, 'GET', url, undefined, other)).text];
    if (pair[0] === pair[1]) break;
  }
  expect(pair[1]).toBe(pair[0]);
  return pair[0]!;
}

const STATS = ['week', 'month', 'overtime', 'vacation'] as const;

describe("the lead's view of a team", () => {
  it('who reads whose statistics and which overview: lead, other lead, member, admin, a lead API token', { timeout: 120_000 }, async () => {
    const { ann, lea, lou, max, ola, kitchen, garden } = await twoTeams();
    await ok('POST', '/api/time-entries', max, {
      start_at: DateTime.utc().minus({ days: 1 }).set({ hour: 8 }).toISO(),
      end_at: DateTime.utc().minus({ days: 1 }).set({ hour: 12 }).toISO(),
    });

    for (const figure of STATS) {
      const own = await call(server!, 'GET', `/api/stats/${figure}`, undefined, max.token);
      expect(own.status).toBe(200);
      // The lead of Max's team and the admin read exactly Max's own answer; another lead and another member find nothing.
      for (const reader of [lea, ann, max])
        expect((await call(server!, 'GET', `/api/users/${max.id}/stats/${figure}`, undefined, reader.token)).text).toBe(own.text);
      for (const stranger of [lou, ola]) {
        expect((await api('GET', `/api/users/${max.id}/stats/${figure}`, stranger)).body).toMatchObject({ statusCode: 404, code: 'USER_NOT_FOUND' });
      }
    }
    // A member reads no one else, not even its lead; nobody reads without a token; no such account is 404 for the admin too.
    expect((await api('GET', `/api/users/${lea.id}/stats/week`, max)).status).toBe(404);
    expect((await call(server!, 'GET', `/api/users/${max.id}/stats/week`)).status).toBe(401);
    expect((await api('GET', '/api/users/999999/stats/week', ann)).status).toBe(404);
    // The files: the same CSV, a PDF.
    const ownCsv = await call(server!, 'GET', '/api/stats/month.csv', undefined, max.token);
    expect((await call(server!, 'GET', `/api/users/${max.id}/stats/month.csv`, undefined, lea.token)).text).toBe(ownCsv.text);
    const pdf = await call(server!, 'GET', `/api/users/${max.id}/stats/month.pdf`, undefined, lea.token);
    expect([pdf.status, pdf.headers.get('content-type')]).toEqual([200, 'application/pdf']);
    expect((await call(server!, 'GET', `/api/users/${max.id}/stats/month.pdf`, undefined, lou.token)).status).toBe(404);

    // The overview: the lead of the team and admins; a member 403; outside the reach 404.
    const overview = await ok('GET', `/api/teams/${kitchen}/overview`, lea);
    expect(overview.team.name).toBe('Kitchen');
    expect(overview.members.map((m: { user: { email: string } }) => m.user.email)).toEqual(['lea@example.com', 'max@example.com']);
    expect((await api('GET', `/api/teams/${kitchen}/overview`, max)).body).toMatchObject({ statusCode: 403, code: 'FORBIDDEN' });
    expect((await api('GET', `/api/teams/${kitchen}/overview`, lou)).body).toMatchObject({ statusCode: 404, code: 'NOT_FOUND' });
    expect((await api('GET', `/api/teams/${garden}/overview`, lea)).status).toBe(404);
    expect((await api('GET', `/api/teams/${garden}/overview`, ann)).status).toBe(200);
    expect((await api('GET', `/api/teams/${kitchen}/overview?week=2026-13-01`, lea)).status).toBe(400);

    // A lead's API token reads its team as the lead does.
    const token = { token: (await ok('POST', '/api/auth/api-tokens', lea, { name: 'script', expires_in_days: 30, password: PASSWORD })).token as string };
    expect((await call(server!, 'GET', `/api/users/${max.id}/stats/month`, undefined, token.token)).text).toBe(
      (await call(server!, 'GET', '/api/stats/month', undefined, max.token)).text,
    );
    expect((await api('GET', `/api/teams/${kitchen}/overview`, token)).status).toBe(200);
    expect((await api('GET', `/api/users/${ola.id}/stats/week`, token)).status).toBe(404);
  });

  it("equality: every member's row is the member's own week, overtime and vacation; the month byte for byte", { timeout: 180_000 }, async () => {
    const { ann, lea } = await signedInStaff();
    const team = (await ok('POST', '/api/teams', ann, { name: 'Round the world' })).team.id as number;
    await ok('PUT', `/api/teams/${team}/members/${lea.id}`, ann, { role: 'lead' });
    const start = DateTime.utc().startOf('week').minus({ weeks: 6 }).toISODate()!;
    const zones = ['Europe/Berlin', 'America/Los_Angeles', 'Pacific/Auckland'];
    const members: Who[] = [];
    for (const [index, zone] of zones.entries()) {
      const who = await register(`member${index}@example.com`);
      members.push(who);
      await ok('PUT', `/api/teams/${team}/members/${who.id}`, lea, { role: 'member' });
      await ok('PATCH', '/api/settings', who, { timezone: zone, timezone_valid_from: '1970-01-01', tracking_start: start, vacation_days_per_year: 20 + index });
      // From three weeks ago a shorter schedule; entries every weekday but a few, one running entry; vacation and a sick day.
      const changed = DateTime.utc().startOf('week').minus({ weeks: 3 }).toISODate()!;
      await ok('PATCH', '/api/settings', who, {
        weekly_target_minutes: { mon: 300 + 30 * index, tue: 360, wed: 360, thu: 360, fri: 240 },
        targets_valid_from: changed,
      });
      for (let day = DateTime.fromISO(start, { zone }); day < DateTime.now().setZone(zone).startOf('day'); day = day.plus({ days: 1 })) {
        if (day.weekday > 5 || (day.day + index) % 4 === 0) continue;
        await ok('POST', '/api/time-entries', who, {
          start_at: day.set({ hour: 8 + index }).toISO(),
          end_at: day.set({ hour: 16, minute: 7 * index }).toISO(),
        });
      }
      const vacationFrom = DateTime.fromISO(start)
        .plus({ days: 8 + index })
        .toISODate()!;
      await api('POST', '/api/time-entries/absences', who, {
        from: vacationFrom,
        to: DateTime.fromISO(vacationFrom).plus({ days: 2 }).toISODate(),
        type: 'vacation',
      });
      await api('POST', '/api/time-entries/absences', who, {
        date: DateTime.now().setZone(zone).toISODate(),
        type: index === 1 ? 'sick' : 'vacation',
        portion: 'half',
      });
      if (index === 2) await ok('POST', '/api/time-entries', who, { start_at: DateTime.utc().minus({ minutes: 30 }).toISO() });
    }

    for (const week of [undefined, DateTime.utc().minus({ weeks: 2 }).toISODate()!, start]) {
      for (const reader of [lea, ann]) {
        const overview = await ok('GET', `/api/teams/${team}/overview${week ? `?week=${week}` : ''}`, reader);
        for (const [index, who] of members.entries()) {
          const row = overview.members.find((m: { user: { id: number } }) => m.user.id === who.id);
          const own = await ok('GET', `/api/stats/week?date=${overview.week_start}`, who);
          const { worked_minutes, target_minutes, balance_minutes } = own.totals;
          expect(row.week, `${zones[index]} ${week}`).toEqual({ worked_minutes, target_minutes, balance_minutes });
          expect(row.balance_minutes).toBe((await ok('GET', '/api/stats/overtime', who)).balance_minutes);
          expect(row.vacation).toEqual(await ok('GET', `/api/stats/vacation?year=${overview.week_start.slice(0, 4)}`, who));
          const missing = own.days.filter((d: any) => d.complete && d.target_minutes > 0 && d.worked_minutes === 0 && d.absence === null);
          expect(row.missing_days).toEqual(missing.map((d: { date: string }) => d.date));
          expect(row.running_since === null).toBe(index !== 2);
        }
      }
    }
    // A row shows a missing day, today's absence, the running entry: the data above has all of them.
    const now = await ok('GET', `/api/teams/${team}/overview?week=${DateTime.utc().minus({ weeks: 1 }).toISODate()}`, lea);
    expect(now.members.some((m: { missing_days: string[] }) => m.missing_days.length > 0)).toBe(true);
    const today = await ok('GET', `/api/teams/${team}/overview`, lea);
    expect(today.members.filter((m: { absence_today: string | null }) => m.absence_today !== null).length).toBeGreaterThan(0);

    for (const who of members) {
      for (const month of [start.slice(0, 7), DateTime.utc().toFormat('yyyy-MM')]) {
        for (const reader of [lea, ann]) {
          const text = await sameText(
            `/api/users/${who.id}/stats/month?month=${month}&lang=de`,
            who.token,
            reader.token,
            `/api/stats/month?month=${month}&lang=de`,
          );
          expect(JSON.parse(text).days.length).toBeGreaterThan(27);
        }
      }
    }
  });
});
