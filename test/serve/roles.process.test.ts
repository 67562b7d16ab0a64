// Roles against a real `serve` and the built binary, on both engines (docs/teams.md, docs/api.md
// "Users"): GET /api/auth/me answers the role; /api/users is for admins (403 FORBIDDEN for the list,
// 404 for another account's id), never for an API token; granting or removing admin needs the actor's
// password; the last active admin cannot be demoted, disabled, deleted or close the account (409 LAST_ADMIN).
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

async function signIn(email: string): Promise<string> {
  const answer = await callJson(server!, 'POST', '/api/auth/login', { email, password: PASSWORD });
  expect(answer.status).toBe(200);
  return (answer.body as { token: string }).token;
}

describe('roles', () => {
  it('me answers the role; the list is for admins; another account is 404 for a member; a token administers nothing', { timeout: 120_000 }, async () => {
    const db = tempDb();
    await createAccountWithCli(db, 'ann@example.com', ['--role', 'admin']);
    await createAccountWithCli(db, 'bob@example.com', ['--name', 'Bob Builder']);
    await createAccountWithCli(db, 'cid@example.com');
    server = await startServer(db);
    const ann = await signIn('ann@example.com');
    const bob = await signIn('bob@example.com');

    const me = await callJson(server, 'GET', '/api/auth/me', undefined, ann);
    expect(me.body).toMatchObject({ user: { email: 'ann@example.com' }, role: 'admin', teams: [] });
    const bobMe = (await callJson(server, 'GET', '/api/auth/me', undefined, bob)).body as { user: { id: number }; role: string };
    expect(bobMe.role).toBe('member');
    const annId = (me.body as { user: { id: number } }).user.id;

    // A member: the list is 403, another account 404 (read or change), its own account readable but not its role.
    expect((await callJson(server, 'GET', '/api/users', undefined, bob)).body).toMatchObject({ statusCode: 403, code: 'FORBIDDEN' });
    expect(await callJson(server, 'GET', `/api/users/${annId}`, undefined, bob)).toMatchObject({ status: 404 });
    expect(await callJson(server, 'GET', `/api/users/999999`, undefined, bob)).toMatchObject({ status: 404 });
    expect(await callJson(server, 'PATCH', `/api/users/${annId}`, { role: 'member' }, bob)).toMatchObject({ status: 404 });
    expect((await callJson(server, 'GET', `/api/users/${bobMe.user.id}`, undefined, bob)).body).toMatchObject({ user: { role: 'member' } });
    expect((await callJson(server, 'PATCH', `/api/users/${bobMe.user.id}`, { role: 'admin' }, bob)).body).toMatchObject({ code: 'FORBIDDEN' });

    // The admin: pages by id, a search in e-mail and name.
    const first = await callJson(server, 'GET', '/api/users?limit=2', undefined, ann);
    expect(first.status).toBe(200);
    expect(first.body.users.map((u: { email: string }) => u.email)).toEqual(['ann@example.com', 'bob@example.com']);
    const second = await callJson(server, 'GET', `/api/users?limit=2&cursor=${first.body.next_cursor as string}`, undefined, ann);
    expect(second.body).toMatchObject({ users: [{ email: 'cid@example.com', role: 'member' }], next_cursor: null });
    expect((await callJson(server, 'GET', '/api/users?q=BUILD', undefined, ann)).body.users).toMatchObject([{ email: 'bob@example.com' }]);
    expect((await callJson(server, 'GET', '/api/users?q=%25', undefined, ann)).body.users).toEqual([]);

    // An API token of the admin: 403 FORBIDDEN_FOR_API_TOKEN on every administration route.
    const created = await callJson(server, 'POST', '/api/auth/api-tokens', { name: 'script', expires_in_days: 30, password: PASSWORD }, ann);
    expect(created.status).toBe(201);
    const token = (created.body as { token: string }).token;
    for (const [method, url, body] of [
      ['GET', '/api/users', undefined],
      ['GET', `/api/users/${annId}`, undefined],
      ['PATCH', `/api/users/${bobMe.user.id}`, { role: 'lead' }],
    ] as const) {
      expect((await callJson(server, method, url, body, token)).body).toMatchObject({ statusCode: 403, code: 'FORBIDDEN_FOR_API_TOKEN' });
    }
    expect((await callJson(server, 'GET', '/api/auth/me', undefined, token)).body).toMatchObject({ role: 'admin' });
  });

  it('granting admin needs the password; the last active admin stays one, in the API and the CLI', { timeout: 120_000 }, async () => {
    const db = tempDb();
    await createAccountWithCli(db, 'ann@example.com', ['--role', 'admin']);
    await createAccountWithCli(db, 'bob@example.com');
    server = await startServer(db);
    const ann = await signIn('ann@example.com');
    const bobId = (await callJson(server, 'GET', '/api/users?q=bob', undefined, ann)).body.users[0].id as number;

    expect((await callJson(server, 'PATCH', `/api/users/${bobId}`, { role: 'lead' }, ann)).body).toMatchObject({ user: { role: 'lead' } });
    expect((await callJson(server, 'PATCH', `/api/users/${bobId}`, { role: 'admin' }, ann)).body).toMatchObject({ statusCode: 400, code: 'VALIDATION_ERROR' });
    expect((await callJson(server, 'PATCH', `/api/users/${bobId}`, { role: 'admin', password: 'not the password' }, ann)).body).toMatchObject({
      statusCode: 403,
      code: 'INVALID_PASSWORD',
    });
    expect((await callJson(server, 'PATCH', `/api/users/${bobId}`, { role: 'admin', password: PASSWORD }, ann)).body).toMatchObject({
      user: { role: 'admin' },
    });

    // Bob, now an admin, demotes Ann; then Bob is the last one.
    const bob = await signIn('bob@example.com');
    const annId = (await callJson(server, 'GET', '/api/auth/me', undefined, ann)).body.user.id as number;
    expect((await callJson(server, 'PATCH', `/api/users/${annId}`, { role: 'member', password: PASSWORD }, bob)).body).toMatchObject({
      user: { role: 'member' },
    });
    expect((await callJson(server, 'PATCH', `/api/users/${bobId}`, { role: 'member', password: PASSWORD }, bob)).body).toMatchObject({
      statusCode: 409,
      code: 'LAST_ADMIN',
    });
    expect((await callJson(server, 'DELETE', '/api/auth/account', { password: PASSWORD }, bob)).body).toMatchObject({ statusCode: 409, code: 'LAST_ADMIN' });
    // One refusal through the binary, the same refusal of the other commands in process (docs/testing.md, "How fast").
    expectFailure(await cli(db, ['user', 'role', 'bob@example.com', 'member']), 1, /LAST_ADMIN|last active admin/);
    expectFailure(await cliInProcess(db, ['user', 'disable', 'bob@example.com']), 1, /LAST_ADMIN|last active admin/);
    expectFailure(await cliInProcess(db, ['user', 'delete', 'bob@example.com', '--yes']), 1, /LAST_ADMIN|last active admin/);
    expect((await callJson(server, 'GET', '/api/auth/me', undefined, bob)).body).toMatchObject({ role: 'admin' });

    // With a second admin, the first may go; the change is audited with the actor.
    expect((await cliInProcess(db, ['user', 'role', 'ann@example.com', 'admin'])).exitCode).toBe(0);
    expect((await cliInProcess(db, ['user', 'disable', 'bob@example.com'])).exitCode).toBe(0);
    const trail = JSON.parse(String((await cliInProcess(db, ['--json', 'audit', 'list', '--user', 'ann@example.com'])).stdout)) as {
      events: Array<{ action: string; actor: string; detail: unknown }>;
    };
    const changes = trail.events.filter((event) => event.action === 'role_changed');
    expect(changes.map((event) => [event.actor.split(':')[0], event.detail])).toEqual(
      expect.arrayContaining([
        ['user', { from: 'admin', to: 'member' }],
        ['os', { from: 'member', to: 'admin' }],
      ]),
    );
  });
});
