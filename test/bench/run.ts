// `npm run bench`: starts real `timetrack serve` processes (production mode, temp database), drives
// them over loopback and prints each figure of docs/performance.md as a ratio measured side by side
// in this run, with its goal. With TIMETRACK_BENCH_DATABASE_URL set (postgres://…) every figure is
// measured a second time against serve processes on that database, in a column of its own. The table
// is also written to bench-results/latest.json.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import argon2 from 'argon2';
import { defaultHashConcurrency } from '../../src/config/index.js';
import { createContext } from '../../src/composition-root.js';
import { ARGON2_PARAMETERS } from '../../src/auth/passwords/hasher.js';
import { chooseDriver, load, type Driver, type LoadResult } from './load.js';
import {
  measure,
  median,
  peakRssDuring,
  roundRobinProxy,
  rps,
  sideBySide,
  sleep,
  startProcess,
  wallTimeMs,
  freePort,
  loginToken,
  seedYearsOfEntries,
  settleSeed,
  type Measured,
  type Server,
} from './processes.js';
import { LIMIT_404, LIMIT_ME, TICK_ENTRY, limitFigures, tickEntryFigure, type Bench } from './limit.js';
import { BYSTANDER, bystander } from './bystander.js';
import { LOGINS_PER_SECOND, PEOPLE, REQUESTS_PER_PERSON_PER_SECOND, mixedTraffic, seedPeople, warmUp } from './mixed.js';
import { calendarFigures, TEAM_ANSWERS, TEAM_BYSTANDER, TEAM_CALENDAR, TEAM_P95, TEAM_SIZE, seedTeam, teamFigures } from './team.js';
import { MONTH_APPROVE, MONTH_BYSTANDER, MONTH_VERIFY, monthFigures } from './team-months.js';

const rounded = (ratio: number) => Math.round(ratio * 100) / 100;
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const BIN = path.join(ROOT, 'bin/timetrack.cjs');
const BARE_SERVER = path.join(ROOT, 'dist-bench/test/bench/bare-server.js');
const LIMIT_SERVER = path.join(ROOT, 'dist-bench/test/bench/limit-server.js');
/** Length of the mixed-traffic run (MIXED), in seconds. */
const MIXED_SECONDS = Number(process.env.BENCH_MIXED_SECONDS ?? 20);
const MIXED = `mixed traffic: p99 in ms of ${PEOPLE} people (${PEOPLE * REQUESTS_PER_PERSON_PER_SECOND} req/s + ${LOGINS_PER_SECOND} login/s) during a 16-connection login flood (a)`;
/** Length of the bystander figure's run (BYSTANDER), in seconds. */
const BYSTANDER_SECONDS = Number(process.env.BENCH_BYSTANDER_SECONDS ?? 20);
const STATS_PG = 'statistics: /stats/overtime on PostgreSQL ÷ on SQLite';
/** The SQLite target, whose file STATS_PG's SQLite side is served from again beside PostgreSQL. */
let sqliteTarget: Target | undefined;
/**
 * The node flags of the systemd unit's ExecStart (config/timetrack.service), between the node binary
 * and bin/timetrack.cjs: serve runs with them here too. The unit as shipped runs `timetrack` itself
 * (its shebang: no flags), so this is empty unless the unit is edited to run node with flags.
 */
const UNIT_NODE_FLAGS = (() => {
  const unit = fs.readFileSync(path.join(ROOT, 'config/timetrack.service'), 'utf8');
  const execStart = /^ExecStart=(.*)$/m.exec(unit)?.[1]?.split(/\s+/) ?? [];
  const script = execStart.findIndex((word) => word.endsWith('bin/timetrack.cjs'));
  return script === -1 ? [] : execStart.slice(1, script);
})();
const PASSWORD = 'a long benchmark passphrase';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
/** Enough for the server, not the load generator, to be the limit: the saturation row checks it. */
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 32);
/** Alternating runs of bare Fastify, a timetrack 404 and /me. */
const ROUNDS = 3;
const HASH_CONCURRENCY = defaultHashConcurrency(); // the server's bound at its default
const PG_URL = process.env.TIMETRACK_BENCH_DATABASE_URL;
/** Length of each of the team figure's two runs, in seconds. */
const TEAM_SECONDS = Number(process.env.BENCH_TEAM_SECONDS ?? 10);
/** BENCH_ONLY=mixed, bystander, team, limit or statistics (comma-separated): only those figures are measured (docs/performance.md). */
const ONLY = (process.env.BENCH_ONLY ?? '').split(',').filter((name) => name !== '');

