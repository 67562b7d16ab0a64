// On PostgreSQL an older `serve` never writes into a schema it does not know (docs/operations.md,
// "Several processes on PostgreSQL"). A real `serve` of this build meets a newer version through the
// process registry: a row planted with a newer `last_migration` stands for a newer process about to
// migrate, a recorded migration this build does not know for one that has. And a new `serve` waits,
// before it migrates, until a process of an older version (a planted row) stopped writing.
import { execa } from 'execa';
import { describe, expect, it } from 'vitest';
import { PASSWORD } from '../support/app.js';
import { BIN, cleanEnv } from '../support/cli.js';
import { tempDb } from '../support/cli-accounts.js';
import { onPostgres, POSTGRES_SKIP_REASON, postgresDatabaseFor, queryRows, TEST_JWT_SECRET } from '../support/database.js';
import { callJson, freePort, startServer, type RunningServer } from '../support/server.js';
import { appliedMigrations, TAKEN_BACK, takeBackMigrations } from '../support/taken-back-migrations.js';

if (!onPostgres) console.log(`Process registry tests skipped: ${POSTGRES_SKIP_REASON}`);

const NEWER = '29990101000000_a_newer_version';

async function signedIn(server: RunningServer): Promise<string> {
  expect((await callJson(server, 'POST', '/api/auth/register', { email: 'ann@example.com', password: PASSWORD, full_name: 'Ann' })).status).toBe(201);
  return (await callJson(server, 'POST', '/api/auth/login', { email: 'ann@example.com', password: PASSWORD })).body.token as string;
}

let day = 0;
/** POST of an entry on a day of its own; the status and the Retry-After header. */
async function writeEntry(server: RunningServer, token: string): Promise<{ status: number; retryAfter: string | null; code?: string }> {
  day += 1;
  const date = new Date(Date.UTC(2026, 0, 1) + day * 86_400_000).toISOString().slice(0, 10);
  const response = await fetch(`${server.baseUrl}/api/time-entries`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify({ start_at: `${date}T08:00:00Z`, end_at: `${date}T09:00:00Z` }),
  });
  const body = (await response.json()) as { code?: string };
  return { status: response.status, retryAfter: response.headers.get('retry-after'), code: body.code };
}

async function health(server: RunningServer): Promise<{ status: number; body: { status: string; reason?: string } }> {
  return callJson(server, 'GET', '/api/health');
}

describe.runIf(onPostgres)('older processes stop writing when a newer version takes over (PostgreSQL)', () => {
  it('a newer version announced: every request 503 with Retry-After, health says why, its row says it stopped; gone again: writes resume; migrated: 503 for good', async () => {
    const db = tempDb();
    const server = await startServer(db);
    try {
      const token = await signedIn(server);
      expect((await writeEntry(server, token)).status).toBe(201);
      await expect.poll(async () => (await queryRows(db, 'select writing from server_processes')).map((row) => row.writing)).toEqual([1]);

      await queryRows(
        db,
        `insert into server_processes (id, version, last_migration, pid, host, writing, started_at, heartbeat_at) values ('newer', '9.9.9', '${NEWER}', 4243, 'web-2', 0, now(), now())`,
      );
      await expect.poll(async () => (await health(server)).status, { timeout: 12_000, interval: 200 }).toBe(503);
      expect((await health(server)).body).toMatchObject({
        status: 'unavailable',
        reason: expect.stringContaining('version 9.9.9 (pid 4243 on web-2) is about to migrate the database; this process') as unknown,
      });
      expect((await callJson(server, 'GET', '/api/ready')).status).toBe(503);
      expect(await writeEntry(server, token)).toEqual({ status: 503, retryAfter: '5', code: 'DATABASE_UNAVAILABLE' });
      expect((await callJson(server, 'GET', '/api/time-entries?from=2026-01-01&to=2026-02-01', undefined, token)).status).toBe(503);
      const rows = await queryRows<{ id: string; writing: number }>(db, "select id, writing from server_processes where id <> 'newer'");
      expect(rows.map((row) => row.writing)).toEqual([0]);

      // The newer process went away without migrating (a failed start): this one writes again.
      await queryRows(db, "delete from server_processes where id = 'newer'");
      await expect.poll(async () => (await health(server)).status, { timeout: 12_000, interval: 200 }).toBe(200);
      expect((await writeEntry(server, token)).status).toBe(201);

      // A newer version migrated: for good.
      await queryRows(db, `insert into kysely_migration (name, timestamp) values ('${NEWER}', '2999-01-01T00:00:00.000Z')`);
      await expect.poll(async () => (await health(server)).status, { timeout: 12_000, interval: 200 }).toBe(503);
      expect((await health(server)).body.reason).toContain('a newer version migrated the database; this process');
      expect((await writeEntry(server, token)).status).toBe(503);
      expect(server.output()).toContain('stopped writing: every request now answers 503');
    } finally {
      await server.stop();
    }
    // Withdrawn at shutdown.
    expect(await queryRows(db, 'select id from server_processes')).toEqual([]);
  });

  it('a new serve announces itself and waits, answering 503, until the processes of an older version stopped writing; then it migrates', async () => {
    const db = tempDb();
    await takeBackMigrations(db);
    await queryRows(
      db,
      "insert into server_processes (id, version, last_migration, pid, host, writing, started_at, heartbeat_at) values ('older', '0.2.9', '20261126170500_zone_history', 4242, 'web-1', 1, now(), now())",
    );
    const port = await freePort();
    const server = execa('node', [BIN, '--database-url', postgresDatabaseFor(db), 'serve', '--port', String(port)], {
      env: cleanEnv({ JWT_SECRET: TEST_JWT_SECRET, LOG_LEVEL: 'info' }),
      extendEnv: false,
      reject: false,
      all: true,
    });
    let output = '';
    server.all?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const baseUrl = `http://127.0.0.1:${port}`;
    try {
      await expect.poll(() => output.includes('waiting for the processes of an older version to stop writing'), { timeout: 20_000 }).toBe(true);
      expect(output).toContain('0.2.9 (pid 4242 on web-1)');
      // Announced (the older one reads this row and stops writing), not writing yet, and not migrating.
      const announced = await queryRows<{ last_migration: string; writing: number }>(
        db,
        "select last_migration, writing from server_processes where id <> 'older'",
      );
      expect(announced).toEqual([{ last_migration: expect.any(String) as unknown, writing: 0 }]);
      expect(announced[0]!.last_migration >= TAKEN_BACK).toBe(true);
      await new Promise((resolve) => setTimeout(resolve, 2_000));
      expect((await fetch(`${baseUrl}/api/ready`)).status).toBe(503);
      expect(await appliedMigrations(db)).not.toContain(TAKEN_BACK);

      // The older process stopped writing (as it does within a heartbeat of seeing the announcement).
      await queryRows(db, "update server_processes set writing = 0, heartbeat_at = now() where id = 'older'");
      await expect.poll(() => output.includes('Server listening'), { timeout: 30_000, interval: 100 }).toBe(true);
      expect(await appliedMigrations(db)).toContain(TAKEN_BACK);
      expect((await fetch(`${baseUrl}/api/ready`)).status).toBe(200);
    } finally {
      server.kill('SIGTERM');
      await server;
    }
  });
});
