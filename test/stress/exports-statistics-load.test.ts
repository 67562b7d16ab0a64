// One account's data never takes the server down (docs/security.md, "one user's data as a load"):
// against a real `serve`, two clients loop exports of full accounts (50,000 entries with 1,000-
// character notes each, CSV and account document in turn, read as fast as they come) and ten
// accounts in ten holiday regions ask for statistics from 1970 on (with 10,000 absences each), while
// a bystander asks for /api/health every 20 ms. The bystander's p95 must stay under 100 ms. The
// per-account budgets are off here (RATE_LIMIT_EXPORT=0, RATE_LIMIT_STATS=0): the worst case.
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../support/cli.js';
import { tempDb } from '../support/cli-accounts.js';
import { onPostgres } from '../support/database.js';
import { createFullAccount } from '../support/full-account.js';
import { login } from '../support/requests.js';
import { startServer, type RunningServer } from '../support/server.js';

const LOAD_SECONDS = 30;
const REGIONS = ['DE-BY', 'DE-BW', 'DE-SN', 'US-CA', 'US-NY', 'FR', 'GB', 'IT', 'ES', 'AT'];
let server: RunningServer;
let db: string;

beforeAll(async () => {
  db = tempDb();
  for (const name of ['exporter0', 'exporter1']) await createFullAccount(db, `${name}@example.com`, { entries: 50_000, noteLength: 1000 });
  for (const [i, region] of REGIONS.entries()) {
    await createFullAccount(db, `stats${i}@example.com`, { entries: 2_000, holidayRegion: region, trackingStart: '1970-01-01', absences: 10_000 });
  }
  server = await startServer(db, { LOG_LEVEL: 'warn', RATE_LIMIT_EXPORT: '0', RATE_LIMIT_STATS: '0' });
}, 600_000);
afterAll(async () => {
  await server?.stop();
});

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * p))]!;

describe('a bystander during exports and statistics of heavy accounts', () => {
  it(`keeps /api/health p95 under 100 ms for ${LOAD_SECONDS} s`, async () => {
    const deadline = Date.now() + LOAD_SECONDS * 1000;
    const exporters = await Promise.all(['exporter0', 'exporter1'].map((name) => login(server, `${name}@example.com`)));
    const statsTokens = await Promise.all(REGIONS.map((_, i) => login(server, `stats${i}@example.com`)));
    const latencies: number[] = [];
    const bystander = async () => {
      while (Date.now() < deadline) {
        const started = performance.now();
        const response = await fetch(`${server.baseUrl}/api/health`);
        await response.arrayBuffer();
        latencies.push(performance.now() - started);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    // The loading clients run in a process of their own: reading 100 MB of exports must not slow the bystander's own measurement.
    const clients = execa('node', [path.join(PROJECT_ROOT, 'test/support/load-clients.mjs')], {
      env: { LOAD_BASE_URL: server.baseUrl, LOAD_DEADLINE: String(deadline), LOAD_EXPORTERS: exporters.join(','), LOAD_ASKERS: statsTokens.join(',') },
      reject: false,
    });
    await bystander();
    const finished = await clients;
    expect(finished.stderr).toBe('');
    const counts = JSON.parse(String(finished.stdout)) as { exports: number; exportBytes: number; exportSizes: number[]; stats: number; failures: string[] };

    const p50 = percentile(latencies, 0.5);
    const p95 = percentile(latencies, 0.95);
    const max = Math.max(...latencies);
    console.log(
      `bystander /api/health (${onPostgres ? 'PostgreSQL' : 'SQLite'}, ${LOAD_SECONDS} s): ${latencies.length} answers, p50 ${p50.toFixed(1)} ms, p95 ${p95.toFixed(1)} ms, max ${max.toFixed(1)} ms; ` +
        `meanwhile ${counts.exports} exports (${(counts.exportBytes / 1e6).toFixed(0)} MB) and ${counts.stats} statistics answers`,
    );
    expect(counts.failures).toEqual([]);
    // Each exporter finished at least one whole export (about 55 MB each).
    expect(counts.exports).toBeGreaterThanOrEqual(2);
    for (const size of counts.exportSizes) expect(size).toBeGreaterThan(50_000_000);
    expect(counts.stats).toBeGreaterThan(10);
    expect(p95).toBeLessThan(100);
  }, 300_000);
});
