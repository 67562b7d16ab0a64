// Moving a person between instances with the real binary: `user export` on one database, `user
// import` on another (settings, entries, absences come along; no secret does), a second import with
// --skip-existing changes nothing, and the API hands the signed-in person the same document.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { runCli } from '../support/cli.js';
import { tempDb } from '../support/cli-accounts.js';
import { addEntry, type SignedIn, signIn } from '../support/requests.js';

let t: TestApp;
let ann: SignedIn;

beforeEach(async () => {
  t = await createTestApp();
  t.clock.set('2026-03-10T12:00:00.000Z');
  ann = await signIn(t, 'ann@example.com');
  await ann.call('PATCH', '/api/settings', { timezone: 'Europe/Berlin', holiday_region: 'DE-BY', weekly_target_minutes: { fri: 300 } });
  await addEntry(ann, '2026-03-02T08:00:00Z', '2026-03-02T12:00:00Z', 'first');
  await addEntry(ann, '2026-03-03T08:00:00Z', '2026-03-03T09:30:00Z', 'second');
  expect((await ann.call('POST', '/api/time-entries/absences', { date: '2026-03-05', type: 'vacation', note: 'away' })).statusCode).toBeLessThan(300);
});
afterEach(async () => {
  await t.close();
});

describe('user export and import', () => {
  it('carries fields, settings, entries and absences to another database, without secrets; --skip-existing makes a re-run harmless', async () => {
    const exported = await runCli(['--db', t.dbPath, 'user', 'export', 'ann@example.com']);
    expect(exported.exitCode).toBe(0);
    const document = JSON.parse(String(exported.stdout));
    expect(document).toMatchObject({
      format: 'timetrack-account',
      version: 1,
      user: { email: 'ann@example.com', full_name: expect.any(String) },
      settings: { timezone: 'Europe/Berlin', holiday_region: 'DE-BY', weekly_target_minutes: expect.objectContaining({ fri: 300 }) },
      entries: [
        { start_at: '2026-03-02T08:00:00.000Z', end_at: '2026-03-02T12:00:00.000Z', note: 'first' },
        { start_at: '2026-03-03T08:00:00.000Z', end_at: '2026-03-03T09:30:00.000Z', note: 'second' },
      ],
      absences: [{ date: '2026-03-05', type: 'vacation', portion: 'full', note: 'away' }],
    });
    expect(String(exported.stdout)).not.toMatch(/argon2|password|token|"id"/);

    const file = path.join(t.dir, 'ann.json');
    fs.writeFileSync(file, String(exported.stdout));
    const target = tempDb();
    expect((await runCli(['--db', target, 'migrate'])).exitCode).toBe(0);
    const imported = await runCli(['--db', target, '--json', 'user', 'import', file]);
    expect(imported.stderr).toBe('');
    expect(JSON.parse(String(imported.stdout))).toMatchObject({ created: true, entries: 2, absences: 1, skipped_entries: 0 });
    const again = await runCli(['--db', target, '--json', 'user', 'import', file]);
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toMatch(/entries\[1\]: The entry would overlap entry/);
    const skipping = await runCli(['--db', target, '--json', 'user', 'import', '--skip-existing', file]);
    expect(skipping.exitCode).toBe(0);
    expect(JSON.parse(String(skipping.stdout))).toMatchObject({ created: false, entries: 0, skipped_entries: 2, absences: 0, skipped_absences: 1 });

    const copy = JSON.parse(String((await runCli(['--db', target, 'user', 'export', 'ann@example.com'])).stdout));
    expect({ ...copy, exported_at: undefined, user: { ...copy.user, created_at: undefined } }).toEqual({
      ...document,
      exported_at: undefined,
      user: { ...document.user, created_at: undefined },
    });
    const audit = JSON.parse(String((await runCli(['--db', target, '--json', 'audit', 'list'])).stdout)) as { events: Array<{ action: string }> };
    expect(audit.events.map((event) => event.action)).toContain('account_imported');
  });

  it('the API hands the signed-in person the same document', async () => {
    const response = await ann.call('GET', '/api/settings/export');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toBe('attachment; filename="timetrack-account.json"');
    const cliDocument = JSON.parse(String((await runCli(['--db', t.dbPath, 'user', 'export', 'ann@example.com'])).stdout));
    expect({ ...response.json(), exported_at: undefined }).toEqual({ ...cliDocument, exported_at: undefined });
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/settings/export' });
    expect(anonymous.statusCode).toBe(401);
  });
});
