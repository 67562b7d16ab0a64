// One log line per request from a real `serve` process, and the fail2ban filter of config/ run
// against those very lines: with fail2ban-regex when it is installed (Debian package fail2ban),
// and always with the filter's own regular expression here.
import fs from 'node:fs';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD } from '../support/app.js';
import { PROJECT_ROOT } from '../support/cli.js';
import { createAccountWithCli, tempDb } from '../support/cli-accounts.js';
import { startServer, type RunningServer } from '../support/server.js';

const FILTER = path.join(PROJECT_ROOT, 'config/fail2ban/filter.d/timetrack.conf');
let server: RunningServer;
let logFile: string;

async function login(email: string, password: string, query = ''): Promise<number> {
  const response = await fetch(`${server.baseUrl}/api/auth/login${query}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  return response.status;
}

beforeAll(async () => {
  const db = tempDb();
  await createAccountWithCli(db, 'ann@example.com');
  server = await startServer(db, { LOCKOUT_ATTEMPTS: '2' });
  const statuses = [
    await login('nobody@example.com', 'wrong password 1'),
    await login('ann@example.com', 'wrong password 2', '?secret=in-the-query'),
    await login('ann@example.com', 'wrong password 3'),
    await login('ann@example.com', PASSWORD),
  ];
  expect(statuses).toEqual([401, 401, 423, 423]);
  await fetch(`${server.baseUrl}/api/auth/me`);
  await fetch(`${server.baseUrl}/api/health`);
  await server.stop();
  logFile = path.join(path.dirname(db), 'serve.log');
  fs.writeFileSync(logFile, server.output());
});
afterAll(async () => {
  await server?.stop();
});

const requestLines = () =>
  server
    .output()
    .split('\n')
    .filter((line) => line.includes('"msg":"request completed"'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('the request log', () => {
  it('writes one line per request: method, path without query, status, client, duration', () => {
    const lines = requestLines();
    // Four logins and /me; the health probe is logged at debug only.
    expect(lines).toHaveLength(5);
    expect(lines[1]).toMatchObject({ method: 'POST', path: '/api/auth/login', status: 401, client: '127.0.0.1', duration_ms: expect.any(Number) });
    expect(lines[4]).toMatchObject({ method: 'GET', path: '/api/auth/me', status: 401 });
    expect(server.output()).not.toMatch(/in-the-query|incoming request/);
  });

  it('keeps the fields of a request logger\'s line, reqId included, in their order; a request\'s own lines carry the same reqId', () => {
    const lines = requestLines();
    for (const line of lines) expect(Object.keys(line)).toEqual(['level', 'time', 'pid', 'hostname', 'reqId', 'method', 'path', 'status', 'client', 'duration_ms', 'msg']);
    expect(new Set(lines.map((line) => line.reqId)).size).toBe(lines.length);
    // The first failed login's security event, from request.log, names its request like its request line.
    const events = server.output().split('\n').filter((line) => line.includes('"security":"login_failed"')).map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(events[0]?.reqId).toBe(lines[0]?.reqId);
  });
});

describe('the fail2ban filter', () => {
  const conf = fs.readFileSync(FILTER, 'utf8');
  const failregex = /^failregex = (.*)$/m.exec(conf)?.[1] ?? '';

  it('its regular expression matches the failed and locked-out logins, and nothing else', () => {
    // fail2ban's <ADDR> is an IPv4 or IPv6 address; here a named group takes its place.
    const regex = new RegExp(failregex.replace('<ADDR>', '(?<addr>[0-9a-fA-F.:]+)'));
    const lines = server.output().split('\n');
    const matched = lines.map((line) => regex.exec(line)?.groups?.addr).filter(Boolean);
    expect(matched).toEqual(['127.0.0.1', '127.0.0.1', '127.0.0.1', '127.0.0.1']);
  });

  it.skipIf(!fs.existsSync('/usr/bin/fail2ban-regex'))('fail2ban-regex finds the four failures, with their times', async () => {
    const result = await execa('fail2ban-regex', [logFile, FILTER], { reject: false });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/Failregex: 4 total/);
    expect(result.stdout).toMatch(/127\.0\.0\.1/);
    // Every line's time was read (fail2ban ignores a failure it cannot date).
    expect(result.stdout).toMatch(/Lines: (\d+) lines, 0 ignored, 4 matched/);
    const lineCount = Number(/Lines: (\d+) lines/.exec(result.stdout)?.[1]);
    expect(result.stdout).toContain(`[${lineCount}] "time":{LEPOCH}`);
  });
});
