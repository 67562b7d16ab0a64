// One account's data must not take the server down (docs/security.md, "one user's data as a load"),
// against real `serve` processes: exports stream with bounded memory whatever the reader's pace, one
// export per account generated at a time (409 EXPORT_RUNNING, also across the CSV and the document), budgets
// per account on exports and statistics (429 RATE_LIMITED with Retry-After), quotas on absences and
// sessions.
// Statistics from 1970 that never hold the event loop for long: test/stress/statistics-event-loop.test.ts.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../support/app.js';
import { PROJECT_ROOT } from '../support/cli.js';
import { createAccountWithCli, tempDb } from '../support/cli-accounts.js';
import { queryRows } from '../support/database.js';
import { fullAccountsDb } from '../support/full-account-copies.js';
import { login, request } from '../support/requests.js';
import { startServer, type RunningServer } from '../support/server.js';

const ACCOUNTS = 4;
const ENTRIES = 10_000;
const NOTE_LENGTH = 1000;

const MEMORY_PROBE = path.join(PROJECT_ROOT, 'test/support/memory-probe.mjs');

/** What a server started with the memory probe holds after a full garbage collection: its heap and its buffers, in bytes. */
async function heldBytes(server: RunningServer, probeFile: string): Promise<number> {
  fs.rmSync(probeFile, { force: true });
  server.process.kill('SIGUSR2');
  await expect.poll(() => fs.existsSync(probeFile), { interval: 20, timeout: 10_000 }).toBe(true);
  const usage = JSON.parse(fs.readFileSync(probeFile, 'utf8')) as NodeJS.MemoryUsage;
  return usage.heapUsed + usage.external;
}

/** A GET whose body is not read: the answer's status and headers, and a way to read the rest or drop it. */
function openUnread(server: RunningServer, path: string, token: string) {
  const url = new URL(path, server.baseUrl);
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; readAll: () => Promise<string>; drop: () => void }>((resolve, reject) => {
    const req = http.get({ host: url.hostname, port: url.port, path: url.pathname, headers: { authorization: `Bearer ${token}` } }, (response) => {
      response.pause();
      resolve({
        status: response.statusCode ?? 0,
        headers: response.headers,
        readAll: () =>
          new Promise<string>((done, fail) => {
            const pieces: Buffer[] = [];
            response.on('data', (piece: Buffer) => pieces.push(piece));
            response.on('end', () => done(Buffer.concat(pieces).toString('utf8')));
            response.on('error', fail);
            response.resume();
          }),
        drop: () => req.destroy(),
      });
    });
    req.on('error', (error) => (error.message.includes('socket hang up') ? undefined : reject(error)));
  });
}

