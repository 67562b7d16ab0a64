// Readiness while migrations run: a starting `serve` answers on its address at once, /api/ready and
// /api/health 503 with the reason, every other request 503 DATABASE_UNAVAILABLE with Retry-After,
// until the schema is this build's; then the real server takes the address over. On PostgreSQL a
// second process waits for the advisory lock of another that migrates: the test holds that lock
// (Kysely's migration lock) from a connection of its own, so the wait lasts as long as the test
// wants. SQLite migrates within one process and holds nothing another could: PostgreSQL only.
import { execa } from 'execa';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { BIN, cleanEnv } from '../support/cli.js';
import { createPostgresDatabase, onPostgres, POSTGRES_SKIP_REASON, TEST_JWT_SECRET } from '../support/database.js';
import { freePort } from '../support/server.js';

/** Kysely's migration lock on PostgreSQL (its PostgresAdapter): the lock `timetrack migrate` and `serve` wait for. */
const MIGRATION_LOCK_ID = '3853314791062309107';

if (!onPostgres) console.log(`Readiness-while-migrating test skipped: ${POSTGRES_SKIP_REASON}`);

describe.runIf(onPostgres)('readiness while migrations run (PostgreSQL)', () => {
  it('answers 503 on /api/ready, /api/health and every route while waiting for another migration, then 200 once migrated', async () => {
    const url = createPostgresDatabase('ready');
    const holder = new pg.Client({ connectionString: url });
    await holder.connect();
    await holder.query(`select pg_advisory_lock(${MIGRATION_LOCK_ID})`);
    const port = await freePort();
    const server = execa('node', [BIN, '--database-url', url, 'serve', '--port', String(port)], {
      env: cleanEnv({ JWT_SECRET: TEST_JWT_SECRET, LOG_LEVEL: 'info' }),
      extendEnv: false,
      reject: false,
      all: true,
    });
    let output = '';
    server.all?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const baseUrl = `http://127.0.0.1:${port}`;
    try {
      // The address answers while the migration lock is held elsewhere.
      await expect
        .poll(
          () =>
            fetch(`${baseUrl}/api/ready`).then(
              (response) => response.status,
              () => 0,
            ),
          { timeout: 20_000, interval: 100 },
        )
        .toBe(503);
      const ready = await fetch(`${baseUrl}/api/ready`);
      expect(await ready.json()).toEqual({
        status: 'unavailable',
        reason: 'starting: the database schema is being migrated',
        version: expect.any(String),
        commit: expect.any(String),
        engine: 'postgres',
      });
      expect((await fetch(`${baseUrl}/api/health`)).status).toBe(503);
      const route = await fetch(`${baseUrl}/api/auth/me`);
      expect(route.status).toBe(503);
      expect(route.headers.get('retry-after')).toBe('5');
      expect(((await route.json()) as { error: { code: string } }).error.code).toBe('DATABASE_UNAVAILABLE');
      // Still waiting: no migration applied, the real server not listening.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect((await fetch(`${baseUrl}/api/ready`)).status).toBe(503);
      expect(output).not.toContain('Server listening');
      expect(output).not.toContain('migration applied');

      // The other "migration" ends: this process migrates, and the real server answers on the same address.
      await holder.query(`select pg_advisory_unlock(${MIGRATION_LOCK_ID})`);
      await expect.poll(() => output.includes('Server listening'), { timeout: 30_000, interval: 100 }).toBe(true);
      expect(output).toContain('migration applied');
      const nowReady = await fetch(`${baseUrl}/api/ready`);
      expect(nowReady.status).toBe(200);
      expect(await nowReady.json()).toMatchObject({ status: 'ok', engine: 'postgres' });
      expect((await fetch(`${baseUrl}/api/auth/me`)).status).toBe(401);
    } finally {
      await holder.end().catch(() => undefined);
      server.kill('SIGTERM');
      await server;
    }
  });
});
