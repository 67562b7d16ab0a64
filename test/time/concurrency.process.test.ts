// The single-running and overlap rules hold under parallel requests across two real `timetrack serve`
// processes on the same PostgreSQL database (real sockets); in one process: concurrency.test.ts.
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { account, makeTempDir, PASSWORD } from '../support/app.js';
import { startServer, type RunningServer } from '../support/server.js';
import { onPostgres } from '../support/database.js';
import { countBy } from './concurrency-answers.js';

// Several serve processes share only a PostgreSQL database: a SQLite file has one server (flock, test/deploy/server-lock.process.test.ts).
describe.runIf(onPostgres)('parallel requests across two server processes (several servers: PostgreSQL only)', () => {
  let dir: string;
  let first: RunningServer;
  let second: RunningServer;
  let token: string;

  beforeAll(async () => {
    dir = makeTempDir();
    const dbPath = path.join(dir, 'timetrack.db');
    first = await startServer(dbPath);
    second = await startServer(dbPath);
    const body = account();
    const registered = await fetch(`${first.baseUrl}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    expect(registered.status).toBe(201);
    const login = await fetch(`${second.baseUrl}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: body.email, password: PASSWORD }),
    });
    token = ((await login.json()) as { token: string }).token;
  });

  afterAll(async () => {
    await first?.stop();
    await second?.stop();
  });

  async function fire(requests: Array<{ path: string; body?: unknown }>): Promise<Record<string, number>> {
    const results = await Promise.all(
      requests.map(async (request, index) => {
        const base = index % 2 === 0 ? first.baseUrl : second.baseUrl;
        const response = await fetch(`${base}${request.path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, ...(request.body ? { 'content-type': 'application/json' } : {}) },
          ...(request.body ? { body: JSON.stringify(request.body) } : {}),
        });
        const json = (await response.json()) as { code?: string };
        return [response.status, json.code] as [number, string | undefined];
      }),
    );
    return countBy(results);
  }

  it('parallel POST /start: exactly one 201, the rest 409 ALREADY_RUNNING', async () => {
    expect(await fire(Array.from({ length: 16 }, () => ({ path: '/api/time-entries/start' })))).toEqual({ '201': 1, '409 ALREADY_RUNNING': 15 });
    const stop = await fetch(`${first.baseUrl}/api/time-entries/stop`, { method: 'POST', headers: { authorization: `Bearer ${token}` } });
    expect(stop.status).toBe(200);
  });

  it('parallel overlapping creates: one wins, the rest 409 OVERLAP', async () => {
    // Sixteen one-hour entries, each shifted by a minute: every pair overlaps.
    const requests = Array.from({ length: 16 }, (_, i) => ({
      path: '/api/time-entries',
      body: { start_at: new Date(Date.UTC(2025, 5, 2, 8, i)).toISOString(), end_at: new Date(Date.UTC(2025, 5, 2, 9, i)).toISOString() },
    }));
    expect(await fire(requests)).toEqual({ '201': 1, '409 OVERLAP': 15 });
    const list = await fetch(`${second.baseUrl}/api/time-entries?from=2025-06-02&to=2025-06-03`, { headers: { authorization: `Bearer ${token}` } });
    expect(((await list.json()) as { entries: unknown[] }).entries).toHaveLength(1);
  });
});