/**
 * (a) as a self-hoster runs it: production mode, LOG_LEVEL unset (info: one line per request), the
 * log written to a stream socket read by another process (as systemd's journal reads it), against a
 * bare Fastify that logs each request to the same kind of sink. (b) LOG_LEVEL=warn against a bare
 * Fastify without a logger.
 */
type Way = 'a' | 'b';

interface Target {
  name: 'SQLite' | 'PostgreSQL';
  /** Settings of serve, of the seeding and of the CLI. */
  env: Record<string, string>;
  serveArgs: string[];
  /** Seeded accounts (unique per run: a PostgreSQL database may already hold earlier runs' accounts). */
  emails: { me: string; stats: string; flood: string };
}

interface Cell {
  measured: string;
  ratio: number | null;
  met: boolean | null;
}

interface Row {
  figure: string;
  goal: string;
  /** Goal on PostgreSQL, when it has one of its own. */
  pgGoal?: string;
  check?: (ratio: number) => boolean;
  pgCheck?: (ratio: number) => boolean;
  cells: Partial<Record<Target['name'], Cell>>;
  driver: string;
}

async function startServe(target: Target, way: Way, extraEnv: Record<string, string> = {}): Promise<Server> {
  const port = await freePort();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    NODE_ENV: 'production',
    RATE_LIMIT_AUTH: '0',
    RATE_LIMIT_STATS: '0',
    LOCKOUT_ATTEMPTS: '1000',
    ...extraEnv,
    ...target.env,
  };
  if (way === 'a') delete env.LOG_LEVEL;
  else env.LOG_LEVEL = 'warn';
  return startProcess([...UNIT_NODE_FLAGS, BIN, 'serve', '--port', String(port), ...target.serveArgs], env, port, '/api/health');
}

async function startLimit(target: Target): Promise<Server> {
  const port = await freePort();
  const args = target.name === 'SQLite' ? ['sqlite', target.env.TIMETRACK_DB!] : ['postgres', target.env.DATABASE_URL!];
  return startProcess([LIMIT_SERVER, String(port), ...args], process.env, port, '/');
}

async function startBare(way: Way): Promise<Server> {
  const port = await freePort();
  return startProcess([BARE_SERVER, String(port), way === 'a' ? 'log' : 'quiet'], process.env, port, '/');
}

async function seed(target: Target): Promise<void> {
  const ctx = await createContext({ env: { ...target.env, LOG_LEVEL: 'warn' }, migrate: true, logDestination: process.stderr });
  const { accounts, settings, timeEntries } = ctx.services;
  await accounts.createAccount({ email: target.emails.me, password: PASSWORD, full_name: 'Bench' });
  const stats = await accounts.createAccount({ email: target.emails.stats, password: PASSWORD, full_name: 'Stats' });
  // The login flood signs in to an account of its own: each sign-in is a session, and past the
  // sessions an account may hold the oldest (the /me token measured meanwhile) would be revoked.
  await accounts.createAccount({ email: target.emails.flood, password: PASSWORD, full_name: 'Flood' });
  // The five years are the statistics and bystander figures' (BENCH_ONLY=team or mixed alone needs none).
  if (ONLY.length === 0 || ONLY.includes('bystander') || ONLY.includes('statistics')) await seedYearsOfEntries({ settings, timeEntries }, stats.id, 5);
  await ctx.close();
  await settleSeed(target.env.DATABASE_URL);
}

const token = (baseUrl: string, email: string) => loginToken(baseUrl, email, PASSWORD);

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

