// Exports refused and cut (docs/security.md, "one user's data as a load"), against a real `serve`:
// while one export of the account is generated, the tries refused with 409 EXPORT_RUNNING
// are not counted against the account's export budget (RATE_LIMIT_EXPORT), so a refused try costs
// its owner nothing; and an export being sent ends when its session is revoked.
import http from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fullAccountsDb } from '../support/full-account-copies.js';
import { login, request } from '../support/requests.js';
import { startServer, type RunningServer } from '../support/server.js';

/** A GET whose body is not read (the export holds its lease); `drop` ends it, `readAll` reads what comes until the end or a cut. */
function openUnread(server: RunningServer, path: string, token: string) {
  const url = new URL(path, server.baseUrl);
  return new Promise<{ status: number; drop: () => void; readAll: () => Promise<{ text: string; complete: boolean }> }>((resolve, reject) => {
    const req = http.get({ host: url.hostname, port: url.port, path: url.pathname, headers: { authorization: `Bearer ${token}` } }, (response) => {
      response.pause();
      const readAll = () =>
        new Promise<{ text: string; complete: boolean }>((done) => {
          const pieces: Buffer[] = [];
          response.on('data', (piece: Buffer) => pieces.push(piece));
          response.on('end', () => done({ text: Buffer.concat(pieces).toString('utf8'), complete: response.complete }));
          response.on('error', () => done({ text: Buffer.concat(pieces).toString('utf8'), complete: false }));
          response.resume();
        });
      resolve({ status: response.statusCode ?? 0, drop: () => req.destroy(), readAll });
    });
    req.on('error', (error) => (error.message.includes('socket hang up') ? undefined : reject(error)));
  });
}

describe('the export budget and refused tries', () => {
  let server: RunningServer;
  let token: string;

  beforeAll(async () => {
    // About 10 MB of CSV: far more than the socket buffers take, so an unread export stays open.
    const db = await fullAccountsDb(['held@example.com', 'revoked@example.com'], { entries: 10_000, noteLength: 1000 });
    server = await startServer(db, { LOG_LEVEL: 'warn', RATE_LIMIT_EXPORT: '2' });
    token = await login(server, 'held@example.com');
  }, 300_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('does not count the tries refused with 409 EXPORT_RUNNING: after them the second export of the hour still runs, the third is 429', async () => {
    // One is generated (about 10 MB: longer than the tries below take); meanwhile two tries are
    // refused, one after another (409: its lease; a refusal's count is given back when it is answered).
    const first = request(server, 'GET', '/api/time-entries/export', { token });
    await new Promise((resolve) => setTimeout(resolve, 100));
    for (const path of ['/api/settings/export', '/api/time-entries/export']) {
      const refused = await request(server, 'GET', path, { token });
      expect(refused.statusCode, path).toBe(409);
      expect(refused.json()).toMatchObject({ code: 'EXPORT_RUNNING' });
    }
    expect((await first).statusCode).toBe(200);
    // The refused tries were given back: one export of the budget of 2 is left.
    const second = await request(server, 'GET', '/api/settings/export', { token });
    expect(second.statusCode).toBe(200);
    const third = await request(server, 'GET', '/api/time-entries/export', { token });
    expect(third.statusCode).toBe(429);
    expect(third.json()).toMatchObject({ code: 'RATE_LIMITED' });
  }, 60_000);

  it('ends an export in flight when its session is signed out: the body is cut short and the lease given back', async () => {
    const doomed = await login(server, 'revoked@example.com');
    const held = await openUnread(server, '/api/time-entries/export', doomed);
    expect(held.status).toBe(200);
    expect((await request(server, 'POST', '/api/auth/logout', { token: doomed })).statusCode).toBeLessThan(300);
    const { text, complete } = await held.readAll();
    expect(complete).toBe(false);
    // Far fewer than the 10,000 rows (one line each, plus the header) arrive.
    expect(text.split('\n').length).toBeLessThan(5000);
    // The lease is free again for the account's other session.
    const fresh = await login(server, 'revoked@example.com');
    await expect.poll(async () => (await request(server, 'GET', '/api/settings/export', { token: fresh })).statusCode, { timeout: 5000 }).not.toBe(409);
  }, 60_000);
});
