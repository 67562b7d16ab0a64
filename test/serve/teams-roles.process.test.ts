// Teams against a real `serve` and the built binary, on both engines (docs/teams.md, docs/api.md
// "Teams"): admins manage every team; a lead adds and removes members of a team it leads, never leads
// (403), and may not rename or delete it (403); a member sees its own teams; a team outside the reach
// is 404; names are unique without regard to case (409 TEAM_NAME_TAKEN); me answers the teams.
import { afterEach, describe, expect, it } from 'vitest';
import { PASSWORD } from '../support/app.js';
import { cli, createAccountWithCli, expectFailure, tempDb } from '../support/cli-accounts.js';
import { cliInProcess } from '../support/cli-in-process.js';
import { callJson, startServer, type RunningServer } from '../support/server.js';

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

async function signIn(email: string): Promise<{ token: string; id: number }> {
  const answer = await callJson(server!, 'POST', '/api/auth/login', { email, password: PASSWORD });
  expect(answer.status).toBe(200);
  return { token: answer.body.token as string, id: answer.body.user.id as number };
}

describe('teams', () => {
  it('who may make, read, rename, delete a team and change its members; 404 outside the reach', { timeout: 120_000 }, async () => {
    const db = tempDb();
    await createAccountWithCli(db, 'ann@example.com', ['--role', 'admin']);
    await createAccountWithCli(db, 'lea@example.com', ['--role', 'lead']);
    await createAccountWithCli(db, 'max@example.com');
    await createAccountWithCli(db, 'ola@example.com');
    server = await startServer(db);
    const [ann, lea, max, ola] = [
      await signIn('ann@example.com'),
      await signIn('lea@example.com'),
      await signIn('max@example.com'),
      await signIn('ola@example.com'),
    ];
    const api = (method: string, url: string, who: { token: string }, body?: unknown) => callJson(server!, method, url, body, who.token);

    // Only an admin makes teams; the name is unique without regard to case.
    expect((await api('POST', '/api/teams', lea, { name: 'Kitchen' })).body).toMatchObject({ statusCode: 403, code: 'FORBIDDEN' });
    const made = await api('POST', '/api/teams', ann, { name: '  Kitchen ' });
    expect(made).toMatchObject({ status: 201, body: { team: { name: 'Kitchen' } } });
    const kitchen = made.body.team.id as number;
    expect((await api('POST', '/api/teams', ann, { name: 'KITCHEN' })).body).toMatchObject({ statusCode: 409, code: 'TEAM_NAME_TAKEN' });
    // Beyond ASCII alike on both engines: the key is computed by timetrack, not by the engine's lower().
    const doctors = await api('POST', '/api/teams', ann, { name: 'Ärzte' });
    expect(doctors.status).toBe(201);
    expect((await api('POST', '/api/teams', ann, { name: 'ÄRZTE' })).body).toMatchObject({ statusCode: 409, code: 'TEAM_NAME_TAKEN' });
    expect((await api('DELETE', `/api/teams/${doctors.body.team.id}`, ann)).status).toBe(204);
    const other = (await api('POST', '/api/teams', ann, { name: 'Garden' })).body.team.id as number;

    // Lea leads Kitchen (set by the admin); Max is a member.
    expect((await api('PUT', `/api/teams/${kitchen}/members/${lea.id}`, ann, { role: 'lead' })).status).toBe(200);
    expect((await api('PUT', `/api/teams/${kitchen}/members/${max.id}`, lea, { role: 'member' })).body.members).toMatchObject([
      { user: { email: 'lea@example.com' }, role: 'lead' },
      { user: { email: 'max@example.com' }, role: 'member' },
    ]);
    // The lead may not make leads, demote a lead, rename or delete, nor touch a team it is not in.
    expect((await api('PUT', `/api/teams/${kitchen}/members/${ola.id}`, lea, { role: 'lead' })).body).toMatchObject({ code: 'FORBIDDEN' });
    expect((await api('DELETE', `/api/teams/${kitchen}/members/${lea.id}`, lea)).body).toMatchObject({ code: 'FORBIDDEN' });
    expect((await api('PATCH', `/api/teams/${kitchen}`, lea, { name: 'Galley' })).body).toMatchObject({ statusCode: 403, code: 'FORBIDDEN' });
    expect((await api('DELETE', `/api/teams/${kitchen}`, lea)).body).toMatchObject({ statusCode: 403, code: 'FORBIDDEN' });
    expect((await api('PUT', `/api/teams/${other}/members/${ola.id}`, lea, { role: 'member' })).status).toBe(404);
    expect((await api('GET', `/api/teams/${other}`, lea)).status).toBe(404);
    expect((await api('GET', `/api/teams/999999`, lea)).status).toBe(404);

    // A member sees its team, not others; may change nothing there.
    expect((await api('GET', '/api/teams', max)).body.teams.map((t: { name: string }) => t.name)).toEqual(['Kitchen']);
    expect((await api('GET', `/api/teams/${kitchen}`, max)).status).toBe(200);
    expect((await api('GET', `/api/teams/${other}`, max)).status).toBe(404);
    expect((await api('PUT', `/api/teams/${kitchen}/members/${ola.id}`, max, { role: 'member' })).body).toMatchObject({ code: 'FORBIDDEN' });
    expect((await api('GET', '/api/teams', ola)).body.teams).toEqual([]);
    expect((await api('GET', '/api/teams', ann)).body.teams.map((t: { name: string }) => t.name)).toEqual(['Garden', 'Kitchen']);
    // With members=true: each team as its own GET /api/teams/:id answers it, and still only the teams within reach.
    const withMembers = (await api('GET', '/api/teams?members=true', ann)).body.teams as Array<{ id: number; members: unknown[] }>;
    for (const team of withMembers) expect(team.members).toEqual((await api('GET', `/api/teams/${team.id}`, ann)).body.members);
    expect(withMembers.find((team) => team.id === kitchen)!.members.length).toBeGreaterThan(0);
    expect((await api('GET', '/api/teams?members=true', max)).body.teams.map((t: { name: string }) => t.name)).toEqual(['Kitchen']);
    expect((await api('GET', '/api/teams?members=maybe', ann)).status).toBe(400);

    // The lead reads the people it leads; a member does not read its lead.
    expect((await api('GET', `/api/users/${max.id}`, lea)).body).toMatchObject({ user: { email: 'max@example.com', role: 'member' } });
    expect((await api('GET', `/api/users/${ola.id}`, lea)).status).toBe(404);
    expect((await api('GET', `/api/users/${lea.id}`, max)).status).toBe(404);

    // me answers the teams with the role in each.
    expect((await api('GET', '/api/auth/me', lea)).body).toMatchObject({ role: 'lead', teams: [{ id: kitchen, name: 'Kitchen', role: 'lead' }] });
    expect((await api('GET', '/api/auth/me', max)).body.teams).toEqual([{ id: kitchen, name: 'Kitchen', role: 'member' }]);

    // The lead removes its member; the admin renames and deletes; memberships go with the team.
    expect((await api('DELETE', `/api/teams/${kitchen}/members/${max.id}`, lea)).status).toBe(204);
    expect((await api('PATCH', `/api/teams/${kitchen}`, ann, { name: 'garden' })).body).toMatchObject({ code: 'TEAM_NAME_TAKEN' });
    expect((await api('PATCH', `/api/teams/${kitchen}`, ann, { name: 'Galley' })).body).toMatchObject({ team: { name: 'Galley' } });
    expect((await api('DELETE', `/api/teams/${kitchen}`, ann)).status).toBe(204);
    expect((await api('GET', '/api/auth/me', lea)).body.teams).toEqual([]);

    // An API token reads teams, administers none.
    const token = (await api('POST', '/api/auth/api-tokens', ann, { name: 'script', expires_in_days: 30, password: PASSWORD })).body.token as string;
    expect((await callJson(server, 'GET', '/api/teams', undefined, token)).status).toBe(200);
    expect((await callJson(server, 'POST', '/api/teams', { name: 'Bar' }, token)).body).toMatchObject({ code: 'FORBIDDEN_FOR_API_TOKEN' });

    // Each change is audited with the one who made it.
    const trail = JSON.parse(String((await cliInProcess(db, ['--json', 'audit', 'list'])).stdout)).events as Array<{ action: string; actor: string }>;
    expect(trail.filter((e) => e.action.startsWith('team_')).map((e) => [e.action, e.actor])).toEqual(
      expect.arrayContaining([
        ['team_created', `user:${ann.id}`],
        ['team_member_added', `user:${lea.id}`],
        ['team_member_removed', `user:${lea.id}`],
        ['team_renamed', `user:${ann.id}`],
        ['team_deleted', `user:${ann.id}`],
      ]),
    );
  });

  it('the team commands: create, add by e-mail or id, --lead, show, rename, remove, delete; names and accounts not found', { timeout: 120_000 }, async () => {
    const db = tempDb();
    await createAccountWithCli(db, 'ann@example.com');
    await createAccountWithCli(db, 'bob@example.com');
    // `team create` and its refusal through the binary, the other steps through the same bundle in
    // process (docs/testing.md, "How fast").
    const json = async (args: string[], run: (db: string, args: string[]) => Promise<{ stdout: unknown; stderr: unknown }> = cliInProcess) => {
      const result = await run(db, ['--json', ...args]);
      expect(result.stderr).toBe('');
      return JSON.parse(String(result.stdout));
    };
    const team = (await json(['team', 'create', 'Kitchen'], cli)).team as { id: number };
    expectFailure(await cli(db, ['team', 'create', 'kitchen']), 1, /TEAM_NAME_TAKEN|exists already/);
    const bobId = (await json(['user', 'show', 'bob@example.com'])).user.id as number;
    await json(['team', 'add', 'kitchen', 'ann@example.com', '--lead']);
    await json(['team', 'add', String(team.id), String(bobId)]);
    expect(await json(['team', 'show', 'Kitchen'])).toMatchObject({
      team: { name: 'Kitchen' },
      members: [
        { user: { email: 'ann@example.com' }, role: 'lead' },
        { user: { email: 'bob@example.com' }, role: 'member' },
      ],
    });
    expect((await json(['team', 'rename', 'Kitchen', 'Galley'])).team.name).toBe('Galley');
    await json(['team', 'remove', 'Galley', 'bob@example.com']);
    expectFailure(await cliInProcess(db, ['team', 'remove', 'Galley', 'bob@example.com']), 3, /not in the team/);
    expectFailure(await cliInProcess(db, ['team', 'show', 'Nowhere']), 3, /no team named Nowhere/);
    expect((await json(['team', 'list'])).teams).toMatchObject([{ name: 'Galley' }]);
    await json(['team', 'delete', 'Galley']);
    expect((await json(['team', 'list'])).teams).toEqual([]);
    const trail = (await json(['audit', 'list'])).events as Array<{ action: string; actor: string }>;
    expect(trail.filter((e) => e.action.startsWith('team_')).map((e) => [e.action, e.actor.split(':')[0]])).toEqual(
      expect.arrayContaining([
        ['team_created', 'os'],
        ['team_member_added', 'os'],
        ['team_renamed', 'os'],
        ['team_member_removed', 'os'],
        ['team_deleted', 'os'],
      ]),
    );
  });
});
