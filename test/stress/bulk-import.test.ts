// A 20,000-row `entries import` next to a live server: the dry run and the apply run while a real
// `serve` process on the same file is written to every 100 ms. The import holds the write lock at
// most a second (the command's own measure of its transaction, printed with --verbose), and no
// request of the server is answered 503.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD } from '../support/app.js';
import { cli, tempDb } from '../support/cli-accounts.js';
import { startServer, type RunningServer } from '../support/server.js';

const ROWS = 20_000;
const HOUR = 3_600_000;
const FIRST_START = Date.UTC(2012, 0, 1, 8);
let db: string;
let server: RunningServer;
let csvFile: string;

async function signUp(email: string): Promise<string> {
  const body = { email, password: PASSWORD, full_name: 'Stress Test' };
  const headers = { 'content-type': 'application/json' };
  const registered = await fetch(`${server.baseUrl}/api/auth/register`, { method: 'POST', headers, body: JSON.stringify(body) });
  expect(registered.status).toBe(201);
  const login = await fetch(`${server.baseUrl}/api/auth/login`, { method: 'POST', headers, body: JSON.stringify({ email, password: PASSWORD }) });
  return ((await login.json()) as { token: string }).token;
}

/** Writes an entry of another account every 100 ms (and asks for health) until stopped; collects the statuses. */
function writeEvery100ms(token: string) {
  const statuses: number[] = [];
  let stopped = false;
  let index = 0;
  const loop = (async () => {
    while (!stopped) {
      const start = Date.UTC(2026, 0, 1) + index * 2 * HOUR;
      index += 1;
      const write = fetch(`${server.baseUrl}/api/time-entries`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ start_at: new Date(start).toISOString(), end_at: new Date(start + HOUR).toISOString(), note: 'meanwhile' }),
      });
      const health = fetch(`${server.baseUrl}/api/health`);
      statuses.push((await write).status, (await health).status);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  })();
  return {
    statuses,
    stop: async () => {
      stopped = true;
      await loop;
    },
  };
}

beforeAll(async () => {
  db = tempDb();
  expect((await cli(db, ['migrate'])).exitCode).toBe(0);
  server = await startServer(db);
  const lines = ['start_at,end_at,note'];
  const first = FIRST_START;
  for (let i = 0; i < ROWS; i++) {
    const start = first + i * 5 * HOUR;
    lines.push(`${new Date(start).toISOString()},${new Date(start + 2 * HOUR).toISOString()},row ${i}`);
  }
  csvFile = path.join(path.dirname(db), 'big.csv');
  fs.writeFileSync(csvFile, `${lines.join('\n')}\n`);
});
afterAll(async () => {
  await server?.stop();
});

describe('a 20,000-row import beside a live server', () => {
  it('holds the write lock under a second and the server never answers 503', async () => {
    const writerToken = await signUp('writer@example.com');
    const importerToken = await signUp('importer@example.com');
    const writer = writeEvery100ms(writerToken);
    const dryRun = await cli(db, ['entries', 'import', '--quiet', '--user', 'importer@example.com', csvFile]);
    const applied = await cli(db, ['--json', '--verbose', 'entries', 'import', '--user', 'importer@example.com', csvFile, '--apply']);
    // A few more writes after the import: its commit must not stall the next ones either.
    await new Promise((resolve) => setTimeout(resolve, 500));
    await writer.stop();

    expect(dryRun.exitCode).toBe(0);
    expect(dryRun.stdout).toBe(`dry run: ${ROWS} entries would be imported for importer@example.com; add --apply to write them`);
    expect(applied.exitCode).toBe(0);
    const result = JSON.parse(String(applied.stdout)) as { applied: boolean; count: number; write_lock_ms: number };
    expect(result).toMatchObject({ applied: true, count: ROWS });
    const held = Number(/write lock held for (\d+) ms/.exec(String(applied.stderr))?.[1]);
    expect(held).toBe(result.write_lock_ms);
    expect(held).toBeLessThanOrEqual(1000);

    expect(writer.statuses.length).toBeGreaterThan(10);
    expect(writer.statuses.filter((status) => status === 503)).toEqual([]);
    expect(new Set(writer.statuses)).toEqual(new Set([201, 200]));

    // The per-day totals were written with the entries (the account's zone is UTC): the minutes of
    // the rows inside one week, counted here from the file's own rule.
    const weekStart = Date.UTC(2020, 5, 1);
    let expected = 0;
    for (let i = 0; i < ROWS; i++) {
      const start = FIRST_START + i * 5 * HOUR;
      expected += Math.max(0, Math.min(start + 2 * HOUR, weekStart + 7 * 24 * HOUR) - Math.max(start, weekStart)) / 60_000;
    }
    const stats = await fetch(`${server.baseUrl}/api/stats/week?date=2020-06-01`, { headers: { authorization: `Bearer ${importerToken}` } });
    const week = (await stats.json()) as { days: Array<{ worked_minutes: number }> };
    expect(expected).toBeGreaterThan(0);
    expect(week.days.reduce((sum, day) => sum + day.worked_minutes, 0)).toBe(expected);
  });
});
