// `timetrack report month` through the built binary (docs/cli.md): the monthly timesheet as JSON, CSV
// and PDF, equal to what the API answers; the file written readable by its owner alone.
import fs from 'node:fs';
import path from 'node:path';
import { DateTime } from 'luxon';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, makeTempDir, type TestApp, TestClock } from '../support/app.js';
import { cli, expectFailure } from '../support/cli-accounts.js';
import { cliInProcess } from '../support/cli-in-process.js';
import { addEntry, signIn } from '../support/requests.js';
import { expectPdfShowsSheet } from '../support/timesheet.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
});

describe('timetrack report month', () => {
  it('prints the JSON of the API, the CSV, and writes a PDF with the same figures (mode 0600)', async () => {
    t = await createTestApp({ clock: new TestClock(new Date()) });
    const ann = await signIn(t);
    const month = DateTime.utc().minus({ months: 1 }).toFormat('yyyy-MM');
    await ann.call('PATCH', '/api/settings', { tracking_start: `${month}-01`, break_rules: [{ worked_over_minutes: 360, break_minutes: 30 }] });
    await addEntry(ann, `${month}-03T07:00:00Z`, `${month}-03T15:00:00Z`);
    await addEntry(ann, `${month}-04T07:00:00Z`, `${month}-04T11:00:00Z`);
    await ann.call('POST', '/api/time-entries/bookings', { date: `${month}-05`, minutes: 45, kind: 'correction' });
    const api = (await ann.call('GET', `/api/stats/month?month=${month}`)).json();

    const json = await cli(t.dbPath, ['report', 'month', 'ann@example.com', '--month', month, '--format', 'json']);
    expect(json.stderr).toBe('');
    expect(JSON.parse(String(json.stdout))).toEqual(api);
    const csv = await cli(t.dbPath, ['report', 'month', 'ann@example.com', '--month', month, '--format', 'csv']);
    const apiCsv = (await ann.call('GET', `/api/stats/month.csv?month=${month}`)).body;
    // execa drops the last line break of what it captures.
    expect(`${String(csv.stdout)}\n`).toBe(apiCsv);

    const file = path.join(makeTempDir('timetrack-report-'), 'sheet.pdf');
    const written = await cli(t.dbPath, ['report', 'month', 'ann', '--month', month, '--output', file]);
    expectFailure(written, 3, /no account with the username ann/);
    const pdf = await cli(t.dbPath, ['report', 'month', 'ann@example.com', '--month', month, '--output', file]);
    expect(pdf.exitCode, String(pdf.stderr)).toBe(0);
    expect(String(pdf.stdout)).toBe(`wrote ${file}`);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expectPdfShowsSheet(fs.readFileSync(file), api);

    expectFailure(await cli(t.dbPath, ['report', 'month', 'ann@example.com', '--month', '2026-3']), 2, /--month/);
    expectFailure(await cliInProcess(t.dbPath, ['report', 'month', 'ann@example.com', '--format', 'xlsx']), 2, /--format/);
  });
});
