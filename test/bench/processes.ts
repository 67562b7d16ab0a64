// The processes the bench starts and how it measures them: a server process with its CPU, memory and
// log lines read from /proc and its stdout, a load run beside them, the round-robin proxy of the
// scale-out figure, and the text of a side-by-side cell.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { load, type Driver, type LoadRequest, type LoadResult } from './load.js';

export const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function waitFor(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${child.spawnargs.join(' ')} exited ${child.exitCode}:\n${output()}`);
    try {
      // A bounded wait: a request that reached the start-up listener as it closed would hang for good.
      if ((await fetch(url, { signal: AbortSignal.timeout(2_000) })).ok) return;
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`no answer from ${url}:\n${output()}`);
}

/** Resident memory of a process now (VmRSS), in MiB. */
function rssMiB(pid: number): number {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) / 1024;
}

const CLOCK_TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim()) || 100;

/** CPU seconds a process has used (user + system, all its threads). */
export function cpuSeconds(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/**
 * A server process whose stdout is a stream socket read and discarded by this process, as the journal
 * reads a service's: its lines are counted, so a figure can say how many it wrote per request.
 */
export interface Server {
  child: ChildProcess;
  url: string;
  lines: () => number;
  stop: () => Promise<void>;
}

export function startProcess(args: string[], env: NodeJS.ProcessEnv, port: number, healthPath: string): Promise<Server> {
  const child = spawn('node', args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let lines = 0;
  child.stdout!.on('data', (chunk: Buffer) => {
    for (let at = chunk.indexOf(10); at !== -1; at = chunk.indexOf(10, at + 1)) lines += 1;
  });
  let errors = '';
  child.stderr!.on('data', (chunk: Buffer) => (errors = (errors + chunk.toString()).slice(-4000)));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
  };
  return waitFor(`${url}${healthPath}`, child, () => errors).then(
    () => ({ child, url, lines: () => lines, stop }),
    async (error: unknown) => {
      await stop();
      throw error;
    },
  );
}

/**
 * A round-robin TCP proxy: each new connection goes to the next backend. The scale-out figure puts
 * one serve process and two behind the same proxy, so the proxy's own cost is in both.
 */
export async function roundRobinProxy(backendPorts: number[]): Promise<{ port: number; close: () => Promise<void> }> {
  let next = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const backend = net.connect(backendPorts[next++ % backendPorts.length]!, '127.0.0.1');
    for (const socket of [client, backend]) {
      socket.setNoDelay(true);
      sockets.add(socket);
      socket.once('close', () => sockets.delete(socket));
    }
    client.pipe(backend).pipe(client);
    client.once('error', () => backend.destroy());
    backend.once('error', () => client.destroy());
  });
  const port = await new Promise<number>((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)));
  const close = () => {
    for (const socket of sockets) socket.destroy();
    return new Promise<void>((resolve) => server.close(() => resolve()));
  };
  return { port, close };
}

/** busyPercent: the server's CPU use during the run, in % of one core; cpuUs: its CPU time per answer, in µs. */
export type Measured = LoadResult & { busyPercent: number; cpuUs: number; lines: number };

/** A load run with the server's CPU use beside it (its share of one core, in %): near 100, the server is the limit. */
export async function measure(driver: Driver, server: Server, request: LoadRequest): Promise<Measured> {
  const cpuBefore = cpuSeconds(server.child.pid!);
  const linesBefore = server.lines();
  const started = performance.now();
  const result = await load(driver, request);
  const elapsed = (performance.now() - started) / 1000;
  const cpu = cpuSeconds(server.child.pid!) - cpuBefore;
  return { ...result, busyPercent: (100 * cpu) / elapsed, cpuUs: (cpu * 1e6) / Math.max(result.requests, 1), lines: server.lines() - linesBefore };
}

/** Peak RSS of a process while `during` runs, sampled every 20 ms (not VmHWM, which counts start-up and logins too). */
export async function peakRssDuring<T>(pid: number, during: Promise<T>): Promise<{ result: T; peakMiB: number }> {
  let peakMiB = rssMiB(pid);
  const sampler = setInterval(() => (peakMiB = Math.max(peakMiB, rssMiB(pid))), 20);
  try {
    return { result: await during, peakMiB };
  } finally {
    clearInterval(sampler);
  }
}

/** Wall time of one `node <args>` run, in ms. */
export function wallTimeMs(args: string[], env: Record<string, string>): number {
  const started = process.hrtime.bigint();
  const result = spawnSync('node', args, { stdio: 'ignore', env: { ...process.env, LOG_LEVEL: 'warn', ...env } });
  if (result.status !== 0) throw new Error(`node ${args.join(' ')} exited ${result.status}`);
  return Number(process.hrtime.bigint() - started) / 1e6;
}

export const rps = (value: number) => `${value.toFixed(0)} req/s`;
const busy = (runs: { busyPercent: number }[]) => `${median(runs.map((r) => r.busyPercent)).toFixed(0)}%`;
const cpuPerAnswer = (runs: { cpuUs: number }[]) => `${median(runs.map((r) => r.cpuUs)).toFixed(0)} µs`;
/** "x ÷ y req/s; busy …; CPU per answer …": the throughputs, then the two readings that say whether the server was the limit. */
export const sideBySide = (left: Measured[], right: Measured[]) =>
  `${rps(median(left.map((r) => r.requestsPerSecond)))} ÷ ${rps(median(right.map((r) => r.requestsPerSecond)))}; busy ${busy(left)} ÷ ${busy(right)}; CPU ${cpuPerAnswer(left)} ÷ ${cpuPerAnswer(right)} an answer`;

/**
 * A seed stands for years of use, which autovacuum would have followed: on PostgreSQL (a `databaseUrl`)
 * the database is vacuumed and analysed before anything is measured, so that index-only scans read
 * the index alone (right after the seed each five-year balance visited its 1,825 rows in the heap too)
 * and the planner knows the row counts. SQLite has nothing of the kind to settle.
 */
export async function settleSeed(databaseUrl: string | undefined): Promise<void> {
  if (!databaseUrl) return;
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('vacuum analyze');
  } finally {
    await client.end();
  }
}

/** The statistics account of every bench: Berlin, DE-BY, one 8.5-hour entry on each day of the last `years` years. */
export async function seedYearsOfEntries(
  services: {
    settings: { updateSettings(userId: number, patch: { timezone: string; holiday_region: string; tracking_start: string }): Promise<unknown> };
    timeEntries: { createEntry(userId: number, input: { start_at: string; end_at: string; note: string }): Promise<unknown> };
  },
  userId: number,
  years: number,
): Promise<void> {
  const startDate = new Date(Date.now() - years * 365 * 86_400_000).toISOString().slice(0, 10);
  await services.settings.updateSettings(userId, { timezone: 'Europe/Berlin', holiday_region: 'DE-BY', tracking_start: startDate });
  for (let day = new Date(`${startDate}T00:00:00Z`); day.getTime() < Date.now() - 86_400_000; day = new Date(day.getTime() + 86_400_000)) {
    const date = day.toISOString().slice(0, 10);
    await services.timeEntries.createEntry(userId, { start_at: `${date}T07:30:00Z`, end_at: `${date}T16:00:00Z`, note: 'work' });
  }
}

/** A session token of `email`, signed in through the server's own login. */
export async function loginToken(baseUrl: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  if (!response.ok) throw new Error(`login failed: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { token: string }).token;
}
