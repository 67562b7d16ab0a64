// Notices mailed once by two `serve` processes on one PostgreSQL database (docs/notices.md, "Mail"):
// both mail in every round, and each notice is claimed by a conditional update before it is sent, so
// each reaches its person once; the reminders themselves are recorded once (a unique key, and the
// job's lock: one process a round).
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir, PASSWORD } from '../support/app.js';
import { bindPostgresDatabase, createPostgresDatabase, onPostgres, queryRows } from '../support/database.js';
import { callJson, startServer, type RunningServer } from '../support/server.js';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.js';

const running: RunningServer[] = [];
let smtp: TestSmtpServer | undefined;
afterEach(async () => {
  for (const server of running.splice(0)) await server.stop();
  await smtp?.close();
  smtp = undefined;
});

const PEOPLE = 24;
const DAY_MS = 86_400_000;
const dateOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

async function serve(dbPath: string, env: Record<string, string>): Promise<RunningServer> {
  const server = await startServer(dbPath, {
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(smtp!.port),
    SMTP_FROM: 'timetrack@example.org',
    NEW_DEVICE_NOTICE: 'false',
    // Every zone is past the hour.
    NOTIFY_HOUR: '0',
    ...env,
  });
  running.push(server);
  return server;
}

describe.skipIf(!onPostgres)('notices mailed by two serve processes on one PostgreSQL database', () => {
  it('mails each missing-day reminder once', async () => {
    const dbPath = path.join(makeTempDir(), 'timetrack.db');
    bindPostgresDatabase(dbPath, createPostgresDatabase());
    smtp = await startSmtpServer();
    // The accounts first, with a server whose job waits a day.
    const setup = await serve(dbPath, { NOTIFY_INTERVAL: '1d' });
    const weekAgo = dateOf(Date.now() - 7 * DAY_MS);
    const days = { mon: 480, tue: 480, wed: 480, thu: 480, fri: 480, sat: 480, sun: 480 };
    const emails: string[] = [];
    for (let n = 0; n < PEOPLE; n += 1) {
      const email = `person-${n}@example.com`;
      emails.push(email);
      expect((await callJson(setup, 'POST', '/api/auth/register', { email, password: PASSWORD, full_name: `Person ${n}`, timezone: 'UTC' })).status).toBe(201);
      const { token } = (await callJson(setup, 'POST', '/api/auth/login', { email, password: PASSWORD })).body as { token: string };
      const settings = { tracking_start: weekAgo, weekly_target_minutes: days, targets_valid_from: weekAgo };
      expect((await callJson(setup, 'PATCH', '/api/settings', settings, token)).status).toBe(200);
    }
    await setup.stop();
    running.splice(running.indexOf(setup), 1);

    // Two processes, both mailing every second.
    await Promise.all([serve(dbPath, { NOTIFY_INTERVAL: '1s' }), serve(dbPath, { NOTIFY_INTERVAL: '1s' })]);
    for (const email of emails) await smtp.waitForMessageTo(email, 1, 60_000);
    // More rounds of both: nothing is sent again.
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    expect(smtp.messages.map((message) => message.to[0]).sort()).toEqual([...emails].sort());
    const rows = await queryRows<{ attempts: number; sent: boolean }>(dbPath, 'select attempts, sent_at is not null as sent from notices');
    expect(rows).toHaveLength(PEOPLE);
    for (const row of rows) expect(row).toEqual({ attempts: 1, sent: true });
  });
});
