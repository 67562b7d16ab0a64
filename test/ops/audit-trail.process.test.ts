// The audit trail an auditor accepts, through the built binary (both engines): every admin change is
// recorded with the account's id, its e-mail address at the time and the person who ran the command
// (`os:<login>`, and `sudo:<login>` under sudo); `audit list --user` takes an e-mail address or a
// username and finds the account's events across e-mail changes (by id), a deleted account's by an
// address it had; an unknown account exits 3 with one line.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { AuditRecord } from '../../src/auth/audit.js';
import { makeTempDir, PASSWORD } from '../support/app.js';
import { cli, createAccountWithCli, expectFailure, tempDb } from '../support/cli-accounts.js';
import { cliInProcess } from '../support/cli-in-process.js';
import { onPostgres } from '../support/database.js';
import { startServer, type RunningServer } from '../support/server.js';

type Event = AuditRecord;

const ME = `os:${os.userInfo().username}`;
let server: RunningServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

async function events(db: string, ...filter: string[]): Promise<Event[]> {
  const listed = await cliInProcess(db, ['--json', 'audit', 'list', '--limit', '1000', ...filter]);
  expect(listed.stderr).toBe('');
  expect(listed.exitCode).toBe(0);
  return (JSON.parse(String(listed.stdout)) as { events: Event[] }).events;
}

async function ok(db: string, args: string[], options: { input?: string; env?: Record<string, string> } = {}) {
  const result = await cliInProcess(db, args, options);
  expect(result.stderr, args.join(' ')).toBe('');
  expect(result.exitCode, args.join(' ')).toBe(0);
  return result;
}

