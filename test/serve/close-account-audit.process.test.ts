// The audit trail of a closed account (docs/security.md, "The audit trail"), against a real `serve`
// and the built binary, on both engines: closing keeps the account's earlier rows (actions, times,
// client addresses, counts) under the label `closed-account:<id>`, where `audit list --user` finds
// them; its e-mail address, names, username and what it typed (a token's name) are gone.
import { afterEach, describe, expect, it } from 'vitest';
import type { AuditRecord } from '../../src/auth/audit.js';
import { PASSWORD } from '../support/app.js';
import { cli, createAccountWithCli, expectFailure, tempDb } from '../support/cli-accounts.js';
import { cliInProcess } from '../support/cli-in-process.js';
import { callJson, startServer, type RunningServer } from '../support/server.js';

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

async function signIn(): Promise<string> {
  const answer = await callJson(server!, 'POST', '/api/auth/login', { email: 'ann_k', password: PASSWORD });
  expect(answer.status).toBe(200);
  return (answer.body as { token: string }).token;
}

async function trail(db: string, ...filter: string[]): Promise<AuditRecord[]> {
  const listed = await cliInProcess(db, ['--json', 'audit', 'list', ...filter]);
  expect(listed.stderr).toBe('');
  expect(listed.exitCode).toBe(0);
  return (JSON.parse(String(listed.stdout)) as { events: AuditRecord[] }).events;
}

describe('the audit trail of a closed account', () => {
  it('keeps its actions and client addresses under closed-account:<id>, found by audit list --user; nothing personal stays', { timeout: 120_000 }, async () => {
    const db = tempDb();
    await createAccountWithCli(db, 'ann@example.com', ['--username', 'ann_k']);
    await createAccountWithCli(db, 'bob@example.com');
    expect((await cliInProcess(db, ['user', 'update', 'ann_k', '--email', 'ann.k@example.org', '--name', 'Ann Kowalski'])).exitCode).toBe(0);
    const annId = (JSON.parse(String((await cliInProcess(db, ['--json', 'user', 'show', 'ann_k'])).stdout)) as { user: { id: number } }).user.id;

    server = await startServer(db);
    const session = await signIn();
    await signIn();
    const created = await callJson(server, 'POST', '/api/auth/api-tokens', { name: 'Ann Kowalski laptop', expires_in_days: 5, password: PASSWORD }, session);
    expect(created.status).toBe(201);
    expect((await callJson(server, 'POST', '/api/auth/sessions/revoke-others', undefined, session)).status).toBe(200);
    expect((await callJson(server, 'DELETE', '/api/auth/account', { password: PASSWORD }, session)).status).toBe(204);
    await server.stop();
    server = undefined;

    const label = `closed-account:${annId}`;
    const ann = await trail(db, '--user', label);
    expect(ann.map((event) => event.action)).toEqual(['account_closed', 'sessions_revoked', 'api_token_created', 'account_updated', 'account_created']);
    expect(ann.every((event) => event.user_id === annId && event.user_email === label)).toBe(true);
    // What happened, from where and how much, stays.
    expect(ann[1]!.detail).toEqual({ by: 'owner', others: 1, api_tokens: 1, client: '127.0.0.1' });
    expect(ann[2]!.detail).toEqual({ api_token_id: expect.any(Number), expires_at: expect.any(String), client: '127.0.0.1' });
    expect(ann[3]!.detail).toEqual({});
    expect(ann[4]!.detail).toEqual({});
    // Who the person was does not: not in Ann's rows, not anywhere in the trail.
    const everything = JSON.stringify(await trail(db, '--limit', '1000'));
    for (const personal of ['ann@example.com', 'ann.k@example.org', 'ann_k', 'Kowalski', 'Test Person']) expect(everything).not.toContain(personal);
    // Bob's rows are untouched.
    expect((await trail(db, '--user', 'bob@example.com')).map((event) => [event.action, event.user_email])).toEqual([['account_created', 'bob@example.com']]);

    // The text names the label; the e-mail address no longer finds the trail, an unknown label is no account.
    const text = await cli(db, ['audit', 'list', '--user', label, '--limit', '1']);
    expect(String(text.stdout).split('\n')[0]).toMatch(new RegExp(`^\\S+Z {2}account_closed {2}by user:${annId} {2}${label}$`));
    expectFailure(await cli(db, ['audit', 'list', '--user', 'ann.k@example.org']), 3, /no account with the e-mail address ann\.k@example\.org/);
    expectFailure(await cli(db, ['audit', 'list', '--user', 'closed-account:99999']), 3, /no audit event of the closed account closed-account:99999/);
  });
});
