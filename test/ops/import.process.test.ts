// `entries import` as an operator runs it next to a live server: the dry run reads only (it works
// while another process holds the write lock), `-` reads standard input, progress shows on a
// terminal only, --quiet leaves the summary line alone.
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { execa } from 'execa';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { BIN, cleanEnv } from '../support/cli.js';
import { cli, createAccountWithCli, tempDb } from '../support/cli-accounts.js';
import { forEngineCommand, onPostgres, queryRows } from '../support/database.js';

const CSV = [
  'start_at,end_at,note',
  '2026-03-02T08:00:00Z,2026-03-02T09:00:00Z,one',
  '2026-03-03T08:00:00Z,2026-03-03T09:00:00Z,two',
  '2026-03-04T08:00:00Z,2026-03-04T09:00:00Z,three',
].join('\n');
let db: string;
let file: string;

beforeEach(async () => {
  db = tempDb();
  await createAccountWithCli(db, 'ann@example.com');
  file = path.join(path.dirname(db), 'entries.csv');
  fs.writeFileSync(file, `${CSV}\n`);
});

async function entryCount(): Promise<number> {
  return (await queryRows<{ n: number }>(db, 'select count(*) as n from time_entries'))[0]!.n;
}

describe('entries import', () => {
  let holder: Database.Database | undefined;
  afterEach(() => {
    if (holder?.inTransaction) holder.exec('rollback');
    holder?.close();
    holder = undefined;
  });

  it.skipIf(onPostgres)('a dry run takes no write lock: it answers while another process holds it (SQLite: skipped on PostgreSQL)', async () => {
    holder = new Database(db);
    holder.exec('begin immediate');
    const dryRun = await cli(db, ['entries', 'import', '--user', 'ann@example.com', file]);
    expect(dryRun.stderr).toBe('');
    expect(dryRun.exitCode).toBe(0);
    expect(dryRun.stdout).toMatch(/dry run: 3 entries would be imported for ann@example.com/);
    holder.exec('rollback');
    expect(await entryCount()).toBe(0);
  });

  it('- reads standard input; --quiet prints the summary line only', async () => {
    const result = await cli(db, ['entries', 'import', '--quiet', '--apply', '--user', 'ann@example.com', '-'], { input: CSV });
    expect(result.stderr).toBe('');
    expect(result.exitCode).toBe(0);
    expect(result.stdout).toBe('imported 3 entries for ann@example.com');
    expect(await entryCount()).toBe(3);
    const again = await cli(db, ['entries', 'import', '--user', 'ann@example.com', '-'], { input: CSV });
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toMatch(/standard input: line 2: The entry would overlap entry \d+/);
    expect(again.stderr).toMatch(/standard input: line 4: The entry would overlap entry \d+/);
  });

  it('shows progress on stderr when it is a terminal, never in piped output', async () => {
    const { command, env } = forEngineCommand(
      ['node', BIN, '--db', db, 'entries', 'import', '--user', 'ann@example.com', file].map((arg) => `'${arg}'`).join(' '),
    );
    // stdout goes to a file, stderr stays on the pseudo-terminal of `script`.
    const out = path.join(path.dirname(db), 'out.txt');
    const onTerminal = await execa('script', ['-qfec', `${command} > '${out}'`, '/dev/null'], {
      env: cleanEnv(env),
      extendEnv: false,
      reject: false,
      stdin: 'ignore',
    });
    expect(onTerminal.exitCode).toBe(0);
    expect(onTerminal.stdout).toMatch(/checked 3\/3 rows/);
    expect(fs.readFileSync(out, 'utf8')).not.toMatch(/checked/);
    expect(fs.readFileSync(out, 'utf8')).toMatch(/dry run: 3 entries would be imported/);
  });
});

describe('entries import with --json', () => {
  it('reports bad rows inside the one JSON error on stderr', async () => {
    const result = await cli(db, ['--json', 'entries', 'import', '--user', 'ann@example.com', '-'], { input: 'start_at,end_at,note\nsoon,later,x\n' });
    expect(result.exitCode).toBe(1);
    expect(result.stdout).toBe('');
    const error = JSON.parse(String(result.stderr)) as { error: { code: string; message: string } };
    expect(error.error.code).toBe('VALIDATION_ERROR');
    expect(error.error.message).toMatch(/^1 bad row\(s\) in standard input; nothing was written: line 2: start_at must be/);
  });
});
