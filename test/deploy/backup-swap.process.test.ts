// `timetrack backup` reports only the file it wrote, on both engines: a backup file swapped for a
// symlink, or for a file of someone else, in a folder others can write, between the moment it gets its
// name and the report, is refused, and nothing is written through the symlink (docs/operations.md,
// "Backups"). strace holds the built binary for two seconds right after the backup file got its name
// (the `link` system call), which is the moment an attacker has to win; the test swaps the file then.
import { execa } from 'execa';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeTempDir } from '../support/app.js';
import { BIN, cleanEnv } from '../support/cli.js';
import { createAccountWithCli, expectFailure, tempDb } from '../support/cli-accounts.js';
import { forEngine } from '../support/database.js';

const hasStrace = fs.existsSync('/usr/bin/strace');

/** Runs `backup <file>` with the process held for two seconds after each `link`, and calls `swap` meanwhile, once the file has its name. */
async function backupWhileSwapping(db: string, file: string, swap: () => void) {
  const { args, env } = forEngine(['--db', db, 'backup', file], {});
  const run = execa('strace', ['-f', '-qq', '-o', '/dev/null', '-e', 'trace=link', '-e', 'inject=link:delay_exit=2000000', 'node', BIN, ...args], {
    env: cleanEnv(env),
    extendEnv: false,
    reject: false,
  });
  const until = Date.now() + 30_000;
  while (!fs.existsSync(file) && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
  expect(fs.existsSync(file)).toBe(true);
  swap();
  return run;
}

describe.runIf(hasStrace)('backup proves the file it reports', () => {
  it('refuses a backup file swapped for a symlink after it got its name, writing nothing through the link', async () => {
    const db = tempDb();
    await createAccountWithCli(db, 'ann@example.com');
    const folder = makeTempDir('timetrack-backups-');
    const file = path.join(folder, 'copy.db');
    const victim = path.join(makeTempDir('timetrack-victim-'), 'victim');
    fs.writeFileSync(victim, 'precious');
    const result = await backupWhileSwapping(db, file, () => {
      fs.renameSync(file, path.join(folder, 'moved-away'));
      fs.symlinkSync(victim, file);
    });
    expectFailure(result, 1, /copy\.db was replaced by a symbolic link after it was written: it is not the backup; refused/);
    expect(String(result.stdout)).not.toMatch(/backed up/);
    expect(fs.readFileSync(victim, 'utf8')).toBe('precious');
    // The symlink is someone else's: left alone; no temporary file and no checksum remain.
    expect(fs.readdirSync(folder).sort()).toEqual(['copy.db', 'moved-away']);
  });

  it('refuses a backup file swapped for another file, and leaves that file alone', async () => {
    const db = tempDb();
    const folder = makeTempDir('timetrack-backups-');
    const file = path.join(folder, 'copy.db');
    const result = await backupWhileSwapping(db, file, () => {
      fs.renameSync(file, path.join(folder, 'moved-away'));
      fs.writeFileSync(file, 'planted');
    });
    expectFailure(result, 1, /copy\.db was replaced by another file after it was written: it is not the backup; refused/);
    expect(fs.readFileSync(file, 'utf8')).toBe('planted');
    expect(fs.readdirSync(folder).sort()).toEqual(['copy.db', 'moved-away']);
  });
});
