// Admin commands on PostgreSQL through the built binary: the engine and the masked URL in `config`,
// backups with pg_dump and a restore that names the pg_restore command, and a reset link used once
// however many processes it is sent to.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir } from '../support/app.js';
import { BIN, cleanEnv, runCli } from '../support/cli.js';
import { bindPostgresDatabase, createPostgresDatabase, onPostgres, TEST_DATABASE_URL, TEST_JWT_SECRET } from '../support/database.js';
import { startServer, type RunningServer } from '../support/server.js';
import { execa } from 'execa';

const PASSWORD = 'correct horse battery staple';
const running: RunningServer[] = [];
afterEach(async () => {
  for (const server of running.splice(0)) await server.stop();
});

/** The password of the test server's URL: it must never be printed. */
const serverPassword = () => decodeURIComponent(new URL(TEST_DATABASE_URL!).password);

describe.skipIf(!onPostgres)('admin commands on PostgreSQL', () => {
  it('config shows the engine and the URL with its password masked; the start-up line says postgres', async () => {
    const url = createPostgresDatabase();
    const result = await execa('node', [BIN, '--database-url', url, 'config'], {
      env: cleanEnv({ JWT_SECRET: TEST_JWT_SECRET }),
      extendEnv: false,
      reject: false,
    });
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toMatch(/^DATABASE_URL\s+postgres:\/\/timetrack:\*{4}@127\.0\.0\.1:\d+\/tt_\w+\s+option$/m);
    expect(result.stdout).toMatch(/^TIMETRACK_DB\s+- \(PostgreSQL: DATABASE_URL\)/m);
    expect(result.stdout).not.toContain(serverPassword());
    const dbPath = path.join(makeTempDir(), 'timetrack.db');
    bindPostgresDatabase(dbPath, url);
    const server = await startServer(dbPath);
    running.push(server);
    while (!server.output().includes('timetrack started')) await new Promise((resolve) => setTimeout(resolve, 20));
    const started = server
      .output()
      .split('\n')
      .find((line) => line.includes('timetrack started'))!;
    expect(JSON.parse(started)).toMatchObject({ engine: 'postgres' });
    expect(server.output()).not.toContain(serverPassword());
  });

  it('backup runs pg_dump into a new 0600 file; restore refuses and names the pg_restore command, without the password', async () => {
    const dbPath = path.join(makeTempDir(), 'timetrack.db');
    expect((await runCli(['--db', dbPath, 'migrate'])).exitCode).toBe(0);
    const file = path.join(makeTempDir(), 'backup.dump');
    const backup = await runCli(['--db', dbPath, 'backup', file]);
    expect(backup.stderr).toBe('');
    expect(backup.exitCode).toBe(0);
    expect(fs.readFileSync(file).subarray(0, 5).toString()).toBe('PGDMP');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect((await runCli(['--db', dbPath, 'backup', file])).stderr).toMatch(/exists already/);
    const restore = await runCli(['--db', dbPath, 'restore', file]);
    expect(restore.exitCode).toBe(1);
    expect(restore.stderr).toMatch(/pg_restore --clean --if-exists --no-owner --single-transaction --dbname/);
    expect(`${restore.stderr}${backup.stdout}`).not.toContain(serverPassword());
    // The printed command works as printed, the password given the way the sentence names.
    expect(restore.stderr).toContain('with the password in PGPASSWORD or ~/.pgpass');
    const stderr = String(restore.stderr);
    const command = stderr.slice(stderr.indexOf(': pg_restore ') + 2).trim();
    const restored = await execa('sh', ['-c', command], {
      reject: false,
      stdin: 'ignore',
      timeout: 20_000,
      extendEnv: false,
      env: cleanEnv({ PGPASSWORD: serverPassword() }),
    });
    expect(restored.stderr).toBe('');
    expect(restored.exitCode).toBe(0);
  });

  it('check reads every table and the migrations; a server that cannot be reached is one line and exit 4', async () => {
    const dbPath = path.join(makeTempDir(), 'timetrack.db');
    expect((await runCli(['--db', dbPath, 'migrate'])).exitCode).toBe(0);
    const check = await runCli(['--db', dbPath, 'check']);
    expect(check.stderr).toBe('');
    expect(check.exitCode).toBe(0);
    expect(check.stdout).toMatch(/^ok\s+integrity: every table readable$/m);
    expect(check.stdout).toMatch(/^ok\s+migrations: \d+ applied$/m);
    // A port nothing listens on.
    const closed = new URL(TEST_DATABASE_URL!);
    closed.port = '1';
    const unreachable = await execa('node', [BIN, '--database-url', closed.toString(), 'user', 'list'], {
      env: cleanEnv({ JWT_SECRET: TEST_JWT_SECRET }),
      extendEnv: false,
      reject: false,
    });
    expect(unreachable.exitCode).toBe(4);
    expect(unreachable.stderr.trim().split('\n')).toHaveLength(1);
    expect(unreachable.stderr).toMatch(/^timetrack: the database cannot be reached/);
    expect(unreachable.stderr).not.toContain(serverPassword());
  });

  it('a reset link sent in parallel to two processes sets the password once', async () => {
    const dbPath = path.join(makeTempDir(), 'timetrack.db');
    bindPostgresDatabase(dbPath, createPostgresDatabase());
    const [a, b] = await Promise.all([startServer(dbPath), startServer(dbPath)]);
    running.push(a, b);
    const post = async (server: RunningServer, url: string, body: unknown) => {
      const response = await fetch(`${server.baseUrl}${url}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: response.status, body: (await response.json()) as { code?: string } };
    };
    expect((await post(a, '/api/auth/register', { email: 'ann@example.com', password: PASSWORD, full_name: 'Ann' })).status).toBe(201);
    const issued = await runCli(['--db', dbPath, '--json', 'reset', 'issue', 'ann@example.com']);
    expect(issued.exitCode).toBe(0);
    const token = (JSON.parse(String(issued.stdout)) as { reset_token: string }).reset_token;
    const uses = await Promise.all(
      Array.from({ length: 8 }, (_, i) => post(i % 2 === 0 ? a : b, '/api/auth/reset-password', { token, new_password: `new passphrase number ${i}` })),
    );
    expect(uses.filter((use) => use.status === 200)).toHaveLength(1);
    expect(uses.filter((use) => use.status !== 200).map((use) => use.body.code)).toEqual(Array(7).fill('INVALID_RESET_TOKEN'));
  });
});
