// The missing-day reminder against a real `serve` and a real SMTP server (docs/notices.md): a person
// with a target yesterday and nothing recorded gets exactly one mail and one notice once NOTIFY_HOUR
// has come in their own zone; nobody else does (an entry, an absence, no target, reminders off, the
// hour not yet come in their zone); a failed send is retried and delivered later. `serve` has no test
// clock: the notice job runs every second (NOTIFY_INTERVAL), and each person's zone is chosen so that
// the hour there is well after (or before) NOTIFY_HOUR now. The accounts are set up before the server
// starts, by an app in this process on the database it then serves (docs/testing.md, "How fast"): no
// job runs while they are made, and the sessions they are given are valid in the server too.
import { afterEach, describe, expect, it } from 'vitest';
import type { App } from '../../src/http/app.js';
import { createTestApp, PASSWORD, TestClock, type TestApp } from '../support/app.js';
import { queryRows } from '../support/database.js';
import { request, type Method } from '../support/requests.js';
import { callJson, startServer, uniqueEmail, type RunningServer } from '../support/server.js';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.js';

let server: RunningServer | undefined;
let smtp: TestSmtpServer | undefined;
let setup: TestApp | undefined;
afterEach(async () => {
  await setup?.close();
  await server?.stop();
  await smtp?.close();
  setup = undefined;
  server = undefined;
  smtp = undefined;
});

/** The app that sets the accounts up, on a new database (its clock: the time now); the database's path. */
async function setUpApp(): Promise<{ app: App; db: string }> {
  setup = await createTestApp({ clock: new TestClock(new Date()) });
  return { app: setup.app, db: setup.dbPath };
}

/** Closes the set-up app: the database is the server's from now on. */
async function endSetUp(): Promise<void> {
  await setup?.close();
  setup = undefined;
}

/** One request to the set-up app or the server: its status and JSON body. */
async function callTo(target: App | RunningServer, method: Method, url: string, body?: unknown, token?: string): Promise<{ status: number; body: any }> {
  const response = await request(target, method, url, { payload: body, token });
  return { status: response.statusCode, body: response.body ? response.json() : undefined };
}

const NOTIFY_HOUR = 12;
const DAY_MS = 86_400_000;
const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The offset in hours (−12 to +11) of a zone where the hour is `hour` now. */
function offsetWithHour(hour: number): number {
  const offset = (hour - new Date().getUTCHours() + 48) % 24;
  return offset >= 12 ? offset - 24 : offset;
}

/** A fixed-offset zone where the hour is `hour` now (Etc/GMT-3 is UTC+3). */
function zoneWithHour(hour: number): string {
  const offset = offsetWithHour(hour);
  return offset === 0 ? 'UTC' : `Etc/GMT${offset > 0 ? '-' : '+'}${Math.abs(offset)}`;
}

async function serveWithMail(db: string, env: Record<string, string> = {}, refuseFirst = 0): Promise<RunningServer> {
  smtp = await startSmtpServer({ refuseFirst });
  return startServer(db, {
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(smtp.port),
    SMTP_FROM: 'timetrack@example.org',
    PUBLIC_URL: 'https://time.example.org',
    NEW_DEVICE_NOTICE: 'false',
    NOTIFY_HOUR: String(NOTIFY_HOUR),
    NOTIFY_INTERVAL: '1s',
    ...env,
  });
}

interface Person {
  email: string;
  token: string;
  id: number;
}

/** An account in `timezone` with a target of 8 hours every day for the last week (tracked from then). */
async function person(app: App, name: string, timezone: string, target = 480): Promise<Person> {
  const email = uniqueEmail(name);
  const registered = await callTo(app, 'POST', '/api/auth/register', { email, password: PASSWORD, full_name: name, timezone });
  expect(registered.status).toBe(201);
  const { token } = (await callTo(app, 'POST', '/api/auth/login', { email, password: PASSWORD })).body as { token: string };
  const weekAgo = dateOf(Date.now() - 7 * DAY_MS);
  const days = { mon: target, tue: target, wed: target, thu: target, fri: target, sat: target, sun: target };
  const patched = await callTo(app, 'PATCH', '/api/settings', { tracking_start: weekAgo, weekly_target_minutes: days, targets_valid_from: weekAgo }, token);
  expect(patched.status).toBe(200);
  return { email, token, id: registered.body.user.id as number };
}

