// `timetrack backup` while a real server is written to, and `timetrack restore` over a database with a
// stale WAL beside it.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { makeTempDir, PASSWORD } from '../support/app.js';
import { cli, createAccountWithCli, emailsIn, expectFailure, tempDb } from '../support/cli-accounts.js';
import { cliInProcess } from '../support/cli-in-process.js';
import { startServer } from '../support/server.js';
import { onPostgres, databaseLine } from '../support/database.js';

function integrityOf(file: string): unknown {
  const sqlite = new Database(file, { readonly: true });
  try {
    return sqlite.pragma('integrity_check', { simple: true });
  } finally {
    sqlite.close();
  }
}

describe.skipIf(onPostgres)('SQLite file: timetrack backup', () => {
  it('copies a database being written to: the copy passes integrity_check and holds every write acknowledged before it started', async () => {
    const db = tempDb();
    const server = await startServer(db);
    const acknowledged: string[] = [];
    let writing = true;
    const writer = async (lane: number) => {
      for (let i = 0; writing; i++) {
        const email = `w${lane}-${i}@example.com`;
        const response = await fetch(`${server.baseUrl}/api/auth/register`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email, password: PASSWORD, full_name: 'Writer' }),
        });
        expect(response.status).toBe(201);
        acknowledged.push(email);
      }
    };
    const writers = [writer(1), writer(2)];
    try {
      while (acknowledged.length < 6) await new Promise((resolve) => setTimeout(resolve, 20));
      const beforeBackup = [...acknowledged];
      const copy = path.join(makeTempDir('timetrack-backup-'), 'copy.db');
      const result = await cli(db, ['--json', 'backup', copy]);
      const afterBackup = acknowledged.length;
      expect(result.stderr).toBe('');
      const report = JSON.parse(result.stdout as string) as { path: string; bytes: number; duration_ms: number };
      expect(report).toEqual({ path: copy, bytes: fs.statSync(copy).size, duration_ms: expect.any(Number), checksum_file: `${copy}.sha256` });
      expect(afterBackup).toBeGreaterThan(beforeBackup.length); // the load went on during the backup
      expect(fs.statSync(copy).mode & 0o777).toBe(0o600);
      expect(integrityOf(copy)).toBe('ok');
      expect(emailsIn(copy)).toEqual(expect.arrayContaining(beforeBackup));

      expectFailure(await cliInProcess(db, ['backup', copy]), 1, /exists already/);
    } finally {
      writing = false;
      await Promise.all(writers);
      await server.stop();
    }
  });
});

describe.skipIf(onPostgres)('SQLite file: timetrack restore', () => {
  it('replaces a database that has a stale WAL beside it by the backup, with a clean integrity check', async () => {
    const db = tempDb();
    await createAccountWithCli(db, 'ann@example.com');
    const copy = path.join(makeTempDir('timetrack-backup-'), 'copy.db');
    expect((await cliInProcess(db, ['backup', copy])).exitCode).toBe(0);

    // Later writes, left in a WAL beside the file (as after a crash, or a copy of the file alone).
    const sqlite = new Database(db);
    sqlite.pragma('wal_autocheckpoint = 0');
    for (const email of ['bob@example.com', 'carol@example.com']) {
      sqlite.prepare("insert into users (email, full_name, username, created_at) values (?, 'Later', null, '2026-01-01T00:00:00.000Z')").run(email);
    }
    const wal = fs.readFileSync(`${db}-wal`);
    sqlite.close();
    fs.writeFileSync(`${db}-wal`, wal);

    const restored = await cli(db, ['restore', copy]);
    expect(restored.stderr).toBe('');
    expect(restored.stdout).toContain(databaseLine(db));
    expect(fs.existsSync(`${db}-wal`)).toBe(false);
    expect(fs.statSync(db).mode & 0o777).toBe(0o600);
    expect(integrityOf(db)).toBe('ok');
    expect(emailsIn(db)).toEqual(['ann@example.com']);
    const listed = JSON.parse((await cliInProcess(db, ['--json', 'user', 'list'])).stdout as string) as { users: Array<{ email: string }> };
    expect(listed.users.map((u) => u.email)).toEqual(['ann@example.com']);
  });

  it('refuses while a server runs on the database, and refuses a damaged or foreign file', async () => {
    const db = tempDb();
    const copy = path.join(makeTempDir('timetrack-backup-'), 'copy.db');
    expect((await cliInProcess(db, ['backup', copy])).exitCode).toBe(0);
    const server = await startServer(db);
    try {
      expectFailure(await cli(db, ['restore', copy]), 1, /timetrack serve \(pid \d+\) is using .*; stop it first/);
    } finally {
      await server.stop();
    }
    expect((await cli(db, ['restore', copy])).exitCode).toBe(0);

    const garbage = path.join(makeTempDir('timetrack-backup-'), 'garbage.db');
    fs.writeFileSync(garbage, 'not a database at all, just text'.repeat(200));
    expectFailure(await cli(db, ['restore', garbage]), 1, /has no .*garbage\.db\.sha256: refused/);
    // Files without a checksum, let through: the later checks refuse them.
    expectFailure(await cli(db, ['restore', '--no-checksum', garbage]), 1, /cannot be read as an SQLite database|fails the integrity check/);
    const foreign = path.join(makeTempDir('timetrack-backup-'), 'foreign.db');
    new Database(foreign).exec('create table t (x)').close();
    expectFailure(await cli(db, ['restore', '--no-checksum', foreign]), 1, /is not a timetrack database/);
    const newer = path.join(makeTempDir('timetrack-backup-'), 'newer.db');
    fs.copyFileSync(copy, newer);
    new Database(newer).prepare('insert into kysely_migration (name, timestamp) values (?, ?)').run('099_from_the_future', new Date().toISOString());
    expectFailure(await cli(db, ['restore', '--no-checksum', newer]), 1, /written by a newer version of timetrack/);
  });
});
