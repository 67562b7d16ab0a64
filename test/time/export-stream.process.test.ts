// The export is a stream: 20,000 entries come out as the same CSV text the whole-file export wrote,
// read from the database a batch at a time (no query answers more than one batch), and the route
// sends it in pieces over a real socket (from its spool file, with its length), as does the CLI, byte for byte.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { stringify } from 'csv-stringify/sync';
import type { KyselyPlugin } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { localDateTimeOf } from '../../src/time/calendar/dates.js';
import { createEntryCsvService } from '../../src/time/entries/csv.js';
import { CSV_COLUMNS, EXPORT_BATCH_ROWS, EXPORT_PIECE_ROWS } from '../../src/time/entries/csv-text.js';
import { createExportGate } from '../../src/time/exports.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { runCli } from '../support/cli.js';
import { type SignedIn, signIn } from '../support/requests.js';
import { NO_MONTH_LOCK } from '../../src/time/month-lock.js';

const COUNT = 20_000;
const NOW = '2026-03-10T12:00:00.000Z';
const NOTES = ['plain', 'comma, "quotes" and\na second line', '=SUM(A1:A9)', "'quoted already", 'Überstunden ☕', ''];
const ZONE = 'Europe/Berlin';

let t: TestApp;
let ann: SignedIn;
beforeEach(async () => {
  t = await createTestApp();
  t.clock.set(NOW);
  ann = await signIn(t);
  await ann.call('PATCH', '/api/settings', { timezone: ZONE, timezone_valid_from: '1970-01-01' });
  const base = Date.parse('2020-01-01T00:00:00Z');
  const rows = Array.from({ length: COUNT }, (_, i) => ({
    user_id: ann.userId,
    start_at: new Date(base + i * 3_600_000).toISOString(),
    end_at: new Date(base + i * 3_600_000 + 1_800_000).toISOString(),
    note: NOTES[i % NOTES.length] as string,
    created_at: NOW,
    updated_at: NOW,
  }));
  for (let first = 0; first < COUNT; first += 1000)
    await t.ctx.db
      .insertInto('time_entries')
      .values(rows.slice(first, first + 1000))
      .execute();
});
afterEach(async () => {
  await t.close();
});

/** The CSV as the export wrote it before it streamed: every row at once, through one stringify call. */
async function wholeFileCsv(): Promise<string> {
  const rows = await t.ctx.db.selectFrom('time_entries').selectAll().where('user_id', '=', ann.userId).orderBy('start_at').execute();
  const local = (iso: string | null) => (iso === null ? '' : localDateTimeOf(Date.parse(iso), ZONE));
  const note = (text: string) => (/^[=+\-@\t\r']/.test(text) ? `'${text}` : text);
  return stringify(
    rows.map((row) => [row.id, row.start_at, row.end_at ?? '', local(row.start_at), local(row.end_at), note(row.note)]),
    { header: true, columns: [...CSV_COLUMNS] },
  );
}

/** GET over a real socket: the headers and the body pieces as they arrived. */
async function getOverSocket(url: string): Promise<{ headers: http.IncomingHttpHeaders; pieces: Buffer[] }> {
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = t.app.server.address() as AddressInfo;
  return new Promise((resolve, reject) => {
    http
      .get({ host: '127.0.0.1', port, path: url, headers: { authorization: `Bearer ${ann.token}` } }, (response) => {
        const pieces: Buffer[] = [];
        response.on('data', (piece: Buffer) => pieces.push(piece));
        response.on('end', () => resolve({ headers: response.headers, pieces }));
        response.on('error', reject);
      })
      .on('error', reject);
  });
}

it(`exports ${COUNT} entries as the same CSV, read ${EXPORT_BATCH_ROWS} rows at a time, in pieces of ${EXPORT_PIECE_ROWS}`, async () => {
  const expected = await wholeFileCsv();
  let largest = 0;
  const watch: KyselyPlugin = {
    transformQuery: (args) => args.node,
    transformResult: async (args) => {
      largest = Math.max(largest, args.result.rows.length);
      return args.result;
    },
  };
  const { settings, timeEntries } = t.ctx.services;
  const database = { ...t.ctx.database, db: t.ctx.db.withPlugin(watch) };
  const csv = await createEntryCsvService({
    database,
    clock: t.clock,
    monthLock: NO_MONTH_LOCK,
    settings,
    timeEntries,
    exports: createExportGate({ database, clock: t.clock }),
  }).exportCsv({ userId: ann.userId }, {});
  const pieces: string[] = [];
  for await (const piece of csv.pieces) pieces.push(piece);
  expect(pieces.join('')).toBe(expected);
  expect(pieces).toHaveLength(COUNT / EXPORT_PIECE_ROWS);
  expect(largest).toBe(EXPORT_BATCH_ROWS);
});

it('the route sends the spooled export over a real socket, with its length; the CLI prints the same bytes', async () => {
  const expected = await wholeFileCsv();
  const { headers, pieces } = await getOverSocket('/api/time-entries/export');
  expect(headers['transfer-encoding']).toBeUndefined();
  expect(Number(headers['content-length'])).toBe(Buffer.byteLength(expected));
  expect(headers['content-type']).toBe('text/csv; charset=utf-8');
  expect(pieces.length).toBeGreaterThan(1);
  expect(Buffer.concat(pieces).toString('utf8')).toBe(expected);

  const result = await runCli(['--db', t.dbPath, 'entries', 'export', '--user', 'ann@example.com']);
  expect(result.exitCode).toBe(0);
  // execa drops the last line break.
  expect(`${String(result.stdout)}\n`).toBe(expected);
});

it('an empty range still answers the header alone', async () => {
  const csv = await t.ctx.services.entriesCsv.exportCsv({ userId: ann.userId }, { from: '2030-01-01' });
  const pieces: string[] = [];
  for await (const piece of csv.pieces) pieces.push(piece);
  expect(pieces.join('')).toBe(`${CSV_COLUMNS.join(',')}\n`);
});