describe('exports of full accounts', () => {
  let db: string;
  let server: RunningServer;
  let probeFile: string;
  const tokens: string[] = [];
  let other: string;

  beforeAll(async () => {
    db = await fullAccountsDb(
      Array.from({ length: ACCOUNTS }, (_, i) => `full${i}@example.com`),
      { entries: ENTRIES, noteLength: NOTE_LENGTH },
    );
    // An account with nothing to export: the other account that exports while one generates.
    await createAccountWithCli(db, 'other@example.com');
    probeFile = path.join(makeTempDir(), 'memory.json');
    server = await startServer(db, { LOG_LEVEL: 'warn', MEMORY_PROBE_FILE: probeFile }, [], ['--expose-gc', '--import', MEMORY_PROBE]);
    for (let i = 0; i < ACCOUNTS; i += 1) tokens.push(await login(server, `full${i}@example.com`));
    other = await login(server, 'other@example.com');
  }, 300_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('streams each account document with bounded memory while its readers do not read', async () => {
    // A whole export first: the code is warm and the heap at its working size.
    const warm = await request(server, 'GET', '/api/settings/export', { token: tokens[0]! });
    expect(warm.statusCode).toBe(200);
    const documentBytes = Buffer.byteLength(warm.body);
    expect(documentBytes).toBeGreaterThan(ENTRIES * NOTE_LENGTH);
    expect(warm.json().entries).toHaveLength(ENTRIES);
    const before = await heldBytes(server, probeFile);
    // One after another: all from this one address, which takes at most 2 places at once while generating.
    const exports = [];
    for (const token of tokens) exports.push(await openUnread(server, '/api/settings/export', token));
    await expect.poll(async () => (await queryRows(db, 'select user_id from export_leases')).length, { interval: 20, timeout: 30_000 }).toBe(0);
    const grown = (await heldBytes(server, probeFile)) - before;
    console.log(`${ACCOUNTS} exports of ${(documentBytes / 1e6).toFixed(1)} MB each, unread: the server holds ${(grown / 1e6).toFixed(1)} MB more`);
    // Held in memory, the unread documents would all be there (ACCOUNTS × documentBytes). Spooled, each
    // export holds a file and a stream's buffer: together less than a single document.
    expect(grown).toBeLessThan(documentBytes);
    // Spooled whole first, each is sent from its file with its length.
    for (const opened of exports) {
      expect(opened.status).toBe(200);
      expect(Number(opened.headers['content-length'])).toBe(documentBytes);
    }
    // Read at last, every document is whole.
    for (const opened of exports) expect(JSON.parse(await opened.readAll()).entries).toHaveLength(ENTRIES);
  }, 120_000);

  it('generates one export per account at a time: a second at once is 409 EXPORT_RUNNING (CSV or document), another account exports meanwhile', async () => {
    const token = tokens[1]!;
    for (const [firstPath, secondPath] of [
      ['/api/time-entries/export', '/api/settings/export'],
      ['/api/settings/export', '/api/time-entries/export'],
    ]) {
      // The first is generated (about 10 MB) while the second arrives: the second is sent once the first
      // holds its lease (a fixed delay raced the generation on a loaded machine). Another account's export
      // runs beside it (the second place of this one address, free again once the second was refused): one
      // with nothing to export, whose place and lease are its own all the same.
      const firstAnswer = request(server, 'GET', firstPath!, { token });
      await expect.poll(async () => (await queryRows(db, 'select user_id from export_leases')).length, { interval: 5, timeout: 30_000 }).toBe(1);
      const second = await request(server, 'GET', secondPath!, { token });
      const [first, another] = await Promise.all([firstAnswer, request(server, 'GET', '/api/time-entries/export', { token: other })]);
      expect(first.statusCode, firstPath).toBe(200);
      expect(another.statusCode).toBe(200);
      expect(second.statusCode, secondPath).toBe(409);
      expect(second.json()).toMatchObject({ code: 'EXPORT_RUNNING' });
      expect(Number(second.headers['retry-after'])).toBeGreaterThan(0);
    }
    // The lease is given back when generation ends, and an export that ran to its end leaves none behind.
    expect((await request(server, 'GET', '/api/settings/export', { token })).statusCode).toBe(200);
    expect(await queryRows(db, 'select user_id from export_leases')).toEqual([]);
  }, 60_000);
});

describe('budgets and quotas per account', () => {
  let db: string;
  let server: RunningServer;

  beforeAll(async () => {
    db = tempDb();
    for (const email of ['ann@example.com', 'bob@example.com']) await createAccountWithCli(db, email);
    server = await startServer(db, { LOG_LEVEL: 'warn', RATE_LIMIT_EXPORT: '2', RATE_LIMIT_STATS: '5' });
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('refuses a third export an hour and a sixth statistics request a minute with 429 RATE_LIMITED and Retry-After; others are not affected', async () => {
    const ann = await login(server, 'ann@example.com');
    const bob = await login(server, 'bob@example.com');
    expect((await request(server, 'GET', '/api/time-entries/export', { token: ann })).statusCode).toBe(200);
    expect((await request(server, 'GET', '/api/settings/export', { token: ann })).statusCode).toBe(200);
    const third = await request(server, 'GET', '/api/time-entries/export', { token: ann });
    expect(third.statusCode).toBe(429);
    expect(third.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect(Number(third.headers['retry-after'])).toBeGreaterThan(3000);
    // Another session of the same account shares the budget; another account has its own.
    const annAgain = await login(server, 'ann@example.com');
    expect((await request(server, 'GET', '/api/settings/export', { token: annAgain })).statusCode).toBe(429);
    expect((await request(server, 'GET', '/api/settings/export', { token: bob })).statusCode).toBe(200);

    for (const path of ['/api/stats/overtime', '/api/stats/today', '/api/stats/week', '/api/stats/overtime', '/api/stats/week?date=2026-01-05']) {
      expect((await request(server, 'GET', path, { token: ann })).statusCode, path).toBe(200);
    }
    const sixth = await request(server, 'GET', '/api/stats/today', { token: ann });
    expect(sixth.statusCode).toBe(429);
    expect(sixth.json()).toMatchObject({ code: 'RATE_LIMITED' });
    expect(Number(sixth.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(sixth.headers['retry-after'])).toBeLessThanOrEqual(60);
    expect((await request(server, 'GET', '/api/stats/today', { token: bob })).statusCode).toBe(200);
    // Without a session the answers of the contract, never counted against an account.
    expect((await request(server, 'GET', '/api/stats/week?region=DE-BY')).statusCode).toBe(200);
  });

  it('keeps at most 10,000 absences (409 TOO_MANY_ABSENCES)', async () => {
    const token = await login(server, 'bob@example.com');
    const [bob] = await queryRows<{ id: number }>(db, 'select id from users where email = ?', ['bob@example.com']);
    // 9,999 planted days (from 1990 on), then the API adds the last one and refuses the next.
    const first = Date.UTC(1990, 0, 1);
    for (let start = 0; start < 9_999; start += 500) {
      const rows = Array.from({ length: Math.min(500, 9_999 - start) }, (_, i) => new Date(first + (start + i) * 86_400_000).toISOString().slice(0, 10));
      await queryRows(
        db,
        `insert into absences (user_id, date, type, note, created_at) values ${rows.map(() => "(?, ?, 'vacation', '', '2026-01-01T00:00:00.000Z')").join(', ')}`,
        rows.flatMap((date) => [bob!.id, date]),
      );
    }
    const last = await request(server, 'POST', '/api/time-entries/absences', { token, payload: { date: '2060-01-01', type: 'sick' } });
    expect(last.statusCode).toBe(201);
    const over = await request(server, 'POST', '/api/time-entries/absences', { token, payload: { date: '2060-01-02', type: 'sick' } });
    expect(over.statusCode).toBe(409);
    expect(over.json()).toMatchObject({ code: 'TOO_MANY_ABSENCES' });
    // A balance over all of them still answers.
    expect((await request(server, 'GET', '/api/stats/overtime', { token })).statusCode).toBe(200);
  });

  it('keeps at most 10,000 bookings (409 TOO_MANY_BOOKINGS)', async () => {
    const token = await login(server, 'bob@example.com');
    const [bob] = await queryRows<{ id: number }>(db, 'select id from users where email = ?', ['bob@example.com']);
    for (let start = 0; start < 9_999; start += 500) {
      const count = Math.min(500, 9_999 - start);
      await queryRows(
        db,
        `insert into bookings (user_id, date, minutes, kind, note, created_at) values ${Array.from({ length: count }, () => "(?, '2026-01-05', -1, 'payout', '', '2026-01-01T00:00:00.000Z')").join(', ')}`,
        Array.from({ length: count }, () => bob!.id),
      );
    }
    const last = await request(server, 'POST', '/api/time-entries/bookings', { token, payload: { date: '2026-01-06', minutes: 30, kind: 'correction' } });
    expect(last.statusCode).toBe(201);
    const over = await request(server, 'POST', '/api/time-entries/bookings', { token, payload: { date: '2026-01-07', minutes: 30, kind: 'correction' } });
    expect(over.statusCode).toBe(409);
    expect(over.json()).toMatchObject({ code: 'TOO_MANY_BOOKINGS' });
  });

  it('keeps at most 50 sessions: the 51st sign-in revokes the oldest', async () => {
    const tokens: string[] = [];
    for (let i = 0; i < 51; i += 1) tokens.push(await login(server, 'ann@example.com'));
    expect((await request(server, 'GET', '/api/auth/me', { token: tokens[0]! })).statusCode).toBe(401);
    for (const token of [tokens[1]!, tokens[50]!]) expect((await request(server, 'GET', '/api/auth/me', { token })).statusCode).toBe(200);
    const [{ count }] = (await queryRows<{ count: number }>(
      db,
      "select count(*) as count from auth_tokens where user_id = (select id from users where email = 'ann@example.com')",
    )) as [{ count: number }];
    expect(Number(count)).toBe(50);
  }, 120_000);
});