/** Every figure of one database. `put` records a cell of a row (rows are shared by the two columns). */
async function measureTarget(driver: Driver, target: Target, put: (figure: string, cell: Omit<Cell, 'met'>) => void): Promise<void> {
  process.stderr.write(`${target.name}: seeding (2 accounts, 5 years of daily entries)…\n`);
  await seed(target);
  if (ONLY.length > 0) {
    // BENCH_ONLY: only the named figures, to look into one of them without the whole run.
    if (ONLY.includes('mixed')) await mixedFigure(driver, target, put);
    if (ONLY.includes('bystander')) await bystanderFigure(target, put);
    if (ONLY.includes('team')) await teamFigure(target, put);
    if (ONLY.includes('limit')) {
      const serve = await startServe(target, 'b');
      try {
        await comparisons(driver, target, serve, { authorization: `Bearer ${await token(serve.url, target.emails.me)}` }, put);
      } finally {
        await serve.stop();
      }
    }
    if (ONLY.includes('statistics') && target.name === 'PostgreSQL') {
      const serve = await startServe(target, 'a');
      try {
        await statisticsSideBySide(driver, target, serve, put);
      } finally {
        await serve.stop();
      }
    }
    return;
  }

  let meRpsA = 0;
  let meP99A = 0;
  for (const way of ['a', 'b'] as const) {
    const serve = await startServe(target, way);
    const bare = await startBare(way);
    try {
      const meHeaders = { authorization: `Bearer ${await token(serve.url, target.emails.me)}` };
      const requests = {
        bare: { url: `${bare.url}/`, connections: CONNECTIONS, seconds: SECONDS },
        notFound: { url: `${serve.url}/api/no-such-route`, connections: CONNECTIONS, seconds: SECONDS },
        me: { url: `${serve.url}/api/auth/me`, headers: meHeaders, connections: CONNECTIONS, seconds: SECONDS },
      };
      // Warm-up, then alternating runs; each ratio is the median of the rounds' ratios (a round's
      // runs are seconds apart, so load from elsewhere on the machine moves both sides alike).
      for (const request of Object.values(requests)) await load(driver, { ...request, seconds: 2 });
      const runs: Record<keyof typeof requests, Measured[]> = { bare: [], notFound: [], me: [] };
      let serveRss = 0;
      for (let round = 0; round < ROUNDS; round++) {
        runs.bare.push(await measure(driver, bare, requests.bare));
        runs.notFound.push(await measure(driver, serve, requests.notFound));
        const measured = await peakRssDuring(serve.child.pid!, measure(driver, serve, requests.me));
        runs.me.push(measured.result);
        serveRss = Math.max(serveRss, measured.peakMiB);
      }
      if (runs.me.some((r) => r.non2xx > 0)) throw new Error(`${target.name}: /me answered errors under load`);
      const ratio = (of: Measured[]) => median(of.map((r, i) => r.requestsPerSecond / runs.bare[i]!.requestsPerSecond));
      const meRps = median(runs.me.map((r) => r.requestsPerSecond));
      const bareName = way === 'a' ? 'bare Fastify logging each request' : 'bare Fastify without a logger';
      put(`(${way}) 404 ÷ ${bareName}`, { measured: sideBySide(runs.notFound, runs.bare), ratio: ratio(runs.notFound) });
      put(`(${way}) /me ÷ ${bareName}`, { measured: sideBySide(runs.me, runs.bare), ratio: ratio(runs.me) });

      if (way === 'a') {
        // What each side wrote to its log, per answer: serve one line, bare Fastify two (in and out).
        const perRequest = (of: Measured[]) => of.reduce((sum, r) => sum + r.lines, 0) / of.reduce((sum, r) => sum + r.requests, 0);
        put('(a) log lines per request: serve ÷ bare Fastify', {
          measured: `${perRequest(runs.me).toFixed(2)} ÷ ${perRequest(runs.bare).toFixed(2)}`,
          ratio: null,
        });
        meRpsA = meRps;
        meP99A = median(runs.me.map((r) => r.p99Ms));
        await otherFigures(driver, target, serve, bare, serveRss, meRpsA, meP99A, put);
      } else {
        if (target.name === 'SQLite') {
          // Saturation: twice the connections must not raise bare Fastify's throughput (the server,
          // not the load generator, is the limit); the busy shares above say the same from the CPU side.
          const more = await measure(driver, bare, { ...requests.bare, connections: CONNECTIONS * 2 });
          const again = await measure(driver, bare, requests.bare);
          put(`saturation: bare Fastify at ${CONNECTIONS * 2} ÷ ${CONNECTIONS} connections`, {
            measured: sideBySide([more], [again]),
            ratio: more.requestsPerSecond / again.requestsPerSecond,
          });
        } else {
          await scaleOut(driver, target, serve, meHeaders, put);
        }
        await comparisons(driver, target, serve, meHeaders, put);
      }
    } finally {
      await Promise.all([serve.stop(), bare.stop()]);
    }
  }

  await mixedFigure(driver, target, put);
  await bystanderFigure(target, put);
  await teamFigure(target, put);

  const cliTimes: number[] = [];
  const nodeTimes: number[] = [];
  for (let i = 0; i < 11; i++) {
    nodeTimes.push(wallTimeMs(['-e', '0'], {}));
    cliTimes.push(wallTimeMs([BIN, ...target.serveArgs, 'user', 'list'], target.env));
  }
  put('CLI start: `timetrack user list` ÷ `node -e 0`', {
    measured: `${median(cliTimes).toFixed(0)} ÷ ${median(nodeTimes).toFixed(0)} ms`,
    ratio: median(cliTimes) / median(nodeTimes),
  });
}