async function signIn(identifier: string, password = PASSWORD): Promise<string> {
  const response = await fetch(`${server!.baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: identifier, password }),
  });
  expect(response.status).toBe(200);
  return ((await response.json()) as { token: string }).token;
}

describe('the audit trail of admin commands', () => {
  // Some twenty runs of the built binary: over a minute on a loaded two-core machine.
  it(
    'records every admin change with the account id, its e-mail at the time and the actor; --user follows the account across e-mail changes',
    { timeout: 240_000 },
    async () => {
      const db = tempDb();
      await createAccountWithCli(db, 'ann@example.com', ['--username', 'ann_k']);
      await createAccountWithCli(db, 'bob@example.com');
      const annId = (JSON.parse(String((await ok(db, ['--json', 'user', 'show', 'ann_k'])).stdout)) as { user: { id: number } }).user.id;

      // Two sessions, made by a real server, which set-password revokes (the commands act on the
      // database of the running server: it keeps no account or session of its own).
      server = await startServer(db);
      const first = await signIn('ann_k');
      const second = await signIn('ann@example.com');

      const newPassword = 'a fresh and long passphrase';
      await ok(db, ['user', 'set-password', 'ann@example.com', '--password-stdin'], { input: `${newPassword}\n` });
      await ok(db, ['user', 'unlock', 'ann_k']);
      await ok(db, ['user', 'disable', 'ann_k']);
      await ok(db, ['user', 'enable', 'ann_k']);
      // Two new sessions: one revoked by its id, one by its token.
      const third = await signIn('ann_k', newPassword);
      const fourth = await signIn('ann_k', newPassword);
      expect(third).not.toBe(fourth);
      await server.stop();
      server = undefined;
      const [byId] = (JSON.parse(String((await ok(db, ['--json', 'token', 'list', '--user', 'ann_k'])).stdout)) as { sessions: Array<{ id: number }> })
        .sessions;
      await ok(db, ['token', 'revoke', '--id', String(byId!.id)]);
      await ok(db, ['token', 'revoke', '--token', '-'], { input: `${fourth}\n` });
      await ok(db, ['reset', 'issue', 'ann_k']);
      // The e-mail address changes: later events carry the new one, earlier ones keep the old.
      await ok(db, ['user', 'update', 'ann_k', '--email', 'ann.k@example.org', '--name', 'Ann K.']);
      await ok(db, ['token', 'revoke', '--user', 'ann.k@example.org']);
      const exported = path.join(makeTempDir('timetrack-audit-'), 'ann.json');
      fs.writeFileSync(exported, String((await ok(db, ['user', 'export', 'ann.k@example.org'])).stdout));
      await ok(db, ['user', 'import', exported, '--skip-existing']);
      // Run through sudo: the login that ran sudo is named too (a hostile value is not written as it is).
      await ok(db, ['user', 'unlock', 'ann_k'], { env: { SUDO_USER: 'alice' } });
      await ok(db, ['user', 'unlock', 'ann_k'], { env: { SUDO_USER: 'mallory\n2026-01-01 forged line' } });
      await ok(db, ['user', 'delete', 'bob@example.com', '--yes']);

      const ann = await events(db, '--user', 'ann_k');
      expect(ann.map((event) => [event.action, event.user_email])).toEqual([
        ['account_unlocked', 'ann.k@example.org'],
        ['account_unlocked', 'ann.k@example.org'],
        ['account_imported', 'ann.k@example.org'],
        ['sessions_revoked', 'ann.k@example.org'],
        ['account_updated', 'ann.k@example.org'],
        ['reset_issued', 'ann@example.com'],
        ['sessions_revoked', 'ann@example.com'],
        ['sessions_revoked', 'ann@example.com'],
        ['account_enabled', 'ann@example.com'],
        ['account_disabled', 'ann@example.com'],
        ['account_unlocked', 'ann@example.com'],
        ['password_set', 'ann@example.com'],
        ['account_created', 'ann@example.com'],
      ]);
      expect(ann.every((event) => event.user_id === annId)).toBe(true);
      expect(ann.slice(2).every((event) => event.actor === ME)).toBe(true);
      expect(ann[1]!.actor).toBe(`${ME} sudo:alice`);
      expect(ann[0]!.actor).toBe(`${ME} sudo:?`);
      expect(ann[4]!.detail).toEqual({ email: { from: 'ann@example.com', to: 'ann.k@example.org' }, full_name: { from: 'Test Person', to: 'Ann K.' } });
      expect(ann[6]!.detail).toMatchObject({ by: 'token', revoked: 1, session_id: expect.any(Number) });
      expect(ann[7]!.detail).toEqual({ by: 'id', session_id: byId!.id, revoked: 1 });
      expect(ann[11]!.detail).toMatchObject({ revoked_sessions: 2 });
      // No secret in any event: not the passwords, not a token.
      const all = JSON.stringify(await events(db));
      for (const secret of [PASSWORD, newPassword, first, second, third, fourth]) expect(all).not.toContain(secret);

      // The same account by its new address, by its old one, in any case; the text names the actor.
      expect((await events(db, '--user', 'ANN.K@example.org')).map((event) => event.id)).toEqual(ann.map((event) => event.id));
      expect((await events(db, '--user', 'ann@example.com')).map((event) => event.id)).toEqual(ann.map((event) => event.id));
      const text = await ok(db, ['audit', 'list', '--user', 'ann_k', '--limit', '2']);
      expect(String(text.stdout).split('\n')[1]).toMatch(new RegExp(`^\\S+Z {2}account_unlocked {2}by ${ME} sudo:alice {2}ann\\.k@example\\.org$`));

      // A deleted account, by the address it had.
      expect((await events(db, '--user', 'bob@example.com')).map((event) => event.action)).toEqual(['account_deleted', 'account_created']);

      // An unknown account: exit 3, one line.
      // The first through the binary, the second through the same bundle in process (docs/testing.md, "How fast").
      for (const [index, unknown] of ['nobody@example.com', 'no_such_name'].entries()) {
        const result = await (index === 0 ? cli : cliInProcess)(db, ['audit', 'list', '--user', unknown]);
        expectFailure(result, 3, /no account with the (e-mail address|username) .*, and no audit event of one/);
        expect(String(result.stderr).trim().split('\n')).toHaveLength(1);
      }
    },
  );

  it.skipIf(onPostgres)("restore is recorded in the restored database, by whom and from which file (SQLite: pg_restore is the operator's)", async () => {
    const db = tempDb();
    await createAccountWithCli(db, 'ann@example.com');
    const backup = path.join(makeTempDir('timetrack-audit-'), 'copy.db');
    await ok(db, ['backup', backup]);
    await ok(db, ['user', 'disable', 'ann@example.com']);
    const restored = await ok(db, ['--json', 'restore', backup], { env: { SUDO_USER: 'alice' } });
    expect(JSON.parse(String(restored.stdout))).toMatchObject({ audited: true });
    const [last, ...rest] = await events(db);
    expect(last).toMatchObject({
      action: 'database_restored',
      actor: `${ME} sudo:alice`,
      user_id: null,
      detail: { from: backup, checksum_verified: true, bytes: expect.any(Number), sha256: fs.readFileSync(`${backup}.sha256`, 'utf8').split(' ')[0] },
    });
    // The checksum of the bytes restored, as the backup's .sha256 states it.
    expect(last!.detail.sha256).toMatch(/^[0-9a-f]{64}$/);
    // The disable came after the backup: the restored trail does not have it.
    expect(rest.map((event) => event.action)).toEqual(['account_created']);
  });
});
