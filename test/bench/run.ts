// `npm run bench`: starts a real `timetrack serve` (production mode, temp database), drives it over
// loopback and prints each figure of docs/performance.md as a ratio measured side by side in this
// run, with its goal. The table is also written to bench-results/latest.json.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import argon2 from 'argon2';
import { defaultHashConcurrency } from '../../src/config.js';
import { createContext } from '../../src/composition-root.js';
import { ARGON2_PARAMETERS } from '../../src/auth/password-hasher.js';
import { chooseDriver, load, type Driver, type LoadResult } from './load.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const BIN = path.join(ROOT, 'bin/timetrack.cjs');
const BARE_SERVER = path.join(ROOT, 'dist-bench/test/bench/bare-server.js');
/** The node flags of the systemd unit's ExecStart (config/timetrack.service): serve runs with them here too. */
const UNIT_NODE_FLAGS = (() => {
  const unit = fs.readFileSync(path.join(ROOT, 'config/timetrack.service'), 'utf8');
  const execStart = /^ExecStart=(.*)$/m.exec(unit)?.[1]?.split(/\s+/) ?? [];
  return execStart.slice(1, execStart.findIndex((word) => word.endsWith('bin/timetrack.cjs')));
})();
const PASSWORD = 'a long benchmark passphrase';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 10;
/** Alternating runs of bare Fastify, a timetrack 404 and /me; as many runs of the bare server for memory. */
const ROUNDS = 3;
const HASH_CONCURRENCY = defaultHashConcurrency(); // the server's bound at its default

interface Figure {
  figure: string;
  measured: string;
  ratio: number | null;
  goal: string;
  met: boolean | null;
  /** wrk, autocannon, or "wall clock" for the CLI figure. */
  driver: string;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitForHealth(baseUrl: string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    try {
      if ((await fetch(`${baseUrl}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`no answer from ${baseUrl}`);
}

/** Resident memory of a process now (VmRSS), in MiB. */
function rssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

/**
 * Peak RSS of a process while `during` runs, sampled every 20 ms. Not VmHWM: that would also count
 * what happened before the load (start-up, the argon2 hashes of the logins that got the tokens).
 */
async function peakRssDuring<T>(pid: number, during: Promise<T>): Promise<{ result: T; peakMiB: number }> {
  let peakMiB = rssMiB(pid);
  const sampler = setInterval(() => (peakMiB = Math.max(peakMiB, rssMiB(pid))), 20);
  try {
    return { result: await during, peakMiB };
  } finally {
    clearInterval(sampler);
  }
}

async function stop(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

async function seed(dbPath: string): Promise<void> {
  const ctx = await createContext({ env: { TIMETRACK_DB: dbPath, LOG_LEVEL: 'warn' }, migrate: true, logDestination: process.stderr });
  const { accounts, settings, timeEntries } = ctx.services;
  await accounts.createAccount({ email: 'bench@example.com', password: PASSWORD, full_name: 'Bench' });
  const stats = await accounts.createAccount({ email: 'stats@example.com', password: PASSWORD, full_name: 'Stats' });
  const start = new Date(Date.now() - 5 * 365 * 86_400_000);
  const startDate = start.toISOString().slice(0, 10);
  await settings.updateSettings(stats.id, { timezone: 'Europe/Berlin', holiday_region: 'DE-BY', tracking_start: startDate });
  for (let day = new Date(`${startDate}T00:00:00Z`); day.getTime() < Date.now() - 86_400_000; day = new Date(day.getTime() + 86_400_000)) {
    const date = day.toISOString().slice(0, 10);
    await timeEntries.createEntry(stats.id, { start_at: `${date}T07:30:00Z`, end_at: `${date}T16:00:00Z`, note: 'work' });
  }
  await ctx.close();
}

async function token(baseUrl: string, email: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/auth/login`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email, password: PASSWORD }) });
  if (!response.ok) throw new Error(`login failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}

/** Raw argon2id verifications per second in this process, HASH_CONCURRENCY at a time. */
async function rawVerificationsPerSecond(seconds: number): Promise<number> {
  const hash = await argon2.hash(PASSWORD, ARGON2_PARAMETERS);
  let done = 0;
  const until = Date.now() + seconds * 1000;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: HASH_CONCURRENCY }, async () => {
      while (Date.now() < until) {
        await argon2.verify(hash, PASSWORD);
        done += 1;
      }
    }),
  );
  return done / ((performance.now() - started) / 1000);
}

function wallTimeMs(command: string, args: string[]): number {
  const started = process.hrtime.bigint();
  const result = spawnSync(command, args, { stdio: 'ignore', env: { ...process.env, LOG_LEVEL: 'warn' } });
  if (result.status !== 0 && command !== 'node') throw new Error(`${command} ${args.join(' ')} exited ${result.status}`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

/** Peak RSS of a bare Fastify server under the load serve's /me got: ROUNDS runs of SECONDS. */
async function bareFastifyPeakRss(driver: Driver, withTimetrackV8Settings: boolean): Promise<number> {
  const port = await freePort();
  const bare = spawn('node', [...(withTimetrackV8Settings ? UNIT_NODE_FLAGS : []), BARE_SERVER, String(port)], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}/`;
  for (let i = 0; i < 100 && !(await fetch(url).then((r) => r.ok).catch(() => false)); i++) await sleep(100);
  let peakMiB = 0;
  for (let round = 0; round < ROUNDS; round++) {
    peakMiB = Math.max(peakMiB, (await peakRssDuring(bare.pid!, load(driver, { url, connections: CONNECTIONS, seconds: SECONDS }))).peakMiB);
  }
  await stop(bare);
  return peakMiB;
}

async function main(): Promise<void> {
  const driver = chooseDriver();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'timetrack-bench-'));
  const dbPath = path.join(dir, 'timetrack.db');
  const figures: Figure[] = [];
  const add = (figure: string, measured: string, ratio: number | null, goal: string, met: boolean | null, by: string = driver) => {
    figures.push({ figure, measured, ratio: ratio === null ? null : Math.round(ratio * 100) / 100, goal, met, driver: by });
    process.stderr.write(`  ${figure}: ${measured}\n`);
  };

