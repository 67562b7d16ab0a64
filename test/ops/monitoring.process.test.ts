// Monitoring a real `serve`: /api/health and /api/ready (version, commit, engine; 503 on a damaged
// database, found by the periodic integrity check), Prometheus metrics on their own listen address,
// 404 (not the client's HTML) on monitoring and admin paths, and the warning when requests carry
// X-Forwarded-For while TRUST_PROXY is off.
import fs from 'node:fs';
import net from 'node:net';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { PASSWORD } from '../support/app.js';
import { createAccountWithCli, tempDb } from '../support/cli-accounts.js';
import { runCli } from '../support/cli.js';
import { onPostgres } from '../support/database.js';
import { freePort, startServer } from '../support/server.js';

const manifest = JSON.parse(fs.readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };

async function login(baseUrl: string, email: string, password: string, headers: Record<string, string> = {}): Promise<number> {
  const response = await fetch(`${baseUrl}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify({ email, password }),
  });
  return response.status;
}

describe('monitoring a real server', () => {
  it('health and ready name version, commit and engine; metrics on METRICS_LISTEN only; monitoring and admin paths answer 404', async () => {
    const db = tempDb();
    await createAccountWithCli(db, 'ann@example.com');
    const metricsPort = await freePort();
    const server = await startServer(db, { METRICS_LISTEN: `127.0.0.1:${metricsPort}`, LOCKOUT_ATTEMPTS: '2' });
    try {
      const about = {
        version: manifest.version,
        commit: expect.stringMatching(/^([0-9a-f]{12}(\+dirty)?|unknown)$/),
        engine: onPostgres ? 'postgres' : 'sqlite',
      };
      const health = await fetch(`${server.baseUrl}/api/health`);
      expect({ status: health.status, body: await health.json() }).toEqual({ status: 200, body: { status: 'ok', ...about } });
      const ready = await fetch(`${server.baseUrl}/api/ready`);
      expect({ status: ready.status, body: await ready.json() }).toEqual({ status: 200, body: { status: 'ok', ...about } });

      expect(await login(server.baseUrl, 'ann@example.com', PASSWORD)).toBe(200);
      expect(await login(server.baseUrl, 'ann@example.com', 'wrong password 1')).toBe(401);
      expect(await login(server.baseUrl, 'ann@example.com', 'wrong password 2')).toBe(423);
      expect(await login(server.baseUrl, 'ann@example.com', 'wrong password 3')).toBe(423);

      const scrape = await fetch(`http://127.0.0.1:${metricsPort}/metrics`);
      expect(scrape.status).toBe(200);
      expect(scrape.headers.get('content-type')).toMatch(/^text\/plain/);
      const text = await scrape.text();
      expect(text).toMatch(/^timetrack_http_requests_total\{method="POST",route="\/api\/auth\/login",status="423"\} 2$/m);
      expect(text).toMatch(/^timetrack_http_requests_total\{method="GET",route="\/api\/health",status="200"\} 1$/m);
      expect(text).toMatch(/^timetrack_http_request_duration_seconds_bucket\{le="\+Inf",method="POST",route="\/api\/auth\/login"\} 4$/m);
      expect(text).toMatch(/^timetrack_logins_total\{outcome="success"\} 1$/m);
      expect(text).toMatch(/^timetrack_logins_total\{outcome="failed"\} 1$/m);
      expect(text).toMatch(/^timetrack_logins_total\{outcome="locked"\} 2$/m);
      expect(text).toMatch(/^timetrack_login_lockouts_total 2$/m);
      expect(text).toMatch(/^timetrack_database_errors_total 0$/m);
      expect(text).toMatch(
        new RegExp(`^timetrack_build_info\\{version="${manifest.version.replaceAll('.', '\\.')}",commit="([0-9a-f]{12}(\\+dirty)?|unknown)"\\} 1$`, 'm'),
      );
      expect(text).toMatch(/^timetrack_process_resident_memory_bytes \d+/m);
      expect((await fetch(`http://127.0.0.1:${metricsPort}/`)).status).toBe(404);

      for (const path of ['/metrics', '/healthz', '/readyz', '/admin', '/admin/users', '/status', '/server-status', '/.env']) {
        const response = await fetch(`${server.baseUrl}${path}`);
        expect(response.status, path).toBe(404);
        expect(response.headers.get('content-type'), path).toMatch(/^application\/json/);
      }
      // Client routes still answer the HTML.
      expect((await fetch(`${server.baseUrl}/settings`)).headers.get('content-type')).toMatch(/^text\/html/);
    } finally {
      await server.stop();
    }
  });

  it('warns once when requests carry X-Forwarded-For while TRUST_PROXY is off, never with it set', async () => {
    const db = tempDb();
    const server = await startServer(db);
    try {
      for (let i = 0; i < 3; i++) await fetch(`${server.baseUrl}/api/health`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
      await expect.poll(() => server.output()).toMatch(/X-Forwarded-For but TRUST_PROXY is off/);
      expect(server.output().match(/X-Forwarded-For but TRUST_PROXY is off/g)).toHaveLength(1);
    } finally {
      await server.stop();
    }
    const trusted = await startServer(db, { TRUST_PROXY: '127.0.0.1' });
    try {
      await fetch(`${trusted.baseUrl}/api/health`, { headers: { 'x-forwarded-for': '203.0.113.9' } });
    } finally {
      await trusted.stop();
    }
    expect(trusted.output()).not.toMatch(/X-Forwarded-For but TRUST_PROXY is off/);
  });
});

