// Imports that are exact, through the built binary (docs/security.md, "imports"): `user import`
// matches an account by its exact e-mail address only (never a username), writes everything or
// nothing in one transaction with its audit record, and every malformed input (wrong JSON types,
// broken JSON, a file too large, bad CSV rows, 200,000 rows) ends in one clear line per problem
// naming the field or row, never "unexpected error" or a stack trace. The first refusal of each command,
// an import that succeeds, the first malformed document and standard input run the binary; the other
// refusals of the same commands run the same bundle in process (docs/testing.md, "How fast").
import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { MAX_ACCOUNT_DOCUMENT_BYTES } from '../../src/portability/account-document.js';
import { cli, createAccountWithCli, expectFailure, tempDb } from '../support/cli-accounts.js';
import { cliInProcess } from '../support/cli-in-process.js';
import { queryRows } from '../support/database.js';

let db: string;
let dir: string;

beforeEach(async () => {
  db = tempDb();
  dir = path.dirname(db);
  await createAccountWithCli(db, 'carla@example.com', ['--username', 'carla']);
});

const base = {
  format: 'timetrack-account',
  version: 1,
  exported_at: '2026-03-01T00:00:00.000Z',
  user: { email: 'new@example.com', full_name: 'New Person', username: null, created_at: '2026-01-01T00:00:00.000Z' },
  settings: {
    timezone: 'Europe/Berlin',
    weekly_target_minutes: { mon: 480, tue: 480, wed: 480, thu: 480, fri: 480, sat: 0, sun: 0 },
    holiday_region: 'DE-BY',
    overtime_offset_minutes: 0,
    tracking_start: '2026-01-01',
  },
  entries: [
    { start_at: '2026-03-02T08:00:00.000Z', end_at: '2026-03-02T12:00:00.000Z', note: 'one' },
    { start_at: '2026-03-03T08:00:00.000Z', end_at: '2026-03-03T12:00:00.000Z', note: 'two' },
  ],
  absences: [{ date: '2026-03-05', type: 'vacation', note: '' }],
};

function documentFile(document: unknown, name = 'account.json'): string {
  const file = path.join(dir, name);
  fs.writeFileSync(file, typeof document === 'string' ? document : JSON.stringify(document));
  return file;
}

async function counts(email: string) {
  const [user] = await queryRows<{ id: number; full_name: string }>(db, 'select id, full_name from users where email = ?', [email]);
  if (!user) return undefined;
  const [entries] = await queryRows<{ n: number }>(db, 'select count(*) as n from time_entries where user_id = ?', [user.id]);
  const [absences] = await queryRows<{ n: number }>(db, 'select count(*) as n from absences where user_id = ?', [user.id]);
  const [settings] = await queryRows<{ timezone: string | null }>(db, 'select timezone from zone_history where user_id = ? order by valid_from desc', [
    user.id,
  ]);
  return { full_name: user.full_name, entries: Number(entries!.n), absences: Number(absences!.n), timezone: settings?.timezone ?? null };
}

async function importAudits(): Promise<number> {
  const [row] = await queryRows<{ n: number }>(db, "select count(*) as n from audit_events where action = 'account_imported'");
  return Number(row!.n);
}

describe('user import matches the exact e-mail address', () => {
  it('refuses "carla" (a username, not an address) and leaves carla alone', async () => {
    const file = documentFile({ ...base, user: { ...base.user, email: 'carla', full_name: 'Mallory' } });
    expectFailure(await cli(db, ['user', 'import', file]), 1, /user\.email: email must be an e-mail address/);
    expect(await counts('carla@example.com')).toEqual({ full_name: 'Test Person', entries: 0, absences: 0, timezone: null });
    expect(await importAudits()).toBe(0);
  });

  it('fills the account whose address is the same once normalised (case, spaces), and only that one', async () => {
    const file = documentFile({ ...base, user: { ...base.user, email: '  Carla@EXAMPLE.com ' } });
    const result = await cli(db, ['--json', 'user', 'import', file]);
    expect(result.stderr).toBe('');
    expect(JSON.parse(String(result.stdout))).toMatchObject({ created: false, user: { email: 'carla@example.com' }, entries: 2, absences: 1 });
    expect(await counts('carla@example.com')).toMatchObject({ entries: 2, absences: 1, timezone: 'Europe/Berlin' });
    expect(await importAudits()).toBe(1);
  });
});

