// The sealed month's PDF and `timetrack report verify` (docs/teams.md, "The seal"; docs/cli.md) through
// a real `serve` and the built binary: an approved month's PDF prints who submitted and approved it,
// when, and the whole digest (en and de, the person's own and the lead's); its JSON carries a `seal`
// block. The untouched PDF and JSON match; each edited by one figure fails naming it; a month reopened
// and changed fails saying so; a file of a month never approved says so (exit 1).
import fs from 'node:fs';
import path from 'node:path';
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { timesheetPdf } from '../../src/time/timesheet/timesheet.js';
import { makeTempDir, PASSWORD } from '../support/app.js';
import { cli, kitchenWithLeaAndMax, tempDb } from '../support/cli-accounts.js';
import { cliInProcess } from '../support/cli-in-process.js';
import { callJson, startServer, type RunningServer } from '../support/server.js';
import { pdfText } from '../support/timesheet.js';

let server: RunningServer;
const db = tempDb();
const dir = makeTempDir('timetrack-verify-');
/** Last month and the month before (UTC): both over in Max's zone. */
const month = DateTime.utc().minus({ months: 1 }).toFormat('yyyy-MM');
const earlier = DateTime.utc().minus({ months: 2 }).toFormat('yyyy-MM');
const w = { lea: '', max: '', maxId: 0, name: '' };

async function download(url: string, token: string, name: string): Promise<string> {
  const response = await fetch(`${server.baseUrl}${url}`, { headers: { authorization: `Bearer ${token}` } });
  expect(response.status, url).toBe(200);
  const file = path.join(dir, name);
  fs.writeFileSync(file, Buffer.from(await response.arrayBuffer()));
  return file;
}

/** `report verify` through the binary: the first match and the first mismatch (docs/testing.md, "How fast"). */
const verify = (file: string) => cli(db, ['report', 'verify', file]);
/** The same command in process, for the other files it checks. */
const verifyInProcess = (file: string) => cliInProcess(db, ['report', 'verify', file]);

/** Exit 1 with one sentence on stderr; what differs is on stdout. */
function expectMismatch(result: { exitCode?: number; stdout: unknown; stderr: unknown }): string {
  expect(result.exitCode, String(result.stdout)).toBe(1);
  expect(String(result.stderr)).toMatch(/^timetrack: .* does not match the database \(\d+ finding\(s\)\)$/);
  return String(result.stdout);
}

beforeAll(async () => {
  await kitchenWithLeaAndMax(db);
  server = await startServer(db);
  const token = async (email: string) => (await callJson(server, 'POST', '/api/auth/login', { email, password: PASSWORD })).body.token as string;
  w.lea = await token('lea@example.com');
  w.max = await token('max@example.com');
  const me = (await callJson(server, 'GET', '/api/auth/me', undefined, w.max)).body.user;
  [w.maxId, w.name] = [me.id, me.full_name];
  await callJson(server, 'PATCH', '/api/settings', { tracking_start: `${earlier}-01` }, w.max);
  for (const day of ['03', '04']) {
    const entry = { start_at: `${month}-${day}T07:00:00Z`, end_at: `${month}-${day}T15:00:00Z` };
    expect((await callJson(server, 'POST', '/api/time-entries', entry, w.max)).status).toBe(201);
  }
  expect((await callJson(server, 'POST', `/api/months/${month}/submit`, undefined, w.max)).status).toBe(200);
  expect((await callJson(server, 'POST', `/api/users/${w.maxId}/months/${month}/approve`, {}, w.lea)).status).toBe(200);
}, 120_000);
afterAll(async () => {
  await server?.stop();
});

