// The bounds of a spooled export (docs/security.md, "one user's data as a load"), through the
// application listening on a real socket, with the bounds narrowed: past the size cap or the
// generation time the export is refused with 503 BUSY, its file removed, its place and lease free and
// its try not charged to RATE_LIMIT_EXPORT;
// a download that takes longer than the sending bound is cut and its file removed; all the spool files
// of a process together hold a bounded number of bytes.
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/http/app.js';
import type { SpoolLimits } from '../../src/http/export-spool.js';
import { createTestApp, makeTempDir, type TestApp } from '../support/app.js';
import { signIn, type SignedIn } from '../support/requests.js';

// About 11 MB of CSV: more than the socket buffers take, so an unread download stays open.
const ENTRIES = 10_000;
const NOW = '2026-03-10T12:00:00.000Z';

let t: TestApp;
let ann: SignedIn;
const apps: App[] = [];

beforeAll(async () => {
  // Two exports an hour: the tries refused with 503 below are given back, or the third would be 429.
  t = await createTestApp({ env: { RATE_LIMIT_EXPORT: '2' } });
  t.clock.set(NOW);
  ann = await signIn(t);
  const base = Date.parse('2020-01-01T00:00:00Z');
  const rows = Array.from({ length: ENTRIES }, (_, i) => ({
    user_id: ann.userId,
    start_at: new Date(base + i * 3_600_000).toISOString(),
    end_at: new Date(base + i * 3_600_000 + 1_800_000).toISOString(),
    note: 'n'.repeat(1000),
    created_at: NOW,
    updated_at: NOW,
  }));
  for (let first = 0; first < ENTRIES; first += 500)
    await t.ctx.db
      .insertInto('time_entries')
      .values(rows.slice(first, first + 500))
      .execute();
}, 60_000);
afterAll(async () => {
  for (const app of apps) await app.close();
  await t.close();
});

/** The application with narrowed spool bounds, listening; its spool folder. */
async function listening(limits: Partial<SpoolLimits>): Promise<{ port: number; folder: string }> {
  const folder = path.join(makeTempDir('timetrack-spool-'), 'exports');
  const app = await buildApp(t.ctx, { exportSpool: { folder, ...limits } });
  apps.push(app);
  await app.listen({ port: 0, host: '127.0.0.1' });
  return { port: (app.server.address() as AddressInfo).port, folder };
}

/** A GET over the socket: its status and body, or (unread) its length and a way to read what comes until the end or a cut. */
function get(port: number, url: string, read = true) {
  return new Promise<{ status: number; body: string; length: number; readAll: () => Promise<{ bytes: number; complete: boolean }> }>((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port, path: url, headers: { authorization: `Bearer ${ann.token}` } }, (response) => {
      const pieces: Buffer[] = [];
      const length = Number(response.headers['content-length']);
      const readAll = () =>
        new Promise<{ bytes: number; complete: boolean }>((done) => {
          const finish = () => done({ bytes: Buffer.concat(pieces).length, complete: response.complete });
          response.on('end', finish);
          response.on('error', finish);
          response.resume();
        });
      response.on('data', (piece: Buffer) => pieces.push(piece));
      if (!read) {
        response.pause();
        resolve({ status: response.statusCode ?? 0, body: '', length, readAll });
        return;
      }
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body: Buffer.concat(pieces).toString('utf8'), length, readAll }));
    });
    req.on('error', reject);
  });
}

const spooled = (folder: string) => (fs.existsSync(folder) ? fs.readdirSync(folder) : []);
const leases = async () => t.ctx.db.selectFrom('export_leases').selectAll().execute();

describe('the bounds of a spooled export', () => {
  it('refuses an export larger than the cap with 503 BUSY, removes its file and frees its place and lease', async () => {
    const { port, folder } = await listening({ maxBytes: 200_000 });
    // More tries than there are places (and than the budget of 2): none is left taken or charged by the one before.
    for (const url of ['/api/time-entries/export', '/api/settings/export', '/api/time-entries/export', '/api/settings/export', '/api/time-entries/export']) {
      const refused = await get(port, url);
      expect(refused.status, url).toBe(503);
      expect(JSON.parse(refused.body)).toMatchObject({ code: 'BUSY', message: expect.stringContaining('larger') });
    }
    expect(spooled(folder)).toEqual([]);
    expect(await leases()).toEqual([]);
    const { port: wide } = await listening({});
    expect((await get(wide, '/api/time-entries/export')).status).toBe(200);
  }, 60_000);

  it('refuses an export whose generation takes longer than the bound with 503 BUSY and removes its file', async () => {
    const { port, folder } = await listening({ generationMs: 0 });
    const refused = await get(port, '/api/settings/export');
    expect(refused.status).toBe(503);
    expect(JSON.parse(refused.body)).toMatchObject({ code: 'BUSY', message: expect.stringContaining('longer') });
    expect(spooled(folder)).toEqual([]);
    expect(await leases()).toEqual([]);
  }, 60_000);

  it('cuts a download that takes longer than the sending bound, long before the stall cut, and removes its file', async () => {
    const { port, folder } = await listening({ sendMs: 1000 });
    const held = await get(port, '/api/time-entries/export', false);
    expect(held.status).toBe(200);
    expect(spooled(folder)).toHaveLength(1);
    // Cut after a second (the stall cut would wait 60 s): the file goes at once, and what the client
    // reads then ends short of the length it was promised.
    await expect.poll(() => spooled(folder), { timeout: 10_000 }).toEqual([]);
    const { bytes, complete } = await held.readAll();
    expect(complete).toBe(false);
    expect(bytes).toBeLessThan(held.length);
  }, 60_000);

  it("refuses an export with 503 BUSY while the process's spool files hold the most they may, and takes it again once they are gone", async () => {
    // A new hour of the budget of two: this test's two exports are its own.
    t.clock.set('2026-03-10T15:00:00.000Z');
    // Room for one export of about 11 MB, not for two.
    const { port, folder } = await listening({ maxHeldBytes: 15_000_000 });
    const held = await get(port, '/api/time-entries/export', false);
    expect(held.status).toBe(200);
    expect(spooled(folder)).toHaveLength(1);
    const refused = await get(port, '/api/time-entries/export');
    expect(refused.status).toBe(503);
    expect(JSON.parse(refused.body)).toMatchObject({ code: 'BUSY', message: expect.stringContaining('other exports') });
    expect(spooled(folder)).toHaveLength(1);
    expect(await leases()).toEqual([]);
    // The first download read to its end: its file and its bytes are given back.
    expect((await held.readAll()).complete).toBe(true);
    await expect.poll(() => spooled(folder), { timeout: 10_000 }).toEqual([]);
    const again = await get(port, '/api/time-entries/export');
    expect(again.status).toBe(200);
    expect(again.body.length).toBe(held.length);
  }, 60_000);
});
