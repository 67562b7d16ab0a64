// `timetrack user invite` against the built binary (docs/cli.md; docs/teams.md, "Invitations"): the
// operator invites into a team by its name, the printed link makes the account through a real `serve`
// (in the team, with the role), the trail names the operator; an address with an account is refused.
import { afterEach, describe, expect, it } from 'vitest';
import { cli, createAccountWithCli, expectFailure, tempDb } from '../support/cli-accounts.js';
import { cliInProcess } from '../support/cli-in-process.js';
import { callJson, startServer, type RunningServer } from '../support/server.js';

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

describe('user invite', () => {
  it('prints a link that makes the account in the team; audited as the operator; EMAIL_TAKEN refused', { timeout: 120_000 }, async () => {
    const db = tempDb();
    await createAccountWithCli(db, 'ann@example.com');
    expect((await cliInProcess(db, ['team', 'create', 'Kitchen'])).exitCode).toBe(0);

    const invited = await cli(db, ['user', 'invite', 'Lia@Example.com', '--team', 'kitchen', '--name', 'Lia Lind', '--lead']);
    expect(invited.exitCode).toBe(0);
    expect(String(invited.stdout)).toMatch(/invited lia@example\.com into Kitchen as lead/);
    const link = /(https?:\/\/\S+\/accept-invite\?token=\S+)/.exec(String(invited.stdout))?.[1];
    expect(link).toBeDefined();
    const token = new URL(link!).searchParams.get('token')!;

    expectFailure(await cli(db, ['user', 'invite', 'ann@example.com', '--team', 'Kitchen']), 1, /EMAIL_TAKEN|already exists/);
    expectFailure(await cliInProcess(db, ['user', 'invite', 'bo@example.com', '--team', 'Nowhere']), 3, /no team named Nowhere/);

    const trail = String((await cliInProcess(db, ['audit', 'list'])).stdout);
    expect(trail).toMatch(/os:\S+.*invitation_created|invitation_created.*os:/);

    server = await startServer(db);
    const accepted = await callJson(server, 'POST', '/api/invitations/accept', { token, password: 'a long new passphrase', full_name: 'Lia Lind' });
    expect(accepted).toMatchObject({ status: 200, body: { user: { email: 'lia@example.com' } } });
    const me = await callJson(server, 'GET', '/api/auth/me', undefined, accepted.body.token as string);
    expect(me.body).toMatchObject({ role: 'lead', teams: [{ name: 'Kitchen', role: 'lead' }] });
  });
});
