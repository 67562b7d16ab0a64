// Backups as single files one can trust: one file and its .sha256 (nothing else beside it, also after
// a failure), written through one descriptor (a planted symlink is refused), verified by restore (a
// flipped byte is refused), and a backup whose schema holds anything the migrations did not create,
// or that others can write, is refused. SQLite files only: PostgreSQL backs up with pg_dump.
import { execa } from 'execa';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { makeTempDir, PASSWORD } from '../support/app.js';
import { BIN, cleanEnv } from '../support/cli.js';
import { runCliAsNobody, searchableByOthers } from '../support/other-user.js';
import { cli, createAccountWithCli, emailsIn, expectFailure, tempDb } from '../support/cli-accounts.js';
import { onPostgres } from '../support/database.js';
import { cliInProcess } from '../support/cli-in-process.js';

const isRoot = process.geteuid?.() === 0;

describe.skipIf(onPostgres)('backup files (SQLite files only; PostgreSQL uses pg_dump)', () => {
  it('writes one file and its .sha256, both 0600, nothing else, also after a failure; names a missing folder', async () => {
    const db = tempDb();
    await createAccountWithCli(db, 'ann@example.com');
    const folder = makeTempDir('timetrack-backups-');
    const copy = path.join(folder, 'copy.db');
    const made = await cli(db, ['backup', copy]);
    expect(made.exitCode, String(made.stderr)).toBe(0);
    expect(made.stdout).toContain(`SHA-256 in ${copy}.sha256`);
    expect(fs.readdirSync(folder).sort()).toEqual(['copy.db', 'copy.db.sha256']);
    for (const file of fs.readdirSync(folder)) expect(fs.statSync(path.join(folder, file)).mode & 0o777).toBe(0o600);
    const verified = await execa('sha256sum', ['-c', 'copy.db.sha256'], { cwd: folder, reject: false });
    expect(verified.stdout).toBe('copy.db: OK');
    // Nothing of the staging copy is left beside the database either.
    expect(fs.readdirSync(path.dirname(db)).filter((name) => name.startsWith('.timetrack-staging-'))).toEqual([]);

    expectFailure(await cliInProcess(db, ['backup', copy]), 1, /exists already/);
    expect(fs.readdirSync(folder).sort()).toEqual(['copy.db', 'copy.db.sha256']);

    const missing = path.join(folder, 'backups', 'today.db');
    expectFailure(await cliInProcess(db, ['backup', missing]), 1, new RegExp(`the folder ${path.dirname(missing)} does not exist; create it first`));
    expect(fs.readdirSync(folder).sort()).toEqual(['copy.db', 'copy.db.sha256']);
  });

  it('refuses a symlink planted at the backup path, and writes nothing through it', async () => {
    const db = tempDb();
    const folder = makeTempDir('timetrack-backups-');
    const victim = path.join(makeTempDir('timetrack-victim-'), 'victim');
    fs.writeFileSync(victim, 'precious');
    fs.symlinkSync(victim, path.join(folder, 'copy.db'));
    expectFailure(await cli(db, ['backup', path.join(folder, 'copy.db')]), 1, /copy\.db is a symbolic link; refused/);
    fs.symlinkSync(victim, path.join(folder, 'other.db.sha256'));
    expectFailure(await cliInProcess(db, ['backup', path.join(folder, 'other.db')]), 1, /other\.db\.sha256 is a symbolic link; refused/);
    expect(fs.readFileSync(victim, 'utf8')).toBe('precious');
    expect(fs.existsSync(path.join(folder, 'other.db'))).toBe(false);
  });

  it('restore verifies the .sha256 (a flipped byte is refused) and refuses a backup others can write', async () => {
    const db = tempDb();
    await createAccountWithCli(db, 'ann@example.com');
    const folder = makeTempDir('timetrack-backups-');
    const copy = path.join(folder, 'copy.db');
    expect((await cliInProcess(db, ['backup', copy])).exitCode).toBe(0);
    await createAccountWithCli(db, 'bob@example.com');

    const flipped = fs.readFileSync(copy);
    // A byte inside a stored e-mail address: the file stays a valid database that passes integrity_check.
    const at = flipped.indexOf(Buffer.from('ann@example.com'));
    expect(at).toBeGreaterThan(0);
    flipped[at] = 'x'.charCodeAt(0);
    const tampered = path.join(folder, 'tampered.db');
    fs.writeFileSync(tampered, flipped, { mode: 0o600 });
    fs.copyFileSync(`${copy}.sha256`, `${tampered}.sha256`);
    expectFailure(await cli(db, ['restore', tampered]), 1, /does not match its checksum .*tampered\.db\.sha256.*refused/);
    expect(emailsIn(db)).toEqual(['ann@example.com', 'bob@example.com']);

    fs.chmodSync(copy, 0o666);
    expectFailure(await cli(db, ['restore', copy]), 1, /is writable by other users \(mode 666\).*refused/);
    fs.chmodSync(copy, 0o600);
    const restored = await cli(db, ['restore', copy]);
    expect(restored.exitCode, String(restored.stderr)).toBe(0);
    expect(restored.stdout).toMatch(/checksum ok; integrity check ok; schema ok/);
    expect(emailsIn(db)).toEqual(['ann@example.com']);
  });

  it('restore and check refuse a schema the migrations did not create (a trigger that undoes password changes)', async () => {
    const db = tempDb();
    await createAccountWithCli(db, 'ann@example.com');
    const folder = makeTempDir('timetrack-backups-');
    const planted = path.join(folder, 'planted.db');
    expect((await cliInProcess(db, ['backup', planted])).exitCode).toBe(0);
    fs.rmSync(`${planted}.sha256`); // an attacker who can change the file can drop its checksum too
    const sqlite = new Database(planted);
    sqlite.exec(
      'create trigger keep_old_password after update on auth_info begin update auth_info set password_hash = old.password_hash where user_id = new.user_id; end',
    );
    sqlite.close();
    expectFailure(
      // Without a checksum (a planted file has none): the schema check is what refuses it.
      await cli(db, ['restore', '--no-checksum', planted]),
      1,
      /holds a schema the migrations did not create \(trigger keep_old_password is not created by the migrations\); refused/,
    );

    const live = new Database(db);
    live.exec('create view everyone as select email from users');
    live.close();
    const checked = await cli(db, ['check']);
    expect(checked.exitCode).toBe(1);
    expect(checked.stdout).toMatch(/^PROBLEM integrity: schema: view everyone is not created by the migrations$/m);
  });

  it.runIf(isRoot)(
    'refuses a backup without its .sha256, and with --no-checksum restores one made before 0.2.0 (WAL header) from a read-only folder',
    async () => {
      const db = tempDb();
      await createAccountWithCli(db, 'ann@example.com');
      const folder = makeTempDir('timetrack-backups-');
      const old = path.join(folder, 'old.db');
      // What the old `backup` wrote: a copy through the backup API, still in WAL mode, no checksum.
      const source = new Database(db);
      await source.backup(old);
      source.close();
      fs.chmodSync(old, 0o600);
      for (const dir of [folder, path.dirname(db)]) fs.chownSync(dir, 65534, 65534);
      for (const file of [old, db]) fs.chownSync(file, 65534, 65534);
      fs.chmodSync(folder, 0o500);
      searchableByOthers(path.dirname(path.dirname(db)));
      searchableByOthers(path.dirname(folder));
      const refused = await runCliAsNobody(['--db', db, 'restore', old]);
      expect(refused.exitCode).toBe(1);
      expect(refused.stderr).toMatch(/has no .*old\.db\.sha256: refused, .*--no-checksum/);
      const result = await runCliAsNobody(['--db', db, 'restore', '--no-checksum', old]);
      expect(result.stderr).toBe('');
      expect(result.stdout).toMatch(/checksum not verified; integrity check ok/);
      expect(fs.readdirSync(folder)).toEqual(['old.db']);
    },
  );

  it('user export into a file writes it 0600', async () => {
    const db = tempDb();
    await createAccountWithCli(db, 'ann@example.com');
    const file = path.join(makeTempDir('timetrack-export-'), 'ann.json');
    const result = await execa('sh', ['-c', `umask 022; node "${BIN}" --db "${db}" user export ann@example.com > "${file}"`], {
      env: cleanEnv(),
      extendEnv: false,
      reject: false,
    });
    expect(result.exitCode, String(result.stderr)).toBe(0);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).user.email).toBe('ann@example.com');
    void PASSWORD;
  });

  it('exports through --output into a new file of mode 0600, whatever the umask; an existing file is refused', async () => {
    const db = tempDb();
    await createAccountWithCli(db, 'ann@example.com');
    const folder = makeTempDir('timetrack-export-');
    for (const [args, name] of [
      [['user', 'export', 'ann@example.com'], 'ann.json'],
      [['entries', 'export', '--user', 'ann@example.com'], 'ann.csv'],
    ] as const) {
      const file = path.join(folder, name);
      const result = await execa('sh', ['-c', `umask 000; node "${BIN}" --db "${db}" ${args.join(' ')} --output "${file}"`], {
        env: cleanEnv(),
        extendEnv: false,
        reject: false,
      });
      expect(result.exitCode, String(result.stderr)).toBe(0);
      expect(result.stdout).toBe('');
      expect(fs.statSync(file).mode & 0o777).toBe(0o600);
      expect(fs.readFileSync(file, 'utf8')).toContain(name.endsWith('.json') ? '"email":"ann@example.com"' : 'start_at');
      // The first refusal through the binary, the next through the same bundle in process (docs/testing.md, "How fast").
      expectFailure(await (name === 'ann.json' ? cli : cliInProcess)(db, [...args, '--output', file]), 1, /exists already; choose a new file name/);
    }
  });
});
