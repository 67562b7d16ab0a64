// A lockout in the audit trail (docs/security.md, "The audit trail"), against a real `serve` and the
// built binary, on both engines: the lock of an account writes one `account_locked` row when it
// starts, whatever number of tries it then refuses, in parallel too; the lock of an identifier that
// matches no account writes none; the next lock (after `user unlock`) writes the next row.
import { afterEach, describe, expect, it } from 'vitest';
import type { AuditRecord } from '../../src/auth/audit.js';
import { PASSWORD } from '../support/app.js';
import { createAccountWithCli, tempDb } from '../support/cli-accounts.js';
import { cliInProcess } from '../support/cli-in-process.js';
import { callJson, startServer, type RunningServer } from '../support/server.js';

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

async function signIn(email: string, password: string): Promise<number> {
  return (await callJson(server!, 'POST', '/api/auth/login', { email, password })).status;
}

async function locks(db: string): Promise<AuditRecord[]> {
  const listed = await cliInProcess(db, ['--json', 'audit', 'list', '--limit', '1000']);
  expect(listed.exitCode, String(listed.stderr)).toBe(0);
  return (JSON.parse(String(listed.stdout)) as { events: AuditRecord[] }).events.filter((event) => event.action === 'account_locked');
}

describe('lockouts in the audit trail', () => {
  it('one account_locked row when a lock starts, not one per refused try; none for an unknown identifier', { timeout: 120_000 }, async () => {
    const db = tempDb();
    await createAccountWithCli(db, 'ann@example.com');
    const annId = (JSON.parse(String((await cliInProcess(db, ['--json', 'user', 'show', 'ann@example.com'])).stdout)) as { user: { id: number } }).user.id;
    server = await startServer(db, { LOCKOUT_ATTEMPTS: '3' });

    expect(await signIn('ann@example.com', 'wrong one')).toBe(401);
    expect(await signIn('ann@example.com', 'wrong two')).toBe(401);
    expect(await locks(db)).toEqual([]);
    // Twenty at once: the one that takes the last slot locks; the rest, and the right password, are refused.
    const statuses = await Promise.all(Array.from({ length: 20 }, (_, index) => signIn('ann@example.com', `parallel ${index}`)));
    expect(statuses.every((status) => status === 423)).toBe(true);
    expect(await signIn('ann@example.com', PASSWORD)).toBe(423);
    const [lock, ...more] = await locks(db);
    expect(more).toEqual([]);
    expect(lock).toMatchObject({
      actor: 'server',
      user_id: annId,
      user_email: 'ann@example.com',
      detail: { attempts: 3, locked_until: expect.stringMatching(/Z$/) },
    });
    expect(new Date(lock!.detail.locked_until as string).getTime()).toBeGreaterThan(Date.now());

    // An identifier that matches no account locks the same way, without a row.
    for (let index = 0; index < 5; index += 1) await signIn('nobody@example.com', 'a guess');
    expect(await signIn('nobody@example.com', 'a guess')).toBe(423);
    expect(await locks(db)).toHaveLength(1);

    // Unlocked by the operator, locked again: a second row.
    expect((await cliInProcess(db, ['user', 'unlock', 'ann@example.com'])).exitCode).toBe(0);
    for (let index = 0; index < 2; index += 1) expect(await signIn('ann@example.com', 'wrong again')).toBe(401);
    expect(await signIn('ann@example.com', 'wrong again')).toBe(423);
    expect(await signIn('ann@example.com', 'wrong again')).toBe(423);
    expect(await locks(db)).toHaveLength(2);
  });
});