/** Memory, statistics, logins: on the (a) server, as a self-hoster runs it. */
async function otherFigures(
  driver: Driver,
  target: Target,
  serve: Server,
  bare: Server,
  serveRss: number,
  meRps: number,
  meP99: number,
  put: (figure: string, cell: Omit<Cell, 'met'>) => void,
) {
  let bareRss = 0;
  for (let round = 0; round < ROUNDS; round++) {
    bareRss = Math.max(
      bareRss,
      (await peakRssDuring(bare.child.pid!, load(driver, { url: `${bare.url}/`, connections: CONNECTIONS, seconds: SECONDS }))).peakMiB,
    );
  }
  put('memory: peak RSS of serve under /me load ÷ bare Fastify', { measured: `${serveRss.toFixed(1)} ÷ ${bareRss.toFixed(1)} MiB`, ratio: serveRss / bareRss });

  const statsHeaders = { authorization: `Bearer ${await token(serve.url, target.emails.stats)}` };
  const statsRuns: LoadResult[] = [];
  for (let round = 0; round < 2; round++)
    statsRuns.push(await load(driver, { url: `${serve.url}/api/stats/overtime`, headers: statsHeaders, connections: CONNECTIONS, seconds: SECONDS }));
  if (statsRuns.some((r) => r.non2xx > 0)) throw new Error(`${target.name}: /api/stats/overtime answered errors under load`);
  const statsRps = median(statsRuns.map((r) => r.requestsPerSecond));
  if (target.name === 'PostgreSQL') await statisticsSideBySide(driver, target, serve, put);
  put('statistics: /stats/overtime (5 years) ÷ /me', { measured: `${rps(statsRps)} ÷ ${rps(meRps)}`, ratio: statsRps / meRps });

  const loginRequest = {
    url: `${serve.url}/api/auth/login`,
    method: 'POST' as const,
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: target.emails.flood, password: PASSWORD }),
    connections: 4,
    seconds: SECONDS,
  };
  const logins = await load(driver, loginRequest);
  if (logins.non2xx > 0) throw new Error(`${target.name}: ${logins.non2xx} logins failed under load`);
  const raw = await rawVerificationsPerSecond(SECONDS);
  put('login efficiency: logins/s ÷ raw argon2 verifications/s', {
    measured: `${logins.requestsPerSecond.toFixed(1)} ÷ ${raw.toFixed(1)} per s`,
    ratio: logins.requestsPerSecond / raw,
  });

  // A login flood from 16 connections while /me is measured (at the connections of its idle figure).
  const meHeaders = { authorization: `Bearer ${await token(serve.url, target.emails.me)}` };
  const flood = load(driver, { ...loginRequest, connections: 16, seconds: SECONDS + 2 });
  await sleep(1000);
  const stormed = await load(driver, { url: `${serve.url}/api/auth/me`, headers: meHeaders, connections: CONNECTIONS, seconds: SECONDS });
  await flood;
  put('login storm: /me throughput during flood ÷ idle', {
    measured: `${rps(stormed.requestsPerSecond)} ÷ ${rps(meRps)}`,
    ratio: stormed.requestsPerSecond / meRps,
  });
  put('login storm: /me p99 during flood ÷ idle', { measured: `${stormed.p99Ms.toFixed(2)} ÷ ${meP99.toFixed(2)} ms`, ratio: stormed.p99Ms / meP99 });
}

/**
 * STATS_PG: the five-year overtime on PostgreSQL ÷ on SQLite, side by side as every other ratio: a
 * serve (a) on the SQLite column's file started again beside the PostgreSQL one, their runs
 * alternating, the median of the rounds' ratios (measured half an hour apart, the two columns'
 * figures moved with the machine's speed).
 */
async function statisticsSideBySide(driver: Driver, target: Target, serve: Server, put: (figure: string, cell: Omit<Cell, 'met'>) => void) {
  if (!sqliteTarget) return;
  const sqliteServe = await startServe(sqliteTarget, 'a');
  try {
    const request = async (server: Server, of: Target) => ({
      url: `${server.url}/api/stats/overtime`,
      headers: { authorization: `Bearer ${await token(server.url, of.emails.stats)}` },
      connections: CONNECTIONS,
      seconds: SECONDS,
    });
    const onSqlite = await request(sqliteServe, sqliteTarget);
    const onPostgres = await request(serve, target);
    for (const warm of [onSqlite, onPostgres]) await load(driver, { ...warm, seconds: 2 });
    const runs: { sqlite: Measured[]; postgres: Measured[] } = { sqlite: [], postgres: [] };
    for (let round = 0; round < ROUNDS; round++) {
      runs.sqlite.push(await measure(driver, sqliteServe, onSqlite));
      runs.postgres.push(await measure(driver, serve, onPostgres));
    }
    if ([...runs.sqlite, ...runs.postgres].some((r) => r.non2xx > 0)) throw new Error('/api/stats/overtime answered errors under load');
    put(STATS_PG, {
      measured: sideBySide(runs.postgres, runs.sqlite),
      ratio: median(runs.postgres.map((r, i) => r.requestsPerSecond / runs.sqlite[i]!.requestsPerSecond)),
    });
  } finally {
    await sqliteServe.stop();
  }
}

