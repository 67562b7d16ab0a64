// Counts the statements each statistics request sends to the database, and times the requests, on
// SQLite and (with TIMETRACK_BENCH_DATABASE_URL) PostgreSQL: what a request costs in round trips, and
// in CPU: this process's per request and, with BENCH_PG_DATA=<the cluster's data folder>, the
// PostgreSQL server's (its postmaster's children). Exits 1 when a count differs from EXPECTED below.
// Run after `npm run bench` has compiled dist-bench: `node test/bench/queries.mjs [--sql] [--explain]`.
// --sql prints each statement of a request; --explain runs EXPLAIN ANALYZE on PostgreSQL for each.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { createContext } from '../../dist-bench/src/composition-root.js';
import { seedYearsOfEntries, settleSeed } from '../../dist-bench/test/bench/processes.js';

const require = createRequire(import.meta.url);
const showSql = process.argv.includes('--sql');
const explain = process.argv.includes('--explain');
/** Statements sent, with their text, while counting is on. */
let log = null;

// Counted where each engine's driver runs a statement: better-sqlite3's Statement, pg's Client.
const Sqlite = require('better-sqlite3');
const statementPrototype = Object.getPrototypeOf(new Sqlite(':memory:').prepare('select 1'));
for (const method of ['all', 'get', 'run', 'iterate']) {
  const original = statementPrototype[method];
  statementPrototype[method] = function (...args) {
    log?.push({ text: this.source, values: args });
    return original.apply(this, args);
  };
}
const pg = require('pg');
const originalQuery = pg.Client.prototype.query;
pg.Client.prototype.query = function (config, values, callback) {
  const text = typeof config === 'string' ? config : config.text;
  if (log && text) log.push({ text, values: typeof config === 'string' ? values : (config.values ?? values) });
  return originalQuery.call(this, config, values, callback);
};

/** Statements per request (docs/performance.md), the same on both engines: an account without a running entry. */
const EXPECTED = { 'stats/overtime': 2, 'stats/today': 6, 'stats/week': 4, 'stats/month': 6 };
let differs = false;

const CLOCK_TICKS = 100;
/** CPU seconds (user + system) of the PostgreSQL server's processes: the children of the postmaster of BENCH_PG_DATA. */
function serverCpuSeconds() {
  const data = process.env.BENCH_PG_DATA;
  if (!data) return undefined;
  const postmaster = fs.readFileSync(path.join(data, 'postmaster.pid'), 'utf8').split('\n')[0];
  let total = 0;
  for (const pid of fs.readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    try {
      const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      if (fields[1] === postmaster || pid === postmaster) total += (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

const YEARS = 5;
const targets = process.argv.includes('--postgres-only')
  ? []
  : [{ name: 'SQLite', env: { TIMETRACK_DB: path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'timetrack-queries-')), 'q.db') } }];
if (process.env.TIMETRACK_BENCH_DATABASE_URL)
  targets.push({
    name: 'PostgreSQL',
    env: {
      DATABASE_URL: process.env.TIMETRACK_BENCH_DATABASE_URL,
      JWT_SECRET: randomBytes(32).toString('base64url'),
      // The pool's size sizes the statistics lane on PostgreSQL (docs/decisions/0009-statistics-lane-by-engine.md).
      ...(process.env.DATABASE_POOL_SIZE ? { DATABASE_POOL_SIZE: process.env.DATABASE_POOL_SIZE } : {}),
    },
  });

for (const target of targets) {
  const ctx = await createContext({ env: { ...target.env, LOG_LEVEL: 'warn' }, migrate: true, logDestination: process.stderr });
  const { accounts, settings, timeEntries, statistics } = ctx.services;
  const user = await accounts.createAccount({
    email: `queries-${Date.now()}-${randomBytes(3).toString('hex')}@example.com`,
    password: 'a long benchmark passphrase',
    full_name: 'Q',
  });
  await seedYearsOfEntries({ settings, timeEntries }, user.id, YEARS);
  await settleSeed(target.env.DATABASE_URL);
  const requests = {
    'stats/overtime': () => statistics.overtime(user.id),
    'stats/today': () => statistics.today(user.id),
    'stats/week': () => statistics.weekOverview(user.id),
    'stats/month': () => statistics.monthFigures(user.id),
  };
  for (const [name, run] of Object.entries(requests)) {
    await run();
    log = [];
    await run();
    const statements = log;
    log = null;
    const times = [];
    const runs = 200;
    const cpuBefore = process.cpuUsage();
    const serverBefore = serverCpuSeconds();
    for (let i = 0; i < runs; i++) {
      const started = performance.now();
      await run();
      times.push(performance.now() - started);
    }
    const cpu = process.cpuUsage(cpuBefore);
    const serverAfter = serverCpuSeconds();
    times.sort((a, b) => a - b);
    const cpuUs = (cpu.user + cpu.system) / runs;
    const serverUs = serverBefore === undefined ? '' : `, server CPU ${(((serverAfter - serverBefore) * 1e6) / runs).toFixed(0)} µs`;
    // 32 at once, through the statistics lane: answers a second in this process.
    const started = performance.now();
    await Promise.all(
      Array.from({ length: 32 }, async () => {
        for (let i = 0; i < 10; i++) await run();
      }),
    );
    const perSecond = 320 / ((performance.now() - started) / 1000);
    const mark = EXPECTED[name] === statements.length ? '' : ` (expected ${EXPECTED[name]})`;
    if (mark) differs = true;
    console.log(
      `${target.name.padEnd(10)} ${name.padEnd(15)} ${String(statements.length).padStart(2)} statements${mark}, median ${times[runs / 2].toFixed(2)} ms, CPU ${cpuUs.toFixed(0)} µs${serverUs}; 32 at once ${perSecond.toFixed(0)}/s`,
    );
    if (showSql) for (const s of statements) console.log(`    ${s.text.replace(/\s+/g, ' ').slice(0, 160)}  ${JSON.stringify(s.values).slice(0, 80)}`);
    if (explain && target.name === 'PostgreSQL') {
      for (const s of statements) {
        const plan = await ctx.database.pool.query(`explain (analyze, buffers) ${s.text}`, s.values);
        const started = performance.now();
        for (let i = 0; i < 20; i++) await ctx.database.pool.query(s.text, s.values);
        console.log(`  ${((performance.now() - started) / 20).toFixed(2)} ms a run, from here`);
        console.log(`  -- ${s.text.replace(/\s+/g, ' ').slice(0, 200)}\n${plan.rows.map((r) => `     ${r['QUERY PLAN']}`).join('\n')}`);
      }
    }
  }
  await ctx.close();
}
if (differs) process.exitCode = 1;
