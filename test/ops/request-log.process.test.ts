// One log line per request from a real `serve` process, and the fail2ban filter of config/ run
// against lines real servers wrote, at LOG_LEVEL=info and at warn: with fail2ban-regex when it is
// installed (Debian package fail2ban), and always with the filter's own regular expression here.
// Every target that reaches the sign-in route (percent-encoded, absolute-form, with a fragment or
// a query) must be logged under the route's path and counted by the filter (docs/security.md, M4).
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD } from '../support/app.js';
import { PROJECT_ROOT } from '../support/cli.js';
import { createAccountWithCli, tempDb } from '../support/cli-accounts.js';
import { startServer, type RunningServer } from '../support/server.js';

const FILTER = path.join(PROJECT_ROOT, 'config/fail2ban/filter.d/timetrack.conf');
const HAS_FAIL2BAN = fs.existsSync('/usr/bin/fail2ban-regex');

/** A raw HTTP/1.1 request with the target exactly as given (fetch would normalise it); answers the status. */
async function rawPost(baseUrl: string, target: string, body: unknown, halfClose = false): Promise<number> {
  const { hostname, port } = new URL(baseUrl);
  const payload = JSON.stringify(body);
  const request = `POST ${target} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(payload)}\r\nConnection: close\r\n\r\n${payload}`;
  const answer = await new Promise<string>((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => (halfClose ? socket.end(request) : socket.write(request)));
    let text = '';
    socket.on('data', (chunk) => (text += chunk.toString()));
    socket.on('end', () => resolve(text));
    socket.on('error', reject);
  });
  return Number(/^HTTP\/1\.1 (\d{3})/.exec(answer)?.[1]);
}

/** Every target above reached the sign-in route in the attacker's review; each must be counted. */
const DODGES = (baseUrl: string) => [
  '/api/auth/login',
  '/api/auth/%6cogin',
  '/%61pi/auth/login',
  '/api/auth/login#x',
  `${baseUrl}/api/auth/login`,
  '/api/auth/login?secret=in-the-query',
];

interface Run {
  output: string;
  logFile: string;
  statuses: number[];
}