describe('user import is one transaction', () => {
  it('a new account with a bad absence is not made at all (no half-made account, no audit record)', async () => {
    const file = documentFile({ ...base, absences: [{ date: '2026-03-05', type: 'party', note: '' }] });
    expectFailure(await cliInProcess(db, ['user', 'import', file]), 1, /absences\[1\]\.type: type must be one of vacation, sick, holiday/);
    expect(await counts('new@example.com')).toBeUndefined();
    expect(await importAudits()).toBe(0);
  });

  it('a failure at the last step (an absence already there) rolls back the entries and settings written before it', async () => {
    const absence = await cliInProcess(db, [
      '--json',
      'user',
      'import',
      documentFile({ ...base, user: { ...base.user, email: 'carla@example.com' }, entries: [], settings: {} }, 'first.json'),
    ]);
    expect(absence.exitCode).toBe(0);
    const before = await counts('carla@example.com');
    expect(before).toMatchObject({ entries: 0, absences: 1 });
    const file = documentFile({ ...base, user: { ...base.user, email: 'carla@example.com' }, settings: { ...base.settings, timezone: 'America/New_York' } });
    expectFailure(await cliInProcess(db, ['user', 'import', file]), 1, /absences\[1\]: there is already an absence on 2026-03-05/);
    expect(await counts('carla@example.com')).toEqual(before);
    expect(await importAudits()).toBe(1);
  });

  it('a username taken by another account is named, and nothing is made', async () => {
    const file = documentFile({ ...base, user: { ...base.user, username: 'CARLA' } });
    expectFailure(
      await cliInProcess(db, ['user', 'import', file]),
      1,
      /user\.username: carla is the username of another account|user\.username: CARLA is the username of another account/,
    );
    expect(await counts('new@example.com')).toBeUndefined();
  });
});

