// The statistics part of the bench alone (docs/performance.md): `/api/stats/overtime` of an account
// with five years of daily entries, on SQLite and (with TIMETRACK_BENCH_DATABASE_URL) PostgreSQL, in
// alternating rounds, with `/me` on SQLite beside it; each run prints throughput, the server's CPU
// use and its CPU per answer. With BENCH_BASELINE_BIN=<another checkout>/bin/timetrack.cjs the same
// requests go to that build's `serve` too (its own copy of the SQLite file, the same PostgreSQL
// database), in the same rounds: before ÷ after on a machine whose load moves both alike.
// `npm run build && tsc -p test/bench/tsconfig.json && node dist-bench/test/bench/stats-only.js`
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createContext } from '../../src/composition-root.js';
import { chooseDriver } from './load.js';
import { freePort, loginToken, measure, median, seedYearsOfEntries, settleSeed, startProcess, type Measured, type Server } from './processes.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const PASSWORD = 'a long benchmark passphrase';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const PATHS = (process.env.BENCH_STATS_PATHS ?? '/api/stats/overtime').split(',');

interface Target {
  name: string;
  env: Record<string, string>;
}

/** One account with five years of daily entries (as the bench's), and one for /me. */
async function seed(env: Record<string, string>, emails: { stats: string; me: string }): Promise<void> {
  const ctx = await createContext({ env: { ...env, LOG_LEVEL: 'warn' }, migrate: true, logDestination: process.stderr });
  const { accounts, settings, timeEntries } = ctx.services;
  await accounts.createAccount({ email: emails.me, password: PASSWORD, full_name: 'Me' });
  const stats = await accounts.createAccount({ email: emails.stats, password: PASSWORD, full_name: 'Stats' });
  await seedYearsOfEntries({ settings, timeEntries }, stats.id, 5);
  await ctx.close();
  await settleSeed(env.DATABASE_URL);
}

async function startServe(bin: string, env: Record<string, string>): Promise<Server> {
  const port = await freePort();
  const serveEnv: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'production', RATE_LIMIT_AUTH: '0', RATE_LIMIT_STATS: '0', LOCKOUT_ATTEMPTS: '1000', ...env };
  delete serveEnv.LOG_LEVEL;
  return startProcess([bin, 'serve', '--port', String(port)], serveEnv, port, '/api/health');
}

const token = (baseUrl: string, email: string) => loginToken(baseUrl, email, PASSWORD);

const suffix = randomBytes(4).toString('hex');
const emails = { stats: `stats-only-${suffix}@example.com`, me: `stats-only-me-${suffix}@example.com` };
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'timetrack-stats-only-'));
const targets: Target[] = [{ name: 'SQLite', env: { TIMETRACK_DB: path.join(dir, 'after.db') } }];
const pgUrl = process.env.TIMETRACK_BENCH_DATABASE_URL;
if (pgUrl) targets.push({ name: 'PostgreSQL', env: { DATABASE_URL: pgUrl, JWT_SECRET: randomBytes(32).toString('base64url') } });
for (const target of targets) await seed(target.env, emails);

const builds: Array<{ label: string; bin: string }> = [{ label: 'after', bin: path.join(ROOT, 'bin/timetrack.cjs') }];
const baseline = process.env.BENCH_BASELINE_BIN;
if (baseline) builds.unshift({ label: 'before', bin: path.resolve(baseline) });

interface Column {
  name: string;
  server: Server;
  headers: Record<string, string>;
  meHeaders: Record<string, string>;
  runs: Map<string, Measured[]>;
}
const columns: Column[] = [];
for (const build of builds) {
  for (const target of targets) {
    const env = { ...target.env };
    // A build of its own needs a SQLite file of its own (the file is locked by one process).
    if (target.name === 'SQLite' && build.label === 'before') {
      env.TIMETRACK_DB = path.join(dir, 'before.db');
      fs.copyFileSync(target.env.TIMETRACK_DB!, env.TIMETRACK_DB);
    }
    const server = await startServe(build.bin, env);
    const headers = { authorization: `Bearer ${await token(server.url, emails.stats)}` };
    const meHeaders = { authorization: `Bearer ${await token(server.url, emails.me)}` };
    columns.push({ name: `${target.name} ${build.label}`, server, headers, meHeaders, runs: new Map() });
  }
}

const driver = chooseDriver();
const show = (run: Measured) => `${run.requestsPerSecond.toFixed(0)} req/s, busy ${run.busyPercent.toFixed(0)}%, CPU ${run.cpuUs.toFixed(0)} µs`;
for (let round = 0; round < ROUNDS; round++) {
  for (const column of columns) {
    for (const route of [...PATHS, '/api/auth/me']) {
      if (route === '/api/auth/me' && !column.name.startsWith('SQLite')) continue;
      const headers = route === '/api/auth/me' ? column.meHeaders : column.headers;
      const run = await measure(driver, column.server, { url: `${column.server.url}${route}`, headers, connections: CONNECTIONS, seconds: SECONDS });
      if (run.non2xx > 0) throw new Error(`${column.name} ${route}: ${run.non2xx} answers not 2xx`);
      column.runs.set(route, [...(column.runs.get(route) ?? []), run]);
      console.log(`round ${round + 1} ${column.name.padEnd(18)} ${route.padEnd(22)} ${show(run)}`);
    }
  }
}

const rpsOf = (column: Column | undefined, route: string) => median((column?.runs.get(route) ?? []).map((run) => run.requestsPerSecond));
const cpuOf = (column: Column | undefined, route: string) => median((column?.runs.get(route) ?? []).map((run) => run.cpuUs));
const column = (name: string) => columns.find((c) => c.name === name);
console.log(`\n${driver}, ${CONNECTIONS} connections, ${SECONDS} s a run, ${ROUNDS} rounds (medians)`);
for (const build of builds) {
  const sqlite = column(`SQLite ${build.label}`);
  const postgres = column(`PostgreSQL ${build.label}`);
  for (const route of PATHS) {
    const line = [`${build.label}: ${route}`, `SQLite ${rpsOf(sqlite, route).toFixed(0)} req/s (${cpuOf(sqlite, route).toFixed(0)} µs CPU)`];
    line.push(`÷ /me ${(rpsOf(sqlite, route) / rpsOf(sqlite, '/api/auth/me')).toFixed(3)}`);
    if (postgres) {
      line.push(`PostgreSQL ${rpsOf(postgres, route).toFixed(0)} req/s (${cpuOf(postgres, route).toFixed(0)} µs CPU)`);
      line.push(`PostgreSQL ÷ SQLite ${(rpsOf(postgres, route) / rpsOf(sqlite, route)).toFixed(2)}`);
    }
    console.log(line.join('; '));
  }
}
for (const c of columns) await c.server.stop();
fs.rmSync(dir, { recursive: true, force: true });
