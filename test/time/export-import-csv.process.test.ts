// CSV export (HTTP and CLI, the same text) and import with the real binary: the round trip gives
// the same entries; a file with a bad row writes nothing and names the line.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { addEntry, type SignedIn, signIn } from '../support/requests.js';
import { runCli } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';

let t: TestApp;
let ann: SignedIn;
let bob: SignedIn;

const NOTES = ['plain', 'comma, "quotes" and\na second line', '=SUM(A1:A9)', "'quoted already", 'Überstunden ☕'];

beforeEach(async () => {
  t = await createTestApp();
  t.clock.set('2026-03-10T12:00:00.000Z');
  ann = await signIn(t, 'ann@example.com');
  bob = await signIn(t, 'bob@example.com');
  await ann.call('PATCH', '/api/settings', { timezone: 'Europe/Berlin', timezone_valid_from: '1970-01-01' });
  await addEntry(ann, '2026-03-02T08:00:00Z', '2026-03-02T12:00:00Z', NOTES[0]);
  await addEntry(ann, '2026-03-02T22:30:00Z', '2026-03-03T01:15:30.250Z', NOTES[1]);
  await addEntry(ann, '2026-03-04T07:00:00Z', '2026-03-04T15:00:00Z', NOTES[2]);
  await addEntry(ann, '2026-03-05T07:00:00Z', '2026-03-05T08:00:00Z', NOTES[3]);
  await addEntry(ann, '2026-03-06T07:00:00Z', '2026-03-06T08:00:00Z', NOTES[4]);
});
afterEach(async () => {
  await t.close();
});

const cli = (...args: string[]) => runCli(['--db', t.dbPath, ...args]);
// The same bundle in process, for the steps after the first of a command (docs/testing.md, "How fast").
const cliIn = (...args: string[]) => runCliInProcess(['--db', t.dbPath, ...args]);
const spans = async (user: SignedIn) =>
  (await user.call('GET', '/api/time-entries')).json().entries.map((e: { start_at: string; end_at: string; note: string }) => [e.start_at, e.end_at, e.note]);

describe('CSV export', () => {
  it('answers text/csv with UTC and local columns, quoting, and formulas neutralised', async () => {
    const response = await ann.call('GET', '/api/time-entries/export?from=2026-03-02&to=2026-03-05');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe('attachment; filename="time-entries.csv"');
    const rows = parse(response.body, { columns: true }) as Array<Record<string, string>>;
    expect(response.body.split('\n')[0]).toBe('id,start_at,end_at,start_local,end_local,note');
    expect(rows).toHaveLength(3);
    expect(rows[1]).toEqual({
      id: expect.stringMatching(/^\d+$/),
      start_at: '2026-03-02T22:30:00.000Z',
      end_at: '2026-03-03T01:15:30.250Z',
      start_local: '2026-03-02 23:30:00',
      end_local: '2026-03-03 02:15:30',
      note: NOTES[1],
    });
    // A spreadsheet would run "=SUM(…)": it is written with a leading apostrophe.
    expect(rows[2]?.note).toBe("'=SUM(A1:A9)");
    const bad = await ann.call('GET', '/api/time-entries/export?from=soon');
    expect(bad.statusCode).toBe(400);
  });

  it('prints the same CSV from the CLI as from the route', async () => {
    const http = await ann.call('GET', '/api/time-entries/export?from=2026-03-03');
    const result = await cli('entries', 'export', '--user', 'ANN@example.com', '--from', '2026-03-03');
    expect(result.exitCode).toBe(0);
    expect(result.stdout + '\n').toBe(http.body);
    const unknown = await cliIn('entries', 'export', '--user', 'nobody@example.com');
    // Not found has its own exit code (docs/cli.md).
    expect(unknown.exitCode).toBe(3);
    expect(unknown.stderr).toMatch(/no account/);
    expect((await cliIn('entries', 'export')).exitCode).toBe(2);
  });
});