describe('the sealed month and timetrack report verify', { timeout: 120_000 }, () => {
  it('prints the seal on the PDF (en, de, the lead’s) and the untouched PDF and JSON match', async () => {
    const answer = (await callJson(server, 'GET', `/api/stats/month?month=${month}`, undefined, w.max)).body;
    const digest = answer.seal.digest as string;
    expect(answer.seal).toMatchObject({ account_id: w.maxId, email: 'max@example.com', lang: 'en', approved_by: { email: 'lea@example.com' } });
    expect(digest).toMatch(/^[0-9a-f]{64}$/);
    const own = await download(`/api/stats/month.pdf?month=${month}`, w.max, 'own.pdf');
    const text = pdfText(fs.readFileSync(own));
    expect(text).toMatch(/Submitted by [^<]+ <max@example\.com> on \d\d \w{3} \d{4} \d\d:\d\d/);
    expect(text).toMatch(/Approved by [^<]+ <lea@example\.com> on \d\d \w{3} \d{4} \d\d:\d\d/);
    // The whole digest on one line, as copied from the page.
    expect(text.split('\n').map((line) => line.trim())).toContain(digest);
    const german = await download(`/api/stats/month.pdf?month=${month}&lang=de`, w.max, 'de.pdf');
    expect(pdfText(fs.readFileSync(german))).toMatch(/Genehmigt von [^<]+ <lea@example\.com> am \d\d\.\d\d\.\d{4} \d\d:\d\d/);
    const leads = await download(`/api/users/${w.maxId}/stats/month.pdf?month=${month}`, w.lea, 'lead.pdf');
    expect(pdfText(fs.readFileSync(leads))).toContain(digest);

    for (const file of [own, german, leads]) {
      const result = await (file === own ? verify(file) : verifyInProcess(file));
      expect(result.exitCode, String(result.stdout) + String(result.stderr)).toBe(0);
      expect(String(result.stdout)).toBe(`matches: max@example.com ${month}, digest ${digest}`);
    }
    const json = path.join(dir, 'month.json');
    fs.writeFileSync(json, JSON.stringify(answer));
    expect(String((await verifyInProcess(json)).stdout)).toBe(`matches: max@example.com ${month}, digest ${digest}`);
    const report = path.join(dir, 'report.json');
    expect((await cliInProcess(db, ['report', 'month', 'max@example.com', '--month', month, '--format', 'json', '--output', report])).exitCode).toBe(0);
    expect((await cliInProcess(db, ['report', 'verify', report])).exitCode).toBe(0);
  });

  it('fails a PDF and a JSON edited by one figure, naming the day and the figure', async () => {
    const answer = (await callJson(server, 'GET', `/api/stats/month?month=${month}&lang=de`, undefined, w.max)).body;
    const { account_id: _id, email: _email, lang: _lang, ...seal } = answer.seal;
    // The same sheet, identity and seal, drawn with one figure changed: Max's 3rd worked 8:30 instead of 8:00.
    const days = answer.days.map((day: { date: string }) => (day.date === `${month}-03` ? { ...day, worked_minutes: 510 } : day));
    const forged = await timesheetPdf({ ...answer, days }, { id: w.maxId, name: w.name, email: 'max@example.com' }, 'de', seal);
    const file = path.join(dir, 'forged.pdf');
    fs.writeFileSync(file, forged);
    const found = expectMismatch(await verify(file));
    expect(found).toContain(`days/${month}-03 worked: the file says "8:30", the database "8:00"`);
    expect(found.split('\n')).toHaveLength(2);

    const edited = path.join(dir, 'edited.json');
    const english = (await callJson(server, 'GET', `/api/stats/month?month=${month}`, undefined, w.max)).body;
    english.totals.worked_minutes += 60;
    fs.writeFileSync(edited, JSON.stringify(english));
    const json = expectMismatch(await verifyInProcess(edited));
    expect(json).toContain('totals.worked_minutes: the file says "1020", the database "960"');
    expect(json).toContain('do not add up to the digest it carries');
  });

  it('says so for a month never approved, and for one reopened and changed since', async () => {
    const never = await download(`/api/stats/month.pdf?month=${earlier}`, w.max, 'never.pdf');
    expect(expectMismatch(await verifyInProcess(never))).toContain(`the month ${earlier} of max@example.com was never approved (it is open): it has no seal`);

    const stranger = path.join(dir, 'stranger.json');
    fs.writeFileSync(stranger, JSON.stringify({ month, totals: {} }));
    const refusal = await cliInProcess(db, ['report', 'verify', stranger]);
    expect([refusal.exitCode, String(refusal.stderr)]).toEqual([
      1,
      `timetrack: this file is not a month saved by timetrack: the JSON of ${month} has no seal block: its month was not approved when it was saved`,
    ]);
    expect((await cliInProcess(db, ['report', 'verify', path.join(dir, 'missing.pdf')])).stderr).toContain('cannot read');

    const sealed = await download(`/api/stats/month.pdf?month=${month}`, w.max, 'sealed.pdf');
    expect((await cliInProcess(db, ['month', 'reopen', 'max@example.com', month, '--reason', 'the 5th is missing'])).exitCode).toBe(0);
    const entry = { start_at: `${month}-05T07:00:00Z`, end_at: `${month}-05T11:00:00Z` };
    expect((await callJson(server, 'POST', '/api/time-entries', entry, w.max)).status).toBe(201);
    const reopened = expectMismatch(await verifyInProcess(sealed));
    expect(reopened).toMatch(new RegExp(`the month ${month} of max@example\\.com was reopened since \\(.*: the 5th is missing\\)`));
    expect(reopened).toContain(`days/${month}-05 worked: the file says nothing, the database "4:00"`);
    expect(reopened).toContain('totals worked: the file says "16:00", the database "20:00"');
  });
});
