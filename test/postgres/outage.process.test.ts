// PostgreSQL stopped and started again under two running `serve` processes: every request answers
// 503 DATABASE_UNAVAILABLE with Retry-After while it is down (never 500, never a dropped connection,
// never a crash), health says so, and both processes serve again on their own once it is back.
// The test runs its own throwaway server (scripts/postgres-test-server.sh), so that stopping it
// disturbs no other test.
import { execa } from 'execa';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../support/app.js';
import { PROJECT_ROOT } from '../support/cli.js';
import { bindPostgresDatabase, createMigratedPostgresDatabase, onPostgres } from '../support/database.js';
import { call as callServer, startServer, type RunningServer } from '../support/server.js';

const SCRIPT = path.join(PROJECT_ROOT, 'scripts/postgres-test-server.sh');
const PASSWORD = 'correct horse battery staple';
const clusterDir = makeTempDir('timetrack-pg-outage-');
// The server runs as the postgres user when the tests run as root: it must reach its folder.
fs.chmodSync(clusterDir, 0o755);
const running: RunningServer[] = [];

async function cluster(action: 'start' | 'stop'): Promise<string> {
  const { stdout } = await execa('bash', [SCRIPT, action, path.join(clusterDir, 'cluster')]);
  return stdout.trim();
}

afterAll(async () => {
  for (const server of running.splice(0)) await server.stop();
  await cluster('stop').catch(() => undefined);
  fs.rmSync(clusterDir, { recursive: true, force: true });
});

async function call(server: RunningServer, method: string, url: string, body?: unknown, token?: string) {
  // A refused connection of a process that died says how it ended and what it wrote (callServer).
  const answer = await callServer(server, method, url, body, token);
  return { status: answer.status, retryAfter: answer.headers.get('retry-after'), body: answer.text };
}

describe.skipIf(!onPostgres)('PostgreSQL stopped and started under two serve processes', () => {
  it('answers 503 with Retry-After on both while it is down, and both serve again without a restart', async () => {
    const url = await cluster('start');
    const dbPath = path.join(clusterDir, 'timetrack.db');
    bindPostgresDatabase(dbPath, url);
    const [a, b] = await Promise.all([startServer(dbPath, { DATABASE_CONNECT_TIMEOUT: '2s' }), startServer(dbPath, { DATABASE_CONNECT_TIMEOUT: '2s' })]);
    running.push(a, b);
    expect((await call(a, 'POST', '/api/auth/register', { email: 'ann@example.com', password: PASSWORD, full_name: 'Ann' })).status).toBe(201);
    const token = JSON.parse((await call(b, 'POST', '/api/auth/login', { email: 'ann@example.com', password: PASSWORD })).body).token as string;

    // Load on both processes through the outage: every answer is recorded; a dropped connection would reject.
    let loading = true;
    const statuses: number[] = [];
    const load = Promise.all(
      [a, b].map(async (server) => {
        while (loading) {
          statuses.push((await call(server, 'GET', '/api/auth/me', undefined, token)).status);
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 300));
    await cluster('stop');
    for (const server of [a, b]) {
      const me = await call(server, 'GET', '/api/auth/me', undefined, token);
      expect(me.status).toBe(503);
      expect(JSON.parse(me.body).code).toBe('DATABASE_UNAVAILABLE');
      expect(Number(me.retryAfter)).toBeGreaterThan(0);
      const write = await call(server, 'POST', '/api/time-entries/start', {}, token);
      expect(write.status).toBe(503);
      expect((await call(server, 'GET', '/api/health')).status).toBe(503);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
    await cluster('start');
    // Back on their own: the pools open new connections.
    const deadline = Date.now() + 15_000;
    for (const server of [a, b]) {
      let status = 0;
      while (status !== 200 && Date.now() < deadline) {
        status = (await call(server, 'GET', '/api/auth/me', undefined, token)).status;
        if (status !== 200) await new Promise((resolve) => setTimeout(resolve, 200));
      }
      expect(status).toBe(200);
      expect((await call(server, 'GET', '/api/health')).status).toBe(200);
    }
    loading = false;
    await load;
    expect(statuses.filter((status) => status !== 200 && status !== 503)).toEqual([]);
    expect(statuses).toContain(503);
    // Neither process died.
    for (const server of [a, b]) expect(server.process.exitCode).toBeNull();
  });
});

// What each backend does when the server stops (fast shutdown) is what pg_terminate_backend does:
// it ends the connection with FATAL 57P01. A periodic job holds two connections while it runs: the one
// with its advisory lock (src/db/postgres.ts, `exclusively`), idle until the round ends, and the one
// of its transaction. Here the housekeeping round waits on a table lock the test holds, so both are
// checked out of the pool when the backends are ended: the process stays up, the round is reported
// as an outage, and the next round runs on a new connection.
describe.skipIf(!onPostgres)('PostgreSQL ending the connections of a job that runs', () => {
  it('leaves serve running, and the next round runs', async () => {
    const url = await createMigratedPostgresDatabase();
    const dbPath = path.join(clusterDir, 'jobs.db');
    bindPostgresDatabase(dbPath, url);
    const server = await startServer(dbPath, { HOUSEKEEPING_INTERVAL: '1s', DATABASE_LOCK_TIMEOUT: '60s', LOG_LEVEL: 'debug' });
    running.push(server);
    // One connection holds the table lock; another looks (outside that transaction, whose view of pg_stat_activity would stay as it first saw it).
    const [blocker, observer] = [new pg.Client({ connectionString: url }), new pg.Client({ connectionString: url })];
    await Promise.all([blocker.connect(), observer.connect()]);
    try {
      const database = new URL(url).pathname.slice(1);
      const count = async (text: string) => Number((await observer.query<{ n: string }>(text, [database])).rows[0]?.n);
      await blocker.query('begin');
      await blocker.query('lock table auth_tokens in access exclusive mode');
      // The round holds its advisory lock and its transaction waits for the table.
      await expect
        .poll(
          async () =>
            Math.min(
              await count(
                `select count(*) as n from pg_locks l join pg_stat_activity a using (pid) where l.locktype = 'advisory' and l.granted and a.datname = $1`,
              ),
              await count(`select count(*) as n from pg_stat_activity where datname = $1 and application_name = 'timetrack' and wait_event_type = 'Lock'`),
            ),
          { timeout: 15_000 },
        )
        .toBe(1);
      const endedAt = server.output().length;
      await observer.query(`select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and application_name = 'timetrack'`, [database]);
      await blocker.query('rollback');
      // The round that was cut off is an outage, not a crash; a later round takes the lock and does the work.
      await expect.poll(() => server.output().slice(endedAt), { timeout: 15_000 }).toMatch(/"deleted":\{"sessions":\d+.*"msg":"housekeeping done"/);
      expect(server.output().slice(endedAt)).toMatch(/"msg":"database unavailable: /);
      expect(server.output()).not.toMatch(/Unhandled 'error' event|"msg":"housekeeping failed"/);
      expect((await call(server, 'GET', '/api/health')).status).toBe(200);
      expect(await server.died()).toBeUndefined();
      expect(server.process.exitCode).toBeNull();
    } finally {
      await Promise.all([blocker.end(), observer.end()]);
    }
  });
});