describe('malformed input gets one clear line per problem, naming the field or row', () => {
  const cases: Array<[string, unknown, RegExp]> = [
    ['a number as an instant', { ...base, entries: [{ start_at: 5, end_at: null, note: '' }] }, /entries\[1\]\.start_at: must be a string, not a number/],
    [
      'null as a note',
      { ...base, entries: [{ start_at: '2026-03-02T08:00:00Z', end_at: '2026-03-02T09:00:00Z', note: null }] },
      /entries\[1\]\.note: must be a string, not null/,
    ],
    [
      'an entry that is not an object',
      { ...base, entries: [null, 'x'] },
      /entries\[1\]: must be an object, not null[\s\S]*entries\[2\]: must be an object, not a string/,
    ],
    ['an array as the e-mail', { ...base, user: { ...base.user, email: ['x@example.com'] } }, /user\.email: must be a string, not an array/],
    [
      'a number as the region',
      { ...base, settings: { ...base.settings, holiday_region: 5 } },
      /settings\.holiday_region: must be a string or null, not a number/,
    ],
    [
      'text as a day target',
      { ...base, settings: { ...base.settings, weekly_target_minutes: { mon: '8h' } } },
      /settings\.weekly_target_minutes\.mon: must be a whole number, not a string/,
    ],
    ['an unknown zone', { ...base, settings: { ...base.settings, timezone: 'Mars/Base' } }, /settings\.timezone: timezone must be an IANA time zone/],
    [
      'an end before the start',
      { ...base, entries: [{ start_at: '2026-03-02T09:00:00Z', end_at: '2026-03-02T08:00:00Z' }] },
      /entries\[1\]\.end_at: end_at must be after start_at/,
    ],
    [
      'two absences on one day',
      { ...base, absences: [base.absences[0], base.absences[0]] },
      /absences\[2\]\.date: 2026-03-05 is also the date of absences\[1\]/,
    ],
    ['entries that are not a list', { ...base, entries: { a: 1 } }, /entries: must be an array, not an object/],
    ['no user at all', { ...base, user: undefined }, /user: must be an object, not missing/],
    ['another format', { format: 'something', version: 1 }, /not an account document/],
  ];
  // The first case through the binary, the others through the same bundle in process (docs/testing.md, "How fast").
  for (const [index, [name, document, message]] of cases.entries()) {
    it(name, async () => {
      const result = await (index === 0 ? cli : cliInProcess)(db, ['user', 'import', documentFile(document)]);
      expectFailure(result, 1, message);
      expect(String(result.stderr)).not.toMatch(/unexpected error/i);
      expect(await counts('new@example.com')).toBeUndefined();
    });
  }

  it('broken JSON names the place', async () => {
    const result = await cliInProcess(db, ['user', 'import', documentFile('{"format": "timetrack-account", "version": 1,\n "user": {"email": }')]);
    expectFailure(result, 1, /account\.json is not valid JSON at line 2, column 20 \(/);
  });

  it('a file over the limit is refused before it is read', async () => {
    const file = path.join(dir, 'huge.json');
    fs.writeFileSync(file, '');
    fs.truncateSync(file, MAX_ACCOUNT_DOCUMENT_BYTES + 1);
    expectFailure(await cliInProcess(db, ['user', 'import', file]), 1, new RegExp(`huge\\.json is larger than ${MAX_ACCOUNT_DOCUMENT_BYTES} bytes`));
    fs.rmSync(file);
  });

  it('--json puts the problems into its one error', async () => {
    const result = await cliInProcess(db, ['--json', 'user', 'import', documentFile({ ...base, entries: [{ start_at: 5 }] })]);
    expect(result.exitCode).toBe(1);
    const error = JSON.parse(String(result.stderr)) as { error: { code: string; message: string } };
    expect(error.error.code).toBe('VALIDATION_ERROR');
    expect(error.error.message).toMatch(/entries\[1\]\.start_at: must be a string, not a number/);
  });
});

describe('entries import of bad and huge CSV files', () => {
  function csvFile(lines: string[]): string {
    const file = path.join(dir, 'entries.csv');
    fs.writeFileSync(file, `${lines.join('\n')}\n`);
    return file;
  }

  it('200,000 rows: one line saying how many an account keeps', async () => {
    const first = Date.UTC(2001, 0, 1);
    const rows = Array.from(
      { length: 200_000 },
      (_, i) => `${new Date(first + i * 600_000).toISOString()},${new Date(first + i * 600_000 + 300_000).toISOString()},`,
    );
    const file = csvFile(['start_at,end_at,note', ...rows]);
    expect(fs.statSync(file).size).toBeLessThan(10 * 1024 * 1024);
    const result = await cli(db, ['entries', 'import', '--user', 'carla@example.com', file]);
    expectFailure(result, 1, /line 1: 200000 entries to import, and an account keeps at most 50000; split the file/);
    expect(String(result.stderr).trim().split('\n')).toHaveLength(2);
  }, 120_000);

  it('bad rows: each named by its line, at most 20 of them and a count of the rest', async () => {
    const rows = Array.from({ length: 30 }, (_, i) => `2026-03-${String(i + 1).padStart(2, '0')}T08:00:00,soon,row ${i}`);
    const result = await cliInProcess(db, ['entries', 'import', '--user', 'carla@example.com', csvFile(['start_at,end_at,note', ...rows])]);
    expect(result.exitCode).toBe(1);
    const lines = String(result.stderr).trim().split('\n');
    expect(lines[0]).toMatch(/entries\.csv: line 2: start_at must be an ISO 8601 instant with a zone designator/);
    expect(lines[19]).toMatch(/line 21: start_at/);
    expect(lines[20]).toMatch(/… and 10 more problem\(s\)/);
    expect(lines[21]).toMatch(/30 bad row\(s\) in .*entries\.csv; nothing was written/);
    expect(String(result.stderr)).not.toMatch(/unexpected error|\n\s+at /i);
  });

  it('a file too large on standard input is refused without reading it all', async () => {
    const result = await cli(db, ['entries', 'import', '--user', 'carla@example.com', '-'], { input: 'x'.repeat(10 * 1024 * 1024 + 10) });
    expectFailure(result, 1, /standard input is larger than 10485760 bytes/);
  });
});