  process.stderr.write(`seeding ${dbPath} (2 accounts, 5 years of daily entries)…\n`);
  await seed(dbPath);

  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const server = spawn('node', [...UNIT_NODE_FLAGS, BIN, 'serve', '--port', String(port), '--db', dbPath], {
    env: { ...process.env, NODE_ENV: 'production', LOG_LEVEL: 'warn', RATE_LIMIT_AUTH: '0', LOCKOUT_ATTEMPTS: '1000' },
    stdio: 'ignore',
  });
  await waitForHealth(baseUrl);
  const meHeaders = { authorization: `Bearer ${await token(baseUrl, 'bench@example.com')}` };
  const statsHeaders = { authorization: `Bearer ${await token(baseUrl, 'stats@example.com')}` };

  // The throughput baseline, in the same run: a bare Fastify with one route (Node's defaults, as
  // anyone would start it), alternated with a timetrack route that does nothing (an unknown /api
  // path: 404) and /me (all three token checks).
  const barePort = await freePort();
  const bare = spawn('node', [BARE_SERVER, String(barePort)], { stdio: 'ignore' });
  const bareUrl = `http://127.0.0.1:${barePort}/`;
  for (let i = 0; i < 100 && !(await fetch(bareUrl).then((r) => r.ok).catch(() => false)); i++) await sleep(100);
  const notFoundUrl = `${baseUrl}/api/no-such-route`;

  // Warm-up, then alternating runs.
  await load(driver, { url: bareUrl, connections: CONNECTIONS, seconds: 2 });
  await load(driver, { url: notFoundUrl, connections: CONNECTIONS, seconds: 2 });
  await load(driver, { url: `${baseUrl}/api/auth/me`, headers: meHeaders, connections: CONNECTIONS, seconds: 2 });
  const bareRuns: LoadResult[] = [];
  const notFound: LoadResult[] = [];
  const me: LoadResult[] = [];
  let serveRss = 0;
  for (let round = 0; round < ROUNDS; round++) {
    bareRuns.push(await load(driver, { url: bareUrl, connections: CONNECTIONS, seconds: SECONDS }));
    notFound.push(await load(driver, { url: notFoundUrl, connections: CONNECTIONS, seconds: SECONDS }));
    const measured = await peakRssDuring(server.pid!, load(driver, { url: `${baseUrl}/api/auth/me`, headers: meHeaders, connections: CONNECTIONS, seconds: SECONDS }));
    me.push(measured.result);
    serveRss = Math.max(serveRss, measured.peakMiB);
  }
  await stop(bare);
  if (me.some((result) => result.non2xx > 0)) throw new Error('/me answered errors under load');
  const bareRps = median(bareRuns.map((r) => r.requestsPerSecond));
  const notFoundRps = median(notFound.map((r) => r.requestsPerSecond));
  const meRps = median(me.map((r) => r.requestsPerSecond));
  const meP99 = median(me.map((r) => r.p99Ms));
  add('a route that does nothing (404) ÷ bare Fastify throughput', `${notFoundRps.toFixed(0)} ÷ ${bareRps.toFixed(0)} req/s`, notFoundRps / bareRps, '≥ 0.90', notFoundRps / bareRps >= 0.9);
  add('auth: /me ÷ bare Fastify throughput', `${meRps.toFixed(0)} ÷ ${bareRps.toFixed(0)} req/s`, meRps / bareRps, '≥ 0.60', meRps / bareRps >= 0.6);