/** Way (b): serve ÷ the limit server; on SQLite also serve without its nextTick entry ÷ with it. */
async function comparisons(
  driver: Driver,
  target: Target,
  serve: Server,
  meHeaders: Record<string, string>,
  put: (figure: string, cell: Omit<Cell, 'met'>) => void,
) {
  const bench: Bench<Server> = {
    rounds: ROUNDS,
    connections: CONNECTIONS,
    seconds: SECONDS,
    warmUp: (request) => load(driver, request),
    measure: (server, request) => measure(driver, server, request),
    sideBySide,
    put,
  };
  const limit = await startLimit(target);
  try {
    await limitFigures(bench, serve, limit, meHeaders);
  } finally {
    await limit.stop();
  }
  if (target.name !== 'SQLite') return;
  // A file of its own (one server per SQLite file): the 404 it is measured on reads no data.
  const file = path.join(path.dirname(target.env.TIMETRACK_DB!), 'without-tick-entry.db');
  const withoutEntry = await startServe({ ...target, env: { ...target.env, TIMETRACK_DB: file }, serveArgs: ['--db', file] }, 'b', {
    TIMETRACK_BENCH_WITHOUT_TICK_ENTRY: '1',
  });
  try {
    await tickEntryFigure(bench, serve, withoutEntry);
  } finally {
    await withoutEntry.stop();
  }
}

/** The team's mixed traffic on serve as a self-hoster runs it (a), while 16 connections flood login. */
async function mixedFigure(driver: Driver, target: Target, put: (figure: string, cell: Omit<Cell, 'met'>) => void) {
  process.stderr.write(`${target.name}: seeding ${PEOPLE} people…\n`);
  const people = await seedPeople(target.env, PASSWORD);
  await settleSeed(target.env.DATABASE_URL);
  const serve = await startServe(target, 'a');
  try {
    // The people were at work before the flood (their tokens known, each route answered once).
    await warmUp(serve.url, people);
    const flood = load(driver, {
      url: `${serve.url}/api/auth/login`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: target.emails.flood, password: PASSWORD }),
      connections: 16,
      seconds: MIXED_SECONDS + 2,
    });
    await sleep(1000);
    const result = await mixedTraffic(serve.url, people, PASSWORD, MIXED_SECONDS);
    await flood;
    if (result.failed > 0) throw new Error(`${target.name}: ${result.failed} of ${result.sent} requests of the mixed traffic failed`);
    // Which requests make the p99: a cold path, a kind, or a moment (a checkpoint, a collection).
    process.stderr.write(`${target.name}: the slowest of the mixed traffic:\n${result.slowest.map((line) => `  ${line}\n`).join('')}`);
    put(MIXED, {
      measured: `p50 ${result.p50Ms.toFixed(1)} ms, p99 ${result.p99Ms.toFixed(1)} ms over ${result.sent} requests in ${MIXED_SECONDS} s; logins p50 ${result.loginP50Ms.toFixed(0)} ms, p99 ${result.loginP99Ms.toFixed(0)} ms`,
      ratio: result.p99Ms,
    });
  } finally {
    await serve.stop();
  }
}

/** A second account's /me and health while the 5-year account runs its heaviest allowed mix (a), at the default budgets. */
async function bystanderFigure(target: Target, put: (figure: string, cell: Omit<Cell, 'met'>) => void) {
  const serve = await startServe(target, 'a', { RATE_LIMIT_STATS: '120', RATE_LIMIT_EXPORT: '10' });
  try {
    const result = await bystander(serve.url, await token(serve.url, target.emails.stats), await token(serve.url, target.emails.me), BYSTANDER_SECONDS);
    const mix = Object.entries(result.heavy)
      .sort()
      .map(([request, count]) => `${request} ×${count}`)
      .join(', ');
    const loadAverage = os.loadavg().map((value) => value.toFixed(2));
    process.stderr.write(`${target.name}: load average ${loadAverage.join(' ')}; the heavy account's mix (request, status ×count): ${mix}\n`);
    put(BYSTANDER, {
      measured: `/me p95 ${result.meP95.toFixed(1)} ms (idle ${result.idleMeP95.toFixed(1)}), health p95 ${result.healthP95.toFixed(1)} ms, ${result.asked} of each in ${BYSTANDER_SECONDS} s`,
      ratio: Math.max(result.meP95, result.healthP95),
    });
  } finally {
    await serve.stop();
  }
}

