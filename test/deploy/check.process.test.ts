// `timetrack check`, the refusal to act on another user's database file, and SIGHUP.
import fs from 'node:fs';
import path from 'node:path';
import { PASSWORD } from '../support/app.js';
import { onPostgres } from '../support/database.js';
import Database from 'better-sqlite3';
import { migrations } from '../../migrations/index.js';
import { describe, expect, it } from 'vitest';
import { runCliAsNobody, searchableByOthers } from '../support/other-user.js';
import { cli, createAccountWithCli, expectFailure, tempDb, tempDbPath } from '../support/cli-accounts.js';
import { cliInProcess } from '../support/cli-in-process.js';
import { startServer } from '../support/server.js';

const isRoot = process.geteuid?.() === 0;

describe.skipIf(onPostgres)('SQLite file: timetrack check', () => {
  it('passes on a healthy database and names each problem on its own line', async () => {
    const db = tempDb();
    await createAccountWithCli(db, 'ann@example.com');
    const healthy = await cli(db, ['check']);
    expect(healthy.stderr).toBe('');
    expect(healthy.exitCode).toBe(0);
    expect(healthy.stdout).toMatch(/^ok\s+configuration: every setting is valid$/m);
    expect(healthy.stdout).toMatch(/^ok\s+integrity: quick_check ok$/m);
    expect(healthy.stdout).toMatch(new RegExp(`^ok\\s+migrations: ${Object.keys(migrations).length} applied$`, 'm'));
    expect(healthy.stdout).toMatch(/^ok\s+database file: .* mode 600, owner \S+$/m);

    fs.chmodSync(db, 0o644);
    const sqlite = new Database(db);
    sqlite.prepare('delete from kysely_migration where name = ?').run('003_daily_totals_covering_index');
    sqlite.prepare("insert into kysely_migration (name, timestamp) values ('099_from_the_future', '2026-01-01T00:00:00.000Z')").run();
    sqlite.close();
    const broken = await cliInProcess(db, ['check', '--smtp'], { env: { SMTP_HOST: '127.0.0.1', SMTP_PORT: '1', SMTP_FROM: 'tt@example.org' } });
    expect(broken.exitCode).toBe(1);
    expect(broken.stderr).toBe('timetrack: check found 4 problem(s)');
    expect(broken.stdout).toMatch(/^PROBLEM secret: no JWT_SECRET and no /m);
    expect(broken.stdout).toMatch(/^PROBLEM database file: mode 644 lets other users read it/m);
    expect(broken.stdout).toMatch(/^PROBLEM migrations: pending: 003_daily_totals_covering_index .*; written by a newer version: 099_from_the_future$/m);
    expect(broken.stdout).toMatch(/^PROBLEM smtp: 127\.0\.0\.1:1: /m);

    const misconfigured = await cliInProcess(db, ['check'], { env: { PORT: 'x', LOG_LEVEL: 'y' } });
    expect(misconfigured.exitCode).toBe(1);
    expect(misconfigured.stdout).toMatch(/^PROBLEM configuration: PORT: "x" is not a whole number; LOG_LEVEL: "y"/m);
  });
});

