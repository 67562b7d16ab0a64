// Counts the statements each statistics request sends to the database, and times the requests, on
// SQLite and (with TIMETRACK_BENCH_DATABASE_URL) PostgreSQL: what a request costs in round trips.
// Run after `npm run bench` has compiled dist-bench: `node test/bench/queries.mjs [--sql] [--explain]`.
// --sql prints each statement of a request; --explain runs EXPLAIN ANALYZE on PostgreSQL for each.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { createContext } from '../../dist-bench/src/composition-root.js';

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

const YEARS = 5;
const targets = process.argv.includes('--postgres-only')
  ? []
  : [{ name: 'SQLite', env: { TIMETRACK_DB: path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'timetrack-queries-')), 'q.db') } }];
if (process.env.TIMETRACK_BENCH_DATABASE_URL)
  targets.push({ name: 'PostgreSQL', env: { DATABASE_URL: process.env.TIMETRACK_BENCH_DATABASE_URL, JWT_SECRET: randomBytes(32).toString('base64url') } });

for (const target of targets) {
  const ctx = await createContext({ env: { ...target.env, LOG_LEVEL: 'warn' }, migrate: true, logDestination: process.stderr });
  const { accounts, settings, timeEntries, statistics } = ctx.services;
  const user = await accounts.createAccount({
    email: `queries-${Date.now()}-${randomBytes(3).toString('hex')}@example.com`,
    password: 'a long benchmark passphrase',
    full_name: 'Q',
  });
  const start = new Date(Date.now() - YEARS * 365 * 86_400_000).toISOString().slice(0, 10);
  await settings.updateSettings(user.id, { timezone: 'Europe/Berlin', holiday_region: 'DE-BY', tracking_start: start });
  for (let day = new Date(`${start}T00:00:00Z`); day.getTime() < Date.now() - 86_400_000; day = new Date(day.getTime() + 86_400_000)) {
    const date = day.toISOString().slice(0, 10);
    await timeEntries.createEntry(user.id, { start_at: `${date}T07:30:00Z`, end_at: `${date}T16:00:00Z`, note: 'work' });
  }
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
    for (let i = 0; i < 50; i++) {
      const started = performance.now();
      await run();
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    console.log(`${target.name.padEnd(10)} ${name.padEnd(15)} ${String(statements.length).padStart(2)} statements, median ${times[25].toFixed(2)} ms`);
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