  const bareRss = await bareFastifyPeakRss(driver, false);
  add('memory: peak RSS of serve under /me load ÷ bare Fastify', `${serveRss.toFixed(1)} ÷ ${bareRss.toFixed(1)} MiB`, serveRss / bareRss, '≤ 1.5', serveRss / bareRss <= 1.5);
  // Information, no goal: how much of the figure is timetrack's V8 settings rather than its code.
  const bareSameSettingsRss = await bareFastifyPeakRss(driver, true);
  add('memory, bare Fastify with timetrack\'s V8 settings too', `${serveRss.toFixed(1)} ÷ ${bareSameSettingsRss.toFixed(1)} MiB`, serveRss / bareSameSettingsRss, '(none)', null);

  const statsRuns: LoadResult[] = [];
  for (let round = 0; round < 2; round++) statsRuns.push(await load(driver, { url: `${baseUrl}/api/stats/overtime`, headers: statsHeaders, connections: CONNECTIONS, seconds: SECONDS }));
  const statsRps = median(statsRuns.map((r) => r.requestsPerSecond));
  if (statsRuns.some((r) => r.non2xx > 0)) throw new Error('/api/stats/overtime answered errors under load');
  add('statistics: /stats/overtime (5 years) ÷ /me throughput', `${statsRps.toFixed(0)} ÷ ${meRps.toFixed(0)} req/s`, statsRps / meRps, '≥ 0.10', statsRps / meRps >= 0.1);

  const loginRequest = {
    url: `${baseUrl}/api/auth/login`,
    method: 'POST' as const,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: 'bench@example.com', password: PASSWORD }),
    connections: 4,
    seconds: SECONDS,
  };
  const logins = await load(driver, loginRequest);
  if (logins.non2xx > 0) throw new Error(`${logins.non2xx} logins failed under load`);
  const raw = await rawVerificationsPerSecond(SECONDS);
  add('login efficiency: logins/s ÷ raw argon2 verifications/s', `${logins.requestsPerSecond.toFixed(1)} ÷ ${raw.toFixed(1)} per s`, logins.requestsPerSecond / raw, '≥ 0.85', logins.requestsPerSecond / raw >= 0.85);

  // A login flood from 16 connections while /me is measured.
  const flood = load(driver, { ...loginRequest, connections: 16, seconds: SECONDS + 2 });
  await sleep(1000);
  const stormed = await load(driver, { url: `${baseUrl}/api/auth/me`, headers: meHeaders, connections: CONNECTIONS, seconds: SECONDS });
  await flood;
  const throughputRatio = stormed.requestsPerSecond / meRps;
  const p99Ratio = stormed.p99Ms / meP99;
  add('login storm: /me throughput during flood ÷ idle', `${stormed.requestsPerSecond.toFixed(0)} ÷ ${meRps.toFixed(0)} req/s`, throughputRatio, '≥ 0.5', throughputRatio >= 0.5);
  add('login storm: /me p99 during flood ÷ idle', `${stormed.p99Ms.toFixed(2)} ÷ ${meP99.toFixed(2)} ms`, p99Ratio, '≤ 3', p99Ratio <= 3);
  await stop(server);

  const cliTimes: number[] = [];
  const nodeTimes: number[] = [];
  for (let i = 0; i < 11; i++) {
    nodeTimes.push(wallTimeMs('node', ['-e', '0']));
    cliTimes.push(wallTimeMs('node', [BIN, '--db', dbPath, 'user', 'list']));
  }
  const cli = median(cliTimes);
  const bareNode = median(nodeTimes);
  add('CLI start: `timetrack user list` ÷ `node -e 0`', `${cli.toFixed(0)} ÷ ${bareNode.toFixed(0)} ms`, cli / bareNode, '≤ 3', cli / bareNode <= 3, 'wall clock');

  const header = ['figure', 'measured', 'ratio', 'goal', 'met', 'driven by'];
  const rows = figures.map((f) => [f.figure, f.measured, f.ratio === null ? 'n/a' : f.ratio.toFixed(2), f.goal, f.met === null ? 'n/a' : f.met ? 'yes' : 'NO', f.driver]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  process.stdout.write(`\n${line(header)}\n|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|\n${rows.map(line).join('\n')}\n`);
  const cpu = os.cpus()[0]?.model ?? 'unknown CPU';
  process.stdout.write(`\n${os.cpus().length} cores (${cpu}), Node ${process.version}, ${SECONDS} s per run, ${CONNECTIONS} connections\n`);

  const results = path.join(ROOT, 'bench-results');
  fs.mkdirSync(results, { recursive: true });
  fs.writeFileSync(path.join(results, 'latest.json'), `${JSON.stringify({ date: new Date().toISOString(), node: process.version, cores: os.cpus().length, driver, figures }, null, 2)}\n`);
  fs.rmSync(dir, { recursive: true, force: true });
  if (figures.some((f) => f.met === false)) process.exitCode = 1;
}

await main();