describe.skipIf(onPostgres)('SQLite file: check names folders and files others can write', () => {
  it('a folder others can write is a problem naming chmod 700, a sticky one like /tmp a warning, a foreign group a problem', async () => {
    const db = tempDb();
    const folder = path.dirname(db);
    await createAccountWithCli(db, 'ann@example.com');
    fs.chmodSync(folder, 0o777);
    // The first check through the binary, the next ones through the same bundle in process (docs/testing.md, "How fast").
    const open = await cli(db, ['check']);
    expect(open.exitCode).toBe(1);
    expect(open.stdout).toMatch(
      new RegExp(`^PROBLEM database folder: others can write the folder ${folder} \\(mode 777\\) .*\\(fix: chmod 700 ${folder}\\)$`, 'm'),
    );

    fs.chmodSync(folder, 0o1777);
    const sticky = await cliInProcess(db, ['check']);
    expect(sticky.stdout).toMatch(new RegExp(`^WARNING database folder: the folder ${folder} \\(mode 1777\\) is world-writable with the sticky bit`, 'm'));
    expect(sticky.exitCode).toBe(0);

    fs.chmodSync(folder, 0o700);
    fs.chmodSync(db, 0o602);
    const file = await cliInProcess(db, ['check']);
    expect(file.exitCode).toBe(1);
    expect(file.stdout).toMatch(new RegExp(`^PROBLEM database file: others can write the file ${db} \\(mode 602\\) .*\\(fix: chmod 600 ${db}\\)$`, 'm'));
    fs.chmodSync(db, 0o600);

    const backups = path.join(folder, 'backups');
    fs.mkdirSync(backups, { mode: 0o700 });
    fs.chmodSync(backups, 0o757);
    const backupFolder = await cliInProcess(db, ['check', '--backup-folder', backups]);
    expect(backupFolder.exitCode).toBe(1);
    expect(backupFolder.stdout).toMatch(new RegExp(`^PROBLEM backup folder: others can write the folder ${backups} .*\\(fix: chmod 700 ${backups}\\)$`, 'm'));
    fs.chmodSync(backups, 0o700);
    const healthy = await cliInProcess(db, ['check', '--backup-folder', backups]);
    expect(healthy.exitCode).toBe(0);
    expect(healthy.stdout).toMatch(/^ok\s+backup folder: .* is writable by its owner only$/m);
    expect(healthy.stdout).not.toMatch(/database folder/);

    if (isRoot) {
      // Its owner's own group may write; another group (nogroup) may not.
      fs.chmodSync(folder, 0o770);
      expect((await cliInProcess(db, ['check'])).exitCode).toBe(0);
      fs.chownSync(folder, 0, 65534);
      const group = await cliInProcess(db, ['check']);
      expect(group.exitCode).toBe(1);
      expect(group.stdout).toMatch(
        new RegExp(
          `^PROBLEM database folder: the group gid 65534, not its owner's own group, can write the folder ${folder} .*\\(fix: chmod 700 ${folder}\\)$`,
          'm',
        ),
      );
    }
  });
});

describe.runIf(isRoot && !onPostgres)('a command run as another user than the database owner (SQLite file)', () => {
  it('is refused without --force, and warned about with it', async () => {
    const db = tempDb();
    await createAccountWithCli(db, 'ann@example.com');
    fs.chownSync(db, 65534, 65534);
    expectFailure(
      await cli(db, ['user', 'list']),
      1,
      /belongs to nobody \(uid 65534\) but this command runs as root \(uid 0\): .*run it as the owner \(sudo -u nobody timetrack …\), or pass --force/,
    );
    expectFailure(await cli(db, ['restore', db]), 1, /belongs to nobody \(uid 65534\)/);
    const forced = await cliInProcess(db, ['--force', 'user', 'list']);
    expect(forced.exitCode).toBe(0);
    expect(forced.stderr).toMatch(/^timetrack: warning: .* belongs to nobody \(uid 65534\)/);
  });
});

describe.skipIf(onPostgres)('SQLite file: serve and SIGHUP', () => {
  it('logs SIGHUP and goes on serving', async () => {
    const db = tempDb();
    const server = await startServer(db);
    try {
      server.process.kill('SIGHUP');
      await expect.poll(() => server.output()).toMatch(/SIGHUP received and ignored/);
      expect((await fetch(`${server.baseUrl}/api/health`)).status).toBe(200);
    } finally {
      const result = await server.stop();
      expect(result.exitCode).toBe(0);
    }
  });
});