describe('CSV import (real binary)', () => {
  it('round trip: export, dry run writes nothing, --apply writes the same entries with new ids', async () => {
    const exported = await cli('entries', 'export', '--user', 'ann@example.com');
    const file = path.join(t.dir, 'entries.csv');
    fs.writeFileSync(file, String(exported.stdout));

    const dryRun = await cliIn('entries', 'import', '--user', 'bob@example.com', file);
    expect(dryRun.exitCode).toBe(0);
    expect(dryRun.stdout).toMatch(/dry run: 5 entries would be imported for bob@example.com/);
    expect(dryRun.stdout).toMatch(/line 2: 2026-03-02T08:00:00.000Z – 2026-03-02T12:00:00.000Z {2}"plain"/);
    // The second row's note has a line break: the third row starts on line 5.
    expect(dryRun.stdout).toMatch(/line 5: 2026-03-04T07:00:00.000Z/);
    expect(await spans(bob)).toEqual([]);

    const applied = await cli('--json', 'entries', 'import', '--user', 'bob@example.com', file, '--apply');
    expect(applied.exitCode).toBe(0);
    expect(JSON.parse(String(applied.stdout))).toMatchObject({ applied: true, entries: expect.any(Array) });
    expect(await spans(bob)).toEqual(await spans(ann));
    expect((await spans(bob)).map((span: string[]) => span[2])).toEqual(NOTES);
    const annIds = (await ann.call('GET', '/api/time-entries')).json().entries.map((e: { id: number }) => e.id);
    const bobIds = (await bob.call('GET', '/api/time-entries')).json().entries.map((e: { id: number }) => e.id);
    expect(bobIds.some((id: number) => annIds.includes(id))).toBe(false);
    // Bob's statistics know the imported time (per-day totals were written with the entries).
    const week = (await bob.call('GET', '/api/stats/week?date=2026-03-02')).json();
    expect(week.days[0].worked_minutes).toBe(240 + 90);

    // Importing the same file again: every row overlaps what is there now.
    const twice = await cliIn('entries', 'import', '--user', 'bob@example.com', file, '--apply');
    expect(twice.exitCode).toBe(1);
    expect(twice.stderr).toMatch(/line 2: The entry would overlap entry/);
    expect(await spans(bob)).toHaveLength(5);
  });

  it('a file with a bad row writes nothing and names the line of every bad row', async () => {
    const file = path.join(t.dir, 'bad.csv');
    fs.writeFileSync(
      file,
      [
        'id,start_at,end_at,start_local,end_local,note',
        '1,2026-03-02T08:00:00Z,2026-03-02T09:00:00Z,,,fine',
        '2,2026-03-02T11:00:00Z,2026-03-02T10:00:00Z,,,ends before it starts',
        '3,2026-03-03T08:00:00Z,2026-03-03T09:00:00Z,,,fine too',
        '4,not a time,2026-03-03T10:00:00Z,,,garbled',
      ].join('\n'),
    );
    const result = await cliIn('entries', 'import', '--user', 'bob@example.com', file, '--apply');
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/line 3: end_at must be after start_at/);
    expect(result.stderr).toMatch(/line 5: start_at must be an ISO 8601 instant/);
    expect(result.stderr).toMatch(/2 bad row\(s\) in .*bad\.csv; nothing was written/);
    expect(await spans(bob)).toEqual([]);
  });

  it('rows that overlap each other or an existing entry are refused, all or nothing', async () => {
    await addEntry(bob, '2026-03-04T08:00:00Z', '2026-03-04T09:00:00Z');
    const file = path.join(t.dir, 'overlap.csv');
    fs.writeFileSync(
      file,
      [
        'start_at,end_at,note',
        '2026-03-02T08:00:00Z,2026-03-02T10:00:00Z,first',
        '2026-03-02T09:30:00Z,2026-03-02T11:00:00Z,overlaps line 2',
        '2026-03-04T08:30:00Z,2026-03-04T08:45:00Z,overlaps an existing entry',
        '2026-03-05T08:30:00Z,2026-03-05T08:45:00Z,fine',
      ].join('\n'),
    );
    const result = await cliIn('entries', 'import', '--user', 'bob@example.com', file, '--apply');
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/line 3: overlaps the entry on line 2/);
    expect(result.stderr).toMatch(/line 4: The entry would overlap entry \d+/);
    expect(await spans(bob)).toHaveLength(1);
  });

  it('refuses a missing file or a file without the needed columns', async () => {
    const missing = await cliIn('entries', 'import', '--user', 'bob@example.com', path.join(t.dir, 'nope.csv'));
    expect(missing.exitCode).toBe(1);
    expect(missing.stderr).toMatch(/cannot read .*nope\.csv \(ENOENT\)/);
    const file = path.join(t.dir, 'columns.csv');
    fs.writeFileSync(file, 'begin,finish\n2026-03-02T08:00:00Z,2026-03-02T09:00:00Z\n');
    const wrong = await cliIn('entries', 'import', '--user', 'bob@example.com', file);
    expect(wrong.exitCode).toBe(1);
    expect(wrong.stderr).toMatch(/line 1: the header lacks the column\(s\) start_at, end_at, note/);
  });
});
