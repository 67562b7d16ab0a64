// `timetrack team overview` through the built binary (docs/cli.md, docs/teams.md "The lead's view"):
// --json is the answer of GET /api/teams/:id/overview for the same week; the text a table of the
// members; a team that does not exist is exit 3.
import { DateTime } from 'luxon';
import { afterEach, describe, expect, it } from 'vitest';
import { PASSWORD } from '../support/app.js';
import { cli, expectFailure, kitchenWithLeaAndMax, tempDb } from '../support/cli-accounts.js';
import { cliInProcess } from '../support/cli-in-process.js';
import { callJson, startServer, type RunningServer } from '../support/server.js';

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

describe('timetrack team overview', () => {
  it('--json is the API answer of the same week; the text is a table of the members', { timeout: 120_000 }, async () => {
    const db = tempDb();
    await kitchenWithLeaAndMax(db);
    server = await startServer(db);
    const token = async (email: string) => (await callJson(server!, 'POST', '/api/auth/login', { email, password: PASSWORD })).body.token as string;
    const [lea, max] = [await token('lea@example.com'), await token('max@example.com')];
    const yesterday = DateTime.utc().minus({ days: 1 }).startOf('day');
    await callJson(server, 'PATCH', '/api/settings', { tracking_start: yesterday.minus({ days: 14 }).toISODate() }, max);
    expect(
      (await callJson(server, 'POST', '/api/time-entries', { start_at: yesterday.set({ hour: 8 }).toISO(), end_at: yesterday.set({ hour: 13 }).toISO() }, max))
        .status,
    ).toBe(201);
    const week = yesterday.toISODate()!;
    const team = (await callJson(server, 'GET', '/api/teams', undefined, lea)).body.teams[0].id as number;
    const answer = await callJson(server, 'GET', `/api/teams/${team}/overview?week=${week}`, undefined, lea);
    expect(answer.status).toBe(200);

    const json = await cli(db, ['team', 'overview', 'kitchen', '--week', week, '--json']);
    expect(json.stderr).toBe('');
    expect(JSON.parse(String(json.stdout))).toEqual(answer.body);

    const text = String((await cli(db, ['team', 'overview', String(team), '--week', week])).stdout);
    expect(text).toContain(`Kitchen (id ${team}), week of ${answer.body.week_start}`);
    expect(text).toMatch(/member\s+week worked\/target\s+week ±\s+balance\s+vacation left/);
    const maxRow = answer.body.members.find((m: { user: { email: string } }) => m.user.email === 'max@example.com');
    expect(text).toMatch(new RegExp(`max@example\\.com\\s+${Math.floor(maxRow.week.worked_minutes / 60)}:`));
    expectFailure(await cliInProcess(db, ['team', 'overview', 'Nowhere']), 3, /no team named Nowhere/);
  });
});