describe.skipIf(onPostgres)('check always reports (files and owners: SQLite only)', () => {
  it('a missing secret file is a problem once sessions exist', async () => {
    const db = tempDb();
    await createAccountWithCli(db, 'ann@example.com');
    const server = await startServer(db);
    try {
      const login = await fetch(`${server.baseUrl}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'ann@example.com', password: PASSWORD }),
      });
      expect(login.status).toBe(200);
    } finally {
      await server.stop();
    }
    expect((await cliInProcess(db, ['check'])).stdout).toMatch(/^ok\s+secret: generated, kept in /m);
    fs.rmSync(`${db}.jwt-secret`);
    const missing = await cli(db, ['check']);
    expect(missing.exitCode).toBe(1);
    expect(missing.stdout).toMatch(/^PROBLEM secret: no JWT_SECRET and no .*\.jwt-secret: the next start generates a new secret and every session ends/m);
  });

  it('before the first start (no database yet) only the database is a problem, not the secret file no session needs', async () => {
    const db = tempDbPath();
    const result = await cli(db, ['check']);
    expect(result.exitCode).toBe(1);
    expect(result.stderr).toMatch(/timetrack: check found 1 problem\(s\)$/);
    expect(result.stdout).toMatch(
      /^PROBLEM database: no database at .*; is TIMETRACK_DB right\? \(`timetrack migrate` or the first start of serve creates it\)$/m,
    );
    expect(result.stdout).toMatch(/^ok\s+secret: .*\.jwt-secret is made at the first start \(no session exists yet\)$/m);
    expect(fs.existsSync(db)).toBe(false);
  });

  it('before the first start the sealing key file is named as made then, not as kept', async () => {
    const db = tempDb();
    expect((await cliInProcess(db, ['migrate'])).exitCode).toBe(0);
    const result = await cliInProcess(db, ['check']);
    expect(result.stdout).toMatch(/^ok\s+secret key: .*\.secret-key is made at the first start;/m);
    expect(fs.existsSync(`${db}.secret-key`)).toBe(false);
  });

  it.runIf(isRoot)('a root-owned database run as the service user: one line per finding, the owner named, the fix as a command', async () => {
    const db = tempDb();
    await createAccountWithCli(db, 'ann@example.com');
    const folder = path.dirname(db);
    searchableByOthers(path.dirname(folder));
    fs.chownSync(folder, 65534, 65534); // the service's folder, owned by the service's user (nobody here)
    // As root (the usual mistake): the file stays root's; check judges it against the folder's owner.
    const asRoot = await cliInProcess(db, ['check']);
    expect(asRoot.exitCode).toBe(1);
    expect(asRoot.stdout).toMatch(
      new RegExp(`^PROBLEM database file: owned by root, not by nobody .*\\(fix: chown nobody: ${db.replace(/[.]/g, '\\.')}\\)$`, 'm'),
    );
    // As the service's user, who cannot open the root-owned file: still a report, line by line.
    fs.chmodSync(db, 0o600);
    const asService = await runCliAsNobody(['--db', db, 'check']);
    expect(asService.exitCode).toBe(1);
    expect(asService.stdout).toMatch(/^ok\s+configuration: every setting is valid$/m);
    expect(asService.stdout).toMatch(/^PROBLEM database file: owned by root, not by nobody/m);
    expect(asService.stdout).toMatch(/^PROBLEM database: cannot be opened by nobody: /m);
    expect(asService.stdout).toMatch(/^(ok|PROBLEM) secret: /m);
    expect(String(asService.stderr).split('\n').at(-1)).toMatch(/^timetrack: check found \d+ problem\(s\)$/);

    // A read-only folder: named as such.
    fs.chownSync(folder, 0, 0);
    fs.chmodSync(folder, 0o555);
    const readOnly = await runCliAsNobody(['--db', db, 'check']);
    expect(readOnly.stdout).toMatch(new RegExp(`^PROBLEM database folder: ${folder} is not writable by nobody`, 'm'));
    fs.chmodSync(folder, 0o700);
  });
});
