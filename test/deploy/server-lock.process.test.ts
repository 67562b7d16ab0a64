// One server per SQLite file, enforced with an OS lock (flock on <db>.lock, held for the life of
// `serve`): a second `serve` on the same file refuses to start, and `restore` refuses while any
// server holds the lock, whichever process group it runs in, however the second one ended.
import { execa } from 'execa';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeTempDir, PASSWORD } from '../support/app.js';
import { BIN, cleanEnv } from '../support/cli.js';
import { cli, createAccountWithCli, expectFailure, tempDb } from '../support/cli-accounts.js';
import { cliInProcess } from '../support/cli-in-process.js';
import { onPostgres } from '../support/database.js';
import { startServer } from '../support/server.js';

async function register(baseUrl: string, email: string): Promise<number> {
  const response = await fetch(`${baseUrl}/api/auth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD, full_name: 'Writer' }),
  });
  return response.status;
}

describe.skipIf(onPostgres)('one server per SQLite file (file locks: SQLite only)', () => {
  it('a second serve on the same file refuses with one sentence; restore stays refused after it ended, and a write answered 201 survives', async () => {
    const db = tempDb();
    await createAccountWithCli(db, 'ann@example.com');
    const copy = path.join(makeTempDir('timetrack-backup-'), 'copy.db');
    expect((await cliInProcess(db, ['backup', copy])).exitCode).toBe(0);
    const first = await startServer(db);
    try {
      const second = await execa('node', [BIN, '--db', db, 'serve', '--port', '0'], { env: cleanEnv(), extendEnv: false, reject: false, stdin: 'ignore' });
      expect(second.exitCode).toBe(1);
      expect(String(second.stderr)).toMatch(
        new RegExp(
          `^timetrack: timetrack serve \\(pid ${first.process.pid}\\) is using ${db.replace(/[.]/g, '\\.')} .*one server per database file; stop it first$`,
        ),
      );
      expect(String(second.stderr).split('\n').length).toBe(1);

      expectFailure(await cli(db, ['restore', copy]), 1, new RegExp(`timetrack serve \\(pid ${first.process.pid}\\) is using .*; stop it first`));
      expect(await register(first.baseUrl, 'bob@example.com')).toBe(201);
    } finally {
      await first.stop();
    }
    // The write acknowledged while restore was refused is in the file the next server opens.
    const listed = JSON.parse(String((await cliInProcess(db, ['--json', 'user', 'list'])).stdout)) as { users: Array<{ email: string }> };
    expect(listed.users.map((u) => u.email).sort()).toEqual(['ann@example.com', 'bob@example.com']);
    // With no server left, restore works.
    expect((await cli(db, ['restore', copy])).exitCode).toBe(0);
  });

  it('restore is refused while a server in another process group holds the file, and works once that server was killed', async () => {
    const db = tempDb();
    const copy = path.join(makeTempDir('timetrack-backup-'), 'copy.db');
    expect((await cliInProcess(db, ['backup', copy])).exitCode).toBe(0);
    const server = execa('node', [BIN, '--db', db, 'serve', '--port', '0'], {
      env: cleanEnv({ LOG_LEVEL: 'info' }),
      extendEnv: false,
      reject: false,
      stdin: 'ignore',
      detached: true,
      all: true,
    });
    let output = '';
    server.all?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    try {
      await expect.poll(() => output, { timeout: 30_000 }).toMatch(/Server listening/);
      expectFailure(await cli(db, ['restore', copy]), 1, /timetrack serve \(pid \d+\) is using .*; stop it first/);
    } finally {
      // SIGKILL: nothing of the server's own runs; the kernel releases its lock.
      process.kill(-server.pid!, 'SIGKILL');
      await server;
    }
    await expect.poll(async () => (await cli(db, ['restore', copy])).exitCode, { timeout: 10_000 }).toBe(0);
  });

  it('deleting <db>.lock while a server runs lets no second server start: the database file itself is locked too, on an existing and on a new database', async () => {
    for (const fresh of [false, true]) {
      const db = fresh ? path.join(makeTempDir('timetrack-new-'), 'timetrack.db') : tempDb();
      if (!fresh) await createAccountWithCli(db, 'ann@example.com');
      const first = await startServer(db);
      try {
        fs.rmSync(`${db}.lock`);
        const second = await execa('node', [BIN, '--db', db, 'serve', '--port', '0'], { env: cleanEnv(), extendEnv: false, reject: false, stdin: 'ignore' });
        expect(second.exitCode).toBe(1);
        expect(String(second.stderr)).toMatch(
          /^timetrack: another timetrack process is using .* \(it holds the database file; .*\.lock was removed while it ran\): one server per database file; stop it first$/,
        );
        expect(await register(first.baseUrl, 'bob@example.com')).toBe(201);
      } finally {
        await first.stop();
      }
      // Stopped, it holds nothing: the next server starts.
      const next = await startServer(db);
      await next.stop();
    }
  });
});