async function runScenario(level: 'info' | 'warn'): Promise<Run> {
  const db = tempDb();
  await createAccountWithCli(db, 'ann@example.com');
  const server: RunningServer = await startServer(db, { LOCKOUT_ATTEMPTS: '2', LOG_LEVEL: level });
  try {
    const statuses: number[] = [];
    for (const target of DODGES(server.baseUrl))
      statuses.push(await rawPost(server.baseUrl, target, { email: `nobody${statuses.length}@example.com`, password: `guess ${target}` }));
    // A known account: a failure, then the lock (423 for the locking attempt and the right password).
    statuses.push(await rawPost(server.baseUrl, '/api/auth/%6cogin', { email: 'ann@example.com', password: 'wrong password 1' }));
    statuses.push(await rawPost(server.baseUrl, '/%61pi/auth/login', { email: 'ann@example.com', password: 'wrong password 2' }));
    statuses.push(await rawPost(server.baseUrl, '/api/auth/login#x', { email: 'ann@example.com', password: PASSWORD }));
    // A client that half-closes right after its request: its address must still be logged.
    await rawPost(server.baseUrl, '/api/auth/login', { email: 'half-closed@example.com', password: 'guess' }, true);
    // Until its security event, the tenth refused sign-in's, is written (at most 2 s; the cases below count them).
    const deadline = Date.now() + 2_000;
    while ((server.output().match(/"security":"login_/g) ?? []).length < 10 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    await fetch(`${server.baseUrl}/api/auth/me`);
    await fetch(`${server.baseUrl}/api/time-entries/12345`);
    await fetch(`${server.baseUrl}/api/health`);
    await server.stop();
    const logFile = path.join(path.dirname(db), `serve-${level}.log`);
    fs.writeFileSync(logFile, server.output());
    return { output: server.output(), logFile, statuses };
  } finally {
    await server.stop();
  }
}

const runs: Partial<Record<'info' | 'warn', Run>> = {};
beforeAll(async () => {
  runs.info = await runScenario('info');
  runs.warn = await runScenario('warn');
}, 90_000);
afterAll(() => undefined);

const requestLines = (output: string) =>
  output
    .split('\n')
    .filter((line) => line.includes('"msg":"request completed"'))
    .map((line) => JSON.parse(line) as Record<string, unknown>);

describe('the request log', () => {
  it('every variant reached the sign-in route: 401 for the unknown address, then 401, 423, 423 for the account', () => {
    for (const run of [runs.info, runs.warn]) expect(run?.statuses).toEqual([401, 401, 401, 401, 401, 401, 401, 423, 423]);
  });

  it('writes one line per request with the client address (a half-closing client too): method, route path (never the raw target nor the query), status, client, duration', () => {
    const output = runs.info?.output ?? '';
    const lines = requestLines(output);
    // Nine logins, /me and the unknown entry; the health probe is logged at debug only. The half-closed
    // sign-in never completes its answer, so only its security event (below) is written.
    expect(lines).toHaveLength(11);
    expect(lines[1]).toMatchObject({ method: 'POST', path: '/api/auth/login', status: 401, client: '127.0.0.1', duration_ms: expect.any(Number) });
    expect(lines.slice(0, 9).map((line) => line.path)).toEqual(Array(9).fill('/api/auth/login'));
    expect(lines.map((line) => line.client)).toEqual(Array(11).fill('127.0.0.1'));
    expect(lines[9]).toMatchObject({ method: 'GET', path: '/api/auth/me', status: 401 });
    expect(lines[10]).toMatchObject({ method: 'GET', path: '/api/time-entries/:id', status: 401 });
    expect(output).not.toMatch(/in-the-query|incoming request|%6c|%61|#x/);
  });

  it('at LOG_LEVEL=warn writes no request line, but every refused sign-in as a security event', () => {
    const output = runs.warn?.output ?? '';
    expect(requestLines(output)).toHaveLength(0);
    const events = output.split('\n').filter((line) => line.includes('"security":"login_'));
    expect(events).toHaveLength(10);
  });

  it("keeps the fields of a request logger's line, reqId included, in their order; a request's own lines carry the same reqId", () => {
    const output = runs.info?.output ?? '';
    const lines = requestLines(output);
    for (const line of lines)
      expect(Object.keys(line)).toEqual(['level', 'time', 'pid', 'hostname', 'reqId', 'method', 'path', 'status', 'client', 'duration_ms', 'msg']);
    expect(new Set(lines.map((line) => line.reqId)).size).toBe(lines.length);
    // The first failed login's security event, from request.log, names its request like its request line.
    const events = output
      .split('\n')
      .filter((line) => line.includes('"security":"login_failed"'))
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(events[0]?.reqId).toBe(lines[0]?.reqId);
  });
});

describe('the fail2ban filter', () => {
  const conf = fs.readFileSync(FILTER, 'utf8');
  const failregex = /^failregex = (.*)$/m.exec(conf)?.[1] ?? '';

  it.each(['info', 'warn'] as const)('its regular expression matches each refused sign-in once at LOG_LEVEL=%s, and nothing else', (level) => {
    // fail2ban's <ADDR> is an IPv4 or IPv6 address; here a named group takes its place.
    const regex = new RegExp(failregex.replace('<ADDR>', '(?<addr>[0-9a-fA-F.:]+)'));
    const lines = (runs[level]?.output ?? '').split('\n');
    const matched = lines.map((line) => regex.exec(line)?.groups?.addr).filter(Boolean);
    expect(matched).toEqual(Array(10).fill('127.0.0.1'));
  });

  it.skipIf(!HAS_FAIL2BAN).each(['info', 'warn'] as const)('fail2ban-regex finds the ten failures at LOG_LEVEL=%s, with their times', async (level) => {
    const result = await execa('fail2ban-regex', [runs[level]?.logFile ?? '', FILTER], { reject: false });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/Failregex: 10 total/);
    expect(result.stdout).toMatch(/127\.0\.0\.1/);
    // Every line's time was read (fail2ban ignores a failure it cannot date).
    expect(result.stdout).toMatch(/Lines: (\d+) lines, 0 ignored, 10 matched/);
    const lineCount = Number(/Lines: (\d+) lines/.exec(result.stdout)?.[1]);
    expect(result.stdout).toContain(`[${lineCount}] "time":{LEPOCH}`);
  });
});