/** A lead's overview of a team of TEAM_SIZE members with a year each (a), alone and while a second account asks /me. */
async function teamFigure(target: Target, put: (figure: string, cell: Omit<Cell, 'met'>) => void) {
  process.stderr.write(`${target.name}: seeding a team of ${TEAM_SIZE} members with a year each…\n`);
  const seeding = performance.now();
  const { leadEmail, teamId } = await seedTeam(target.env, PASSWORD);
  await settleSeed(target.env.DATABASE_URL);
  process.stderr.write(`${target.name}: seeded in ${((performance.now() - seeding) / 1000).toFixed(0)} s\n`);
  const serve = await startServe(target, 'a');
  try {
    const result = await teamFigures(serve, teamId, await token(serve.url, leadEmail), await token(serve.url, target.emails.me), TEAM_SECONDS);
    const loadAverage = os.loadavg().map((value) => value.toFixed(2));
    process.stderr.write(`${target.name}: load average ${loadAverage.join(' ')} after the team figure\n`);
    put(TEAM_ANSWERS, {
      measured: `${result.answers} answers in ${TEAM_SECONDS} s; busy ${result.busyPercent.toFixed(0)}%, CPU ${result.cpuMsPerAnswer.toFixed(1)} ms an answer; load ${loadAverage[0]}`,
      ratio: result.answersPerSecond,
    });
    put(TEAM_P95, { measured: `p95 ${result.p95Ms.toFixed(1)} ms`, ratio: result.p95Ms });
    put(TEAM_BYSTANDER, {
      measured: `/me p95 ${result.meP95.toFixed(1)} ms (idle ${result.idleMeP95.toFixed(1)}), ${result.asked} asked; overview ${result.loadedAnswersPerSecond.toFixed(1)}/s over 4`,
      ratio: result.meP95,
    });
    const calendar = await calendarFigures(serve, teamId, await token(serve.url, leadEmail), TEAM_SECONDS);
    put(TEAM_CALENDAR, {
      measured: `${calendar.answers} answers in ${TEAM_SECONDS} s; p95 ${calendar.p95Ms.toFixed(1)} ms, CPU ${calendar.cpuMsPerAnswer.toFixed(1)} ms an answer`,
      ratio: calendar.answersPerSecond,
    });
    const months = await monthFigures(
      serve,
      target.env,
      [BIN, ...target.serveArgs],
      teamId,
      await token(serve.url, leadEmail),
      await token(serve.url, target.emails.me),
    );
    put(MONTH_APPROVE, { measured: `p95 ${months.approveP95.toFixed(1)} ms of ${months.approvals}`, ratio: months.approveP95 });
    put(MONTH_VERIFY, { measured: `${months.verifyMs.map((ms) => ms.toFixed(0)).join(', ')} ms`, ratio: Math.max(...months.verifyMs) });
    put(MONTH_BYSTANDER, {
      measured: `/me p95 ${months.meP95.toFixed(1)} ms (idle ${months.idleMeP95.toFixed(1)}), ${months.asked} asked; 100 approvals in ${months.bulkSeconds.toFixed(1)} s`,
      ratio: months.meP95,
    });
  } finally {
    await serve.stop();
  }
}

/** Two serve processes behind one port ÷ one, on /me, both behind the same round-robin proxy (way b). */
async function scaleOut(
  driver: Driver,
  target: Target,
  first: Server,
  meHeaders: Record<string, string>,
  put: (figure: string, cell: Omit<Cell, 'met'>) => void,
) {
  const second = await startServe(target, 'b');
  const one = await roundRobinProxy([Number(new URL(first.url).port)]);
  const two = await roundRobinProxy([Number(new URL(first.url).port), Number(new URL(second.url).port)]);
  try {
    const request = (port: number) => ({ url: `http://127.0.0.1:${port}/api/auth/me`, headers: meHeaders, connections: CONNECTIONS, seconds: SECONDS });
    await load(driver, { ...request(two.port), seconds: 2 });
    const ones: LoadResult[] = [];
    const twos: LoadResult[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      ones.push(await load(driver, request(one.port)));
      twos.push(await load(driver, request(two.port)));
    }
    if ([...ones, ...twos].some((r) => r.non2xx > 0)) throw new Error(`${target.name}: /me answered errors behind the proxy`);
    const ratio = median(twos.map((r, i) => r.requestsPerSecond / ones[i]!.requestsPerSecond));
    put('scale-out: two serve processes ÷ one, /me behind one port (b)', {
      measured: `${rps(median(twos.map((r) => r.requestsPerSecond)))} ÷ ${rps(median(ones.map((r) => r.requestsPerSecond)))}`,
      ratio,
    });
  } finally {
    await Promise.all([one.close(), two.close()]);
    await second.stop();
  }
}

