// The audit trail's retention (docs/security.md, "The audit trail"), on both engines: rows older than
// AUDIT_RETENTION_DAYS are deleted, 1,000 per statement, by `timetrack audit prune` (which says how
// many went, and records that it ran) and by the `audit retention` job of a real `serve`; younger
// rows stay; the setting refuses less than 30 days.
import os from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import type { AuditRecord } from '../../src/auth/audit.js';
import { cli, createAccountWithCli, expectFailure, tempDb } from '../support/cli-accounts.js';
import { cliInProcess } from '../support/cli-in-process.js';
import { onPostgres, queryRows } from '../support/database.js';
import { startServer, type RunningServer } from '../support/server.js';

const DAY_MS = 86_400_000;
const ME = `os:${os.userInfo().username}`;
let server: RunningServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

/** Plants `count` audit rows `daysAgo` days old, behind the application's back. */
async function plant(db: string, count: number, daysAgo: number, action: string): Promise<void> {
  const at = new Date(Date.now() - daysAgo * DAY_MS).toISOString();
  const value = onPostgres ? 'cast(? as timestamptz)' : '?';
  await queryRows(
    db,
    `with recursive n(i) as (select 1 union all select i + 1 from n where i < ${count})
     insert into audit_events (at, actor, action, user_id, user_email, detail)
     select ${value}, 'os:planted', ?, null, null, '{}' from n`,
    [at, action],
  );
}

async function actions(db: string): Promise<string[]> {
  const listed = await cliInProcess(db, ['--json', 'audit', 'list', '--limit', '10000']);
  expect(listed.exitCode, String(listed.stderr)).toBe(0);
  return (JSON.parse(String(listed.stdout)) as { events: AuditRecord[] }).events.map((event) => event.action);
}

const count = (list: string[], action: string) => list.filter((item) => item === action).length;

describe('the retention of the audit trail', () => {
  it(
    'audit prune deletes the rows past AUDIT_RETENTION_DAYS in batches of 1,000, keeps the younger ones, and says how many went',
    { timeout: 120_000 },
    async () => {
      const db = tempDb();
      await createAccountWithCli(db, 'ann@example.com');
      await plant(db, 2500, 401, 'account_unlocked');
      await plant(db, 3, 399, 'account_disabled');

      const pruned = await cli(db, ['--json', 'audit', 'prune']);
      expect(pruned.stderr).toBe('');
      expect(pruned.exitCode).toBe(0);
      const result = JSON.parse(String(pruned.stdout)) as { deleted: number; batches: number; before: string; retention_days: number };
      expect(result).toMatchObject({ deleted: 2500, batches: 3, retention_days: 400 });
      expect(Date.now() - new Date(result.before).getTime()).toBeGreaterThanOrEqual(400 * DAY_MS - 60_000);

      const left = await actions(db);
      expect(count(left, 'account_unlocked')).toBe(0);
      expect(count(left, 'account_disabled')).toBe(3);
      expect(count(left, 'account_created')).toBe(1);
      // The pruning is in the trail itself, by whom and how many.
      const events = (JSON.parse(String((await cliInProcess(db, ['--json', 'audit', 'list', '--limit', '1'])).stdout)) as { events: AuditRecord[] }).events;
      expect(events[0]).toMatchObject({ action: 'audit_pruned', actor: ME, detail: { deleted: 2500, before: result.before } });

      // A shorter retention from the setting; a second run finds nothing and records nothing.
      const shorter = await cli(db, ['audit', 'prune'], { env: { AUDIT_RETENTION_DAYS: '398' } });
      expect(shorter.exitCode).toBe(0);
      expect(String(shorter.stdout).split('\n')[0]).toMatch(/^deleted 3 audit rows older than \S+Z \(AUDIT_RETENTION_DAYS=398\)$/);
      const again = await cli(db, ['audit', 'prune'], { env: { AUDIT_RETENTION_DAYS: '398' } });
      expect(String(again.stdout).split('\n')[0]).toMatch(/^deleted 0 audit rows older than/);
      expect(count(await actions(db), 'audit_pruned')).toBe(2);

      // Less than 30 days is refused before anything is deleted.
      expectFailure(await cli(db, ['audit', 'prune'], { env: { AUDIT_RETENTION_DAYS: '29' } }), 1, /AUDIT_RETENTION_DAYS/);
    },
  );

  it('serve deletes expired rows by itself every HOUSEKEEPING_INTERVAL', { timeout: 120_000 }, async () => {
    const db = tempDb();
    await createAccountWithCli(db, 'ann@example.com');
    await plant(db, 1200, 31, 'account_unlocked');
    await plant(db, 2, 29, 'account_disabled');
    server = await startServer(db, { HOUSEKEEPING_INTERVAL: '1s', AUDIT_RETENTION_DAYS: '30' });
    const deadline = Date.now() + 60_000;
    while (!server.output().includes('audit rows past their retention deleted') && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const line = server
      .output()
      .split('\n')
      .find((text) => text.includes('audit rows past their retention deleted'));
    expect(line, server.output()).toBeDefined();
    expect(JSON.parse(line!)).toMatchObject({ deleted: 1200 });
    const left = await actions(db);
    expect(count(left, 'account_unlocked')).toBe(0);
    expect(count(left, 'account_disabled')).toBe(2);
    expect(count(left, 'account_created')).toBe(1);
  });
});
