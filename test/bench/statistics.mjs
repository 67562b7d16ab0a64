// Measures the statistics of a user with 5 years of daily entries (two a day, with vacations and a
// holiday region). Run after `npm run bench` has compiled dist-bench: `node test/bench/statistics.mjs`.
// Not part of `npm test` (no timing assertions there); the numbers go in docs/performance.md.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createContext } from '../../dist-bench/src/composition-root.js';
import { splitByLocalDay } from '../../dist-bench/src/time/calendar.js';

const NOW = new Date('2026-11-20T12:00:00.000Z');
const clock = { now: () => new Date(NOW) };
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'timetrack-bench-'));
const ctx = await createContext({
  env: { TIMETRACK_DB: path.join(dir, 'bench.db'), LOG_LEVEL: 'warn' },
  clock,
  migrate: true,
  logDestination: process.stderr,
});
const { accounts, settings, timeEntries, absences, statistics } = ctx.services;

const user = await accounts.createAccount({ email: 'bench@example.com', password: 'a long bench password', full_name: 'Bench' });
await settings.updateSettings(user.id, { timezone: 'Europe/Berlin', holiday_region: 'DE-BY', tracking_start: '2021-11-22' });

const fillStarted = performance.now();
let entries = 0;
for (let day = new Date('2021-11-22T00:00:00Z'); day < new Date('2026-11-20T00:00:00Z'); day = new Date(day.getTime() + 86_400_000)) {
  const date = day.toISOString().slice(0, 10);
  await timeEntries.createEntry(user.id, { start_at: `${date}T07:00:00Z`, end_at: `${date}T11:00:00Z`, note: 'morning' });
  await timeEntries.createEntry(user.id, { start_at: `${date}T11:30:00Z`, end_at: `${date}T15:45:00Z`, note: 'afternoon' });
  entries += 2;
  if (day.getUTCDate() === 10 && day.getUTCMonth() % 2 === 0) await absences.createAbsence(user.id, { date, type: 'vacation' });
}
const fillMs = performance.now() - fillStarted;

async function measure(label, run, repeat = 30) {
  await run();
  const times = [];
  for (let i = 0; i < repeat; i++) {
    const started = performance.now();
    await run();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  const median = times[Math.floor(times.length / 2)];
  console.log(`${label.padEnd(48)} median ${median.toFixed(2)} ms   max ${times[times.length - 1].toFixed(2)} ms`);
}

console.log(`${entries} entries over 5 years written in ${(fillMs / 1000).toFixed(1)} s (${(fillMs / entries).toFixed(2)} ms per create, totals included)`);
await measure('GET /api/stats/overtime (5 years of days)', () => statistics.overtime(user.id));
await measure('GET /api/stats/today', () => statistics.today(user.id));
await measure('GET /api/stats/week (a week 3 years back)', () => statistics.weekOverview(user.id, '2023-06-14'));
await measure('GET /api/time-entries (one week, 4 years back)', () => timeEntries.listEntries(user.id, { from: '2022-03-07', to: '2022-03-14' }));
await measure('POST /api/time-entries + DELETE (one write each)', async () => {
  const entry = await timeEntries.createEntry(user.id, { start_at: '2026-11-20T16:00:00Z', end_at: '2026-11-20T17:00:00Z' });
  await timeEntries.deleteEntry(user.id, entry.id);
});
// What the per-day totals avoid: reading and splitting every entry of the user on each request.
await measure('for comparison: scan + split all entries', async () => {
  const rows = await ctx.db.selectFrom('time_entries').select(['start_at', 'end_at']).where('user_id', '=', user.id).execute();
  let total = 0;
  for (const row of rows) for (const piece of splitByLocalDay(Date.parse(row.start_at), Date.parse(row.end_at), 'Europe/Berlin')) total += piece.ms;
  return total;
});
const zones = ['UTC', 'Europe/Berlin'];
let zoneIndex = 0;
await measure('PATCH /api/settings timezone (rebuilds all totals)', () => settings.updateSettings(user.id, { timezone: zones[zoneIndex++ % 2] }), 6);

await ctx.close();
fs.rmSync(dir, { recursive: true, force: true });
