// A storage failure is an outage with its cause (docs/operations.md, "Storage failures"): on a real
// full filesystem (a tmpfs the test mounts: root only) and a PostgreSQL that refuses writes, a real `serve` answers
// every write 503 DATABASE_UNAVAILABLE with Retry-After, health and ready turn 503, and the log says
// once what the driver said ("database or disk is full"), never a failed ROLLBACK in its place.
// The outage log's own rhythm (a line a minute per kind, one when it ends): at the end of this file.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createOutageLog } from '../../src/http/outage-log.js';
import { PASSWORD } from '../support/app.js';
import { cli, createAccountWithCli, tempDb } from '../support/cli-accounts.js';
import { onPostgres, postgresDatabaseFor, psql } from '../support/database.js';
import { request } from '../support/requests.js';
import { startServer, type RunningServer } from '../support/server.js';

const isRoot = process.getuid?.() === 0;
let mounted: string | undefined;
let server: RunningServer | undefined;

afterEach(async () => {
  await server?.stop();
  server = undefined;
  if (mounted) execFileSync('umount', [mounted]);
  mounted = undefined;
});

/** A small tmpfs of its own, with a migrated database and one account on it. */
async function smallFilesystem(): Promise<{ folder: string; db: string }> {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'timetrack-small-fs-'));
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=3m,mode=0700', 'tmpfs', folder]);
  mounted = folder;
  const db = path.join(folder, 'timetrack.db');
  await cli(db, ['migrate']);
  await createAccountWithCli(db, 'ann@example.com');
  return { folder, db };
}

function fillUp(folder: string): void {
  const chunk = Buffer.alloc(64 * 1024);
  const fd = fs.openSync(path.join(folder, 'filler'), 'w');
  try {
    for (;;) fs.writeSync(fd, chunk);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error;
  } finally {
    fs.closeSync(fd);
  }
}

async function signIn(target: RunningServer): Promise<string> {
  const response = await request(target, 'POST', '/api/auth/login', { payload: { email: 'ann@example.com', password: PASSWORD } });
  expect(response.statusCode).toBe(200);
  return (response.json() as { token: string }).token;
}

async function expectOutage(target: RunningServer, token: string): Promise<void> {
  for (let i = 0; i < 5; i++) {
    const write = await request(target, 'PATCH', '/api/settings', { token, payload: { overtime_offset_minutes: 60 + i } });
    expect(write.statusCode).toBe(503);
    expect(write.headers['retry-after']).toBe('5');
    expect((write.json() as { code: string }).code).toBe('DATABASE_UNAVAILABLE');
  }
  const login = await request(target, 'POST', '/api/auth/login', { payload: { email: 'ann@example.com', password: PASSWORD } });
  expect(login.statusCode).toBe(503);
  expect((await request(target, 'GET', '/api/health')).statusCode).toBe(503);
  expect((await request(target, 'GET', '/api/ready')).statusCode).toBe(503);
  // Reads that need no write still answer.
  expect((await request(target, 'GET', '/api/settings', { token })).statusCode).toBe(200);
}

describe.skipIf(onPostgres || !isRoot)('SQLite on a real filesystem that fails (root: the test mounts a tmpfs; SQLite only)', () => {
  it("a full disk: 503 with Retry-After for every write and sign-in, health and ready 503, one log line in the driver's words", async () => {
    const { folder, db } = await smallFilesystem();
    server = await startServer(db);
    const token = await signIn(server);
    fillUp(folder);
    await expectOutage(server, token);
    const log = server.output();
    expect(log.match(/database unavailable: database or disk is full/g)).toHaveLength(1);
    expect(log).not.toMatch(/cannot rollback|INTERNAL_ERROR|"stack"/);
  });
});

// A filesystem that turns read-only under a running server (ext4's errors=remount-ro) cannot be made
// here: a mount with files open for writing refuses to be remounted read-only, and this kernel has no
// device-mapper to fail a disk. SQLite's read-only answer (SQLITE_READONLY) is shown in process by
// test/adversarial/database-faults.test.ts; PostgreSQL's below, on a real server.
describe.skipIf(!onPostgres)('PostgreSQL that refuses writes (default_transaction_read_only; PostgreSQL only)', () => {
  it("503 with Retry-After for every write and sign-in, health and ready 503, one log line in the server's words", async () => {
    const db = tempDb();
    await createAccountWithCli(db, 'ann@example.com');
    server = await startServer(db);
    const token = await signIn(server);
    const url = postgresDatabaseFor(db);
    const name = new URL(url).pathname.slice(1);
    // New sessions of that database start read-only; the server's open ones are ended, so its pool reconnects.
    psql(`alter database "${name}" set default_transaction_read_only = on`);
    psql(`select pg_terminate_backend(pid) from pg_stat_activity where datname = '${name}' and pid <> pg_backend_pid()`);
    try {
      await expectOutage(server, token);
      expect(server.output().match(/database unavailable: cannot execute [A-Z ]+ in a read-only transaction/g)).toHaveLength(1);
      expect(server.output()).not.toMatch(/INTERNAL_ERROR|"stack"/);
    } finally {
      psql(`alter database "${name}" set default_transaction_read_only = off`);
    }
  });
});

describe('the outage log', () => {
  it('one line when an outage starts, one per kind per period while it lasts, one when it ends', async () => {
    const lines: { level: string; msg: string; about: Record<string, unknown> }[] = [];
    const logger = {
      error: (about: Record<string, unknown>, msg: string) => lines.push({ level: 'error', msg, about }),
      info: (about: Record<string, unknown>, msg: string) => lines.push({ level: 'info', msg, about }),
    };
    let healthy = false;
    const outages = createOutageLog(logger as never, () => Promise.resolve(healthy), { repeatMs: 200, checkMs: 50 });
    const full = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    const io = Object.assign(new Error('disk I/O error'), { code: 'SQLITE_IOERR' });
    for (let i = 0; i < 50; i++) outages.failed(full);
    outages.failed(io);
    expect(lines.map((line) => line.msg)).toEqual(['database unavailable: database or disk is full', 'database unavailable: disk I/O error']);
    await new Promise((resolve) => setTimeout(resolve, 250));
    outages.failed(full);
    expect(lines.at(-1)).toMatchObject({ msg: 'database still unavailable: database or disk is full', about: { kind: 'SQLITE_FULL', failed_operations: 52 } });
    // Not over while health says so; over once it is healthy and nothing failed for a check's time.
    await new Promise((resolve) => setTimeout(resolve, 150));
    expect(lines).toHaveLength(3);
    healthy = true;
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(lines.at(-1)).toMatchObject({ level: 'info', msg: 'database available again', about: { failed_operations: 52 } });
    expect(lines).toHaveLength(4);
    outages.stop();
  });
});