async function main(): Promise<void> {
  const driver = chooseDriver();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'timetrack-bench-'));
  const dbPath = path.join(dir, 'timetrack.db');
  const suffix = `${Date.now()}-${randomBytes(3).toString('hex')}`;
  const emails = { me: `bench-${suffix}@example.com`, stats: `stats-${suffix}@example.com`, flood: `flood-${suffix}@example.com` };
  const targets: Target[] = [{ name: 'SQLite', env: { TIMETRACK_DB: dbPath }, serveArgs: ['--db', dbPath], emails }];
  sqliteTarget = targets[0];
  if (PG_URL) targets.push({ name: 'PostgreSQL', env: { DATABASE_URL: PG_URL, JWT_SECRET: randomBytes(32).toString('base64url') }, serveArgs: [], emails });

  const ge = (goal: number) => (ratio: number) => ratio >= goal;
  const le = (goal: number) => (ratio: number) => ratio <= goal;
  const lt = (goal: number) => (ratio: number) => ratio < goal;
  const rows: Row[] = [
    { figure: '(a) 404 ÷ bare Fastify logging each request', goal: '≥ 0.90', check: ge(0.9), cells: {}, driver },
    { figure: '(a) /me ÷ bare Fastify logging each request', goal: '≥ 0.60', check: ge(0.6), cells: {}, driver },
    { figure: '(a) log lines per request: serve ÷ bare Fastify', goal: '(none)', cells: {}, driver },
    { figure: '(b) 404 ÷ bare Fastify without a logger', goal: '≥ 0.80', check: ge(0.8), cells: {}, driver },
    { figure: '(b) /me ÷ bare Fastify without a logger', goal: '≥ 0.50', pgGoal: '≥ 0.35', check: ge(0.5), pgCheck: ge(0.35), cells: {}, driver },
    { figure: LIMIT_404, goal: '≥ 0.80', pgGoal: '≥ 0.80', check: ge(0.8), pgCheck: ge(0.8), cells: {}, driver },
    { figure: LIMIT_ME, goal: '≥ 0.80', pgGoal: '≥ 0.80', check: ge(0.8), pgCheck: ge(0.8), cells: {}, driver },
    { figure: TICK_ENTRY, goal: '(none)', cells: {}, driver },
    { figure: `saturation: bare Fastify at ${CONNECTIONS * 2} ÷ ${CONNECTIONS} connections`, goal: '≤ 1.10', check: le(1.1), cells: {}, driver },
    { figure: 'scale-out: two serve processes ÷ one, /me behind one port (b)', goal: '(none)', cells: {}, driver },
    { figure: 'memory: peak RSS of serve under /me load ÷ bare Fastify', goal: '≤ 1.5', check: le(1.5), cells: {}, driver },
    { figure: 'statistics: /stats/overtime (5 years) ÷ /me', goal: '≥ 0.10', check: ge(0.1), cells: {}, driver },
    { figure: STATS_PG, goal: '(none)', pgGoal: '≥ 0.70', pgCheck: ge(0.7), cells: {}, driver },
    { figure: MIXED, goal: '≤ 50', pgGoal: '≤ 50', check: le(50), pgCheck: le(50), cells: {}, driver: 'fetch, open loop' },
    { figure: BYSTANDER, goal: '≤ 100', pgGoal: '≤ 100', check: le(100), pgCheck: le(100), cells: {}, driver: 'fetch, one at a time' },
    { figure: TEAM_ANSWERS, goal: '≥ 10', pgGoal: '≥ 10', check: ge(10), pgCheck: ge(10), cells: {}, driver: 'fetch, one at a time' },
    { figure: TEAM_P95, goal: '≤ 150', pgGoal: '≤ 150', check: le(150), pgCheck: le(150), cells: {}, driver: 'fetch, one at a time' },
    { figure: TEAM_CALENDAR, goal: '≥ 10', pgGoal: '≥ 10', check: ge(10), pgCheck: ge(10), cells: {}, driver: 'fetch, one at a time' },
    { figure: TEAM_BYSTANDER, goal: '< 100', pgGoal: '< 100', check: lt(100), pgCheck: lt(100), cells: {}, driver: 'fetch, 4 loops + one at a time' },
    { figure: MONTH_APPROVE, goal: '≤ 100', pgGoal: '≤ 100', check: le(100), pgCheck: le(100), cells: {}, driver: 'fetch, one at a time' },
    { figure: MONTH_VERIFY, goal: '≤ 1000', pgGoal: '≤ 1000', check: le(1000), pgCheck: le(1000), cells: {}, driver: 'wall clock' },
    { figure: MONTH_BYSTANDER, goal: '≤ 100', pgGoal: '≤ 100', check: le(100), pgCheck: le(100), cells: {}, driver: 'fetch, 4 loops + one at a time' },
    { figure: 'login efficiency: logins/s ÷ raw argon2 verifications/s', goal: '≥ 0.85', check: ge(0.85), cells: {}, driver },
    { figure: 'login storm: /me throughput during flood ÷ idle', goal: '≥ 0.5', check: ge(0.5), cells: {}, driver },
    { figure: 'login storm: /me p99 during flood ÷ idle', goal: '≤ 3', check: le(3), cells: {}, driver },
    { figure: 'CLI start: `timetrack user list` ÷ `node -e 0`', goal: '≤ 3', check: le(3), cells: {}, driver: 'wall clock' },
  ];

  for (const target of targets) {
    const put = (figure: string, cell: Omit<Cell, 'met'>) => {
      const row = rows.find((r) => r.figure === figure);
      if (!row) throw new Error(`no row ${figure}`);
      const check = target.name === 'PostgreSQL' && row.pgGoal ? row.pgCheck : target.name === 'PostgreSQL' ? undefined : row.check;
      row.cells[target.name] = {
        ...cell,
        ratio: cell.ratio === null ? null : rounded(cell.ratio),
        met: cell.ratio === null || !check ? null : check(cell.ratio),
      };
      process.stderr.write(`  ${target.name} ${figure}: ${cell.measured}${cell.ratio === null ? '' : ` = ${cell.ratio.toFixed(2)}`}\n`);
    };
    await measureTarget(driver, target, put);
  }

  const showPg = Boolean(PG_URL);
  const header = ['figure', 'SQLite: measured', 'ratio', 'goal', 'met', ...(showPg ? ['PostgreSQL: measured', 'ratio', 'goal', 'met'] : []), 'driven by'];
  const cellText = (cell: Cell | undefined, goal: string) =>
    cell
      ? [cell.measured, cell.ratio === null ? 'n/a' : cell.ratio.toFixed(2), goal, cell.met === null ? 'n/a' : cell.met ? 'yes' : 'NO']
      : ['(not measured)', 'n/a', goal, 'n/a'];
  const lines = rows
    .filter((row) => Object.keys(row.cells).length > 0)
    .map((row) => [row.figure, ...cellText(row.cells.SQLite, row.goal), ...(showPg ? cellText(row.cells.PostgreSQL, row.pgGoal ?? '(none)') : []), row.driver]);
  const widths = header.map((h, i) => Math.max(h.length, ...lines.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  process.stdout.write(`\n${line(header)}\n|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|\n${lines.map(line).join('\n')}\n`);
  const conditions = {
    cores: os.cpus().length,
    cpu: os.cpus()[0]?.model ?? 'unknown CPU',
    node: process.version,
    driver,
    connections: CONNECTIONS,
    seconds: SECONDS,
    rounds: ROUNDS,
    serveNodeFlags: UNIT_NODE_FLAGS,
  };
  process.stdout.write(
    `\n${conditions.cores} cores (${conditions.cpu}), Node ${conditions.node}, ${driver}, ${CONNECTIONS} connections, ${SECONDS} s per run, ${ROUNDS} alternating rounds, serve's node flags: ${UNIT_NODE_FLAGS.join(' ') || "(none, as the unit's ExecStart)"}\n`,
  );
  process.stdout.write(
    showPg
      ? 'PostgreSQL column: TIMETRACK_BENCH_DATABASE_URL\n'
      : 'PostgreSQL column skipped: TIMETRACK_BENCH_DATABASE_URL is not set (a postgres:// URL of a database the bench may write to)\n',
  );

  const results = path.join(ROOT, 'bench-results');
  fs.mkdirSync(results, { recursive: true });
  fs.writeFileSync(
    path.join(results, ONLY.length > 0 ? 'only.json' : 'latest.json'), // a partial run leaves the full table alone
    `${JSON.stringify({ date: new Date().toISOString(), ...conditions, postgresql: showPg ? 'measured' : 'skipped: TIMETRACK_BENCH_DATABASE_URL not set', rows }, null, 2)}\n`,
  );
  fs.rmSync(dir, { recursive: true, force: true });
  if (rows.some((row) => Object.values(row.cells).some((cell) => cell?.met === false))) process.exitCode = 1;
}

await main();
