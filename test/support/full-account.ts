// Accounts full of data for the load tests: made through the real binary (`user create`, then `user
// import` of a generated account document), before or beside a real `serve`.
import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { makeTempDir } from './app.js';
import { cli, createAccountWithCli } from './cli-accounts.js';

export interface FillOptions {
  entries: number;
  /** Characters of each entry's note. */
  noteLength?: number;
  holidayRegion?: string | null;
  trackingStart?: string;
  absences?: number;
}

/** An account document of `entries` one-hour entries, one every 5 hours from 2000 on. */
export function accountDocument(email: string, options: FillOptions): string {
  const note = 'x'.repeat(options.noteLength ?? 20);
  const first = Date.UTC(2000, 0, 1, 8);
  const lines: string[] = [];
  for (let i = 0; i < options.entries; i += 1) {
    const start = first + i * 5 * 3_600_000;
    lines.push(JSON.stringify({ start_at: new Date(start).toISOString(), end_at: new Date(start + 3_600_000).toISOString(), note }));
  }
  const absences: string[] = [];
  for (let i = 0; i < (options.absences ?? 0); i += 1) {
    absences.push(JSON.stringify({ date: new Date(Date.UTC(1975, 0, 1) + i * 86_400_000).toISOString().slice(0, 10), type: 'vacation', note: '' }));
  }
  const settings = {
    timezone: 'Europe/Berlin',
    holiday_region: options.holidayRegion ?? null,
    tracking_start: options.trackingStart ?? '2000-01-01',
  };
  return `{"format":"timetrack-account","version":1,"exported_at":"2026-01-01T00:00:00.000Z","user":{"email":"${email}","full_name":"Full Account","username":null},"settings":${JSON.stringify(settings)},"entries":[\n${lines.join(',\n')}\n],"absences":[${absences.join(',')}]}\n`;
}

/** How `user import` runs: the binary (`cli`), or the built bundle in this process (`cliInProcess`). */
type ImportRunner = (db: string, args: string[]) => Promise<{ stderr: unknown; exitCode?: number }>;

/** Creates the account (with the test password) and fills it through `user import`, run by `run`. */
export async function createFullAccount(db: string, email: string, options: FillOptions, run: ImportRunner = cli): Promise<void> {
  await createAccountWithCli(db, email);
  const file = path.join(makeTempDir('timetrack-doc-'), 'account.json');
  fs.writeFileSync(file, accountDocument(email, options));
  const imported = await run(db, ['--json', 'user', 'import', file]);
  expect(imported.stderr).toBe('');
  expect(imported.exitCode).toBe(0);
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
}