/** Yesterday in a person's zone. */
async function yesterdayOf(app: App, someone: Person): Promise<string> {
  const today = (await callTo(app, 'GET', '/api/stats/today', undefined, someone.token)).body.date as string;
  return dateOf(Date.parse(`${today}T00:00:00Z`) - DAY_MS);
}

const noticesOf = async (someone: Person) => (await callJson(server!, 'GET', '/api/notices', undefined, someone.token)).body;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('the missing-day reminder through serve', () => {
  it('mails once, and records one notice, to a person with a target yesterday and nothing recorded; to nobody else', async () => {
    // The job waits for the accounts: they are set up before the server starts.
    const { app, db } = await setUpApp();
    const after = zoneWithHour(NOTIFY_HOUR + 3);
    const offset = offsetWithHour(NOTIFY_HOUR + 3);
    const designator = `${offset < 0 ? '-' : '+'}${String(Math.abs(offset)).padStart(2, '0')}:00`;
    const ann = await person(app, 'ann', after);
    const worked = await person(app, 'dan', after);
    const absent = await person(app, 'bob', after);
    const noTarget = await person(app, 'nia', after, 0);
    const off = await person(app, 'cara', after);
    const early = await person(app, 'eli', zoneWithHour(NOTIFY_HOUR - 5));
    const yesterday = await yesterdayOf(app, ann);
    // Two hours yesterday morning in the person's zone.
    const hours = { start_at: `${yesterday}T08:00:00${designator}`, end_at: `${yesterday}T10:00:00${designator}` };
    const entry = await callTo(app, 'POST', '/api/time-entries', hours, worked.token);
    expect(entry.status).toBe(201);
    expect((await callTo(app, 'POST', '/api/time-entries/absences', { date: await yesterdayOf(app, absent), type: 'sick' }, absent.token)).status).toBe(201);
    expect((await callTo(app, 'PATCH', '/api/settings', { reminders_enabled: false }, off.token)).body.reminders_enabled).toBe(false);
    await endSetUp();

    server = await serveWithMail(db);
    const mail = await smtp!.waitForMessageTo(ann.email);
    const text = mail.raw.replace(/=\r?\n/g, '');
    expect(text).toContain(`Subject: timetrack: nothing recorded on ${yesterday}`);
    expect(text).toContain('https://time.example.org/');
    // Several more rounds of the job: still that one mail, and one notice.
    await sleep(3_500);
    expect(smtp!.messages.map((message) => message.to)).toEqual([[ann.email]]);
    expect(await noticesOf(ann)).toMatchObject({ unread: 1, notices: [{ kind: 'missing-day', data: { date: yesterday, target_minutes: 480 } }] });
    for (const other of [worked, absent, noTarget, off, early]) expect(await noticesOf(other)).toEqual({ notices: [], unread: 0 });
    const [row] = await queryRows<{ attempts: number; sent_at: string | null }>(db, 'select attempts, sent_at from notices where user_id = ?', [ann.id]);
    expect(row).toMatchObject({ attempts: 1, sent_at: expect.any(String) });
  });

  it('retries a failed send and delivers it later, logging the failure', async () => {
    const { app, db } = await setUpApp();
    const ann = await person(app, 'ann', zoneWithHour(NOTIFY_HOUR + 3));
    await endSetUp();

    server = await serveWithMail(db, { NOTIFY_RETRY: '1s' }, 1);
    const mail = await smtp!.waitForMessageTo(ann.email);
    expect(mail.raw).toContain('nothing recorded on');
    expect(server.output()).toContain('notice e-mail failed; will retry');
    await sleep(2_500);
    expect(smtp!.messages).toHaveLength(1);
    const [row] = await queryRows<{ attempts: number; sent_at: string | null; last_error: string | null }>(
      db,
      'select attempts, sent_at, last_error from notices where user_id = ?',
      [ann.id],
    );
    expect(row).toMatchObject({ attempts: 2, sent_at: expect.any(String), last_error: null });
  });
});