describe('a process that cannot take every address it was given', () => {
  // Two processes started from the same env file share METRICS_LISTEN. On PostgreSQL the first is a
  // real serve; on SQLite the single-server lock would stop a second serve first, so a socket holds
  // the port. The second process must end at once, say which setting, and leave the API port free.
  it('ends non-zero naming METRICS_LISTEN, with the API port never taken', async () => {
    const db = tempDb();
    await createAccountWithCli(db, 'ann@example.com');
    const metricsPort = await freePort();
    const metricsListen = `127.0.0.1:${metricsPort}`;
    let holder: { close(): Promise<unknown> };
    if (onPostgres) {
      const first = await startServer(db, { METRICS_LISTEN: metricsListen });
      holder = { close: () => first.stop() };
    } else {
      const socket = net.createServer();
      await new Promise<void>((resolve) => socket.listen(metricsPort, '127.0.0.1', resolve));
      holder = { close: () => new Promise((resolve) => socket.close(resolve)) };
    }
    try {
      const apiPort = await freePort();
      const second = await runCli(['serve', '--db', db, '--port', String(apiPort)], { env: { METRICS_LISTEN: metricsListen } });
      expect(second.exitCode).toBe(1);
      expect(String(second.stderr)).toContain(`METRICS_LISTEN: port ${metricsPort} on 127.0.0.1 is already in use`);
      const apiAnswers = await fetch(`http://127.0.0.1:${apiPort}/api/health`).then(
        () => true,
        () => false,
      );
      expect(apiAnswers).toBe(false);
    } finally {
      await holder.close();
    }
  });
});

describe.skipIf(onPostgres)('health of a damaged SQLite file (file damage: SQLite only)', () => {
  it('health and ready answer 503 once the integrity check finds a damaged page; ready answers 503 while a migration is missing', async () => {
    const db = tempDb();
    for (const email of ['a@example.com', 'b@example.com']) await createAccountWithCli(db, email);
    const healthyServer = await startServer(db);
    try {
      expect((await fetch(`${healthyServer.baseUrl}/api/ready`)).status).toBe(200);
      const sqlite = new Database(db);
      const row = sqlite.prepare("select name, timestamp from kysely_migration where name = '008_username_lookup_by_lower'").get() as {
        name: string;
        timestamp: string;
      };
      sqlite.prepare('delete from kysely_migration where name = ?').run(row.name);
      sqlite.close();
      await expect.poll(async () => (await fetch(`${healthyServer.baseUrl}/api/ready`)).status, { timeout: 15_000, interval: 100 }).toBe(503);
      const body = (await (await fetch(`${healthyServer.baseUrl}/api/ready`)).json()) as { reason: string };
      expect(body.reason).toMatch(/schema is not this version's/);
      expect((await fetch(`${healthyServer.baseUrl}/api/health`)).status).toBe(200);
      const again = new Database(db);
      again.prepare('insert into kysely_migration (name, timestamp) values (?, ?)').run(row.name, row.timestamp);
      again.close();
    } finally {
      await healthyServer.stop();
    }

    // Damage the page of the e-mail index: reads of the schema still work, quick_check does not.
    const sqlite = new Database(db);
    const { pageno } = sqlite.prepare("select pageno from dbstat where name = 'sqlite_autoindex_users_1'").get() as { pageno: number };
    const pageSize = sqlite.pragma('page_size', { simple: true }) as number;
    sqlite.pragma('wal_checkpoint(TRUNCATE)');
    sqlite.close();
    const fd = fs.openSync(db, 'r+');
    fs.writeSync(fd, Buffer.from([0x0d, 0xff, 0xff, 0xff, 0xff]), 0, 5, (pageno - 1) * pageSize);
    fs.closeSync(fd);

    const server = await startServer(db, { INTEGRITY_CHECK_INTERVAL: '1s' });
    try {
      await expect.poll(async () => (await fetch(`${server.baseUrl}/api/health`)).status, { timeout: 15_000, interval: 100 }).toBe(503);
      const answer = (await (await fetch(`${server.baseUrl}/api/health`)).json()) as { status: string; reason: string };
      expect(answer).toMatchObject({ status: 'unavailable', reason: 'database integrity check failed' });
      expect(server.output()).toMatch(/database integrity check failed/);
    } finally {
      await server.stop();
    }
  });
});
