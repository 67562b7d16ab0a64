// Slow readers of exports (docs/security.md, "one user's data as a load"), against a real `serve`
// behind a trusted proxy (TRUST_PROXY, X-Forwarded-For names two client addresses): an export is
// spooled into a 0600 file first, so its place and the account's lease are free once it is
// generated, however slowly its client reads; one address takes at most 2 of the 4 places; the
// spool files are gone once sent or dropped, and a crashed process's files at the next start.
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../support/app.js';
import { fullAccountsDb, importFullAccount } from '../support/full-account-copies.js';
import { login, request } from '../support/requests.js';
import { startServer, type RunningServer } from '../support/server.js';

const SLOW = ['slow0@example.com', 'slow1@example.com', 'slow2@example.com', 'slow3@example.com'];
const ADDRESS_A = '203.0.113.10';
const ADDRESS_B = '198.51.100.20';

/** A GET from `address` whose body is not read (about 10 MB: more than the socket buffers take). */
function openUnread(server: RunningServer, urlPath: string, token: string, address: string) {
  const url = new URL(urlPath, server.baseUrl);
  const headers = { authorization: `Bearer ${token}`, 'x-forwarded-for': address };
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders; drop: () => void }>((resolve, reject) => {
    const req = http.get({ host: url.hostname, port: url.port, path: url.pathname, headers }, (response) => {
      response.pause();
      resolve({ status: response.statusCode ?? 0, headers: response.headers, drop: () => req.destroy() });
    });
    req.on('error', (error) => (error.message.includes('socket hang up') ? undefined : reject(error)));
  });
}

function from(address: string, token: string) {
  return { token, headers: { 'x-forwarded-for': address } };
}

/** The spool files in `folder`, with their modes. */
function spoolFiles(folder: string): Array<{ name: string; mode: number }> {
  if (!fs.existsSync(folder)) return [];
  return fs.readdirSync(folder).map((name) => ({ name, mode: fs.statSync(path.join(folder, name)).mode & 0o777 }));
}

/** A process id that no process has now. */
function deadPid(): number {
  for (let pid = 4_000_000; ; pid -= 1) {
    try {
      process.kill(pid, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ESRCH') return pid;
    }
  }
}

describe('exports spooled before they are sent', () => {
  let server: RunningServer;
  let folder: string;
  const tokens = new Map<string, string>();
  const planted = { dead: '', alive: '' };

  beforeAll(async () => {
    const db = await fullAccountsDb(SLOW, { entries: 10_000, noteLength: 1000 });
    await importFullAccount(db, 'other@example.com', { entries: 2_000, noteLength: 100 });
    const tmp = makeTempDir('timetrack-spool-');
    folder = path.join(tmp, `timetrack-exports-${process.getuid!()}`);
    // Left by a process that is gone (removed at the start), and by one that runs (kept).
    fs.mkdirSync(folder, { mode: 0o700 });
    planted.dead = `${deadPid()}-leftover.spool`;
    planted.alive = `${process.pid}-live.spool`;
    for (const name of [planted.dead, planted.alive]) fs.writeFileSync(path.join(folder, name), 'x', { mode: 0o600 });
    server = await startServer(db, { LOG_LEVEL: 'warn', TRUST_PROXY: 'true', TMPDIR: tmp });
    for (const email of [...SLOW, 'other@example.com']) tokens.set(email, await login(server, email));
  }, 300_000);
  afterAll(async () => {
    await server?.stop();
  });

  it('removes at start the spool files of processes that are gone, and keeps those of a live process', () => {
    const names = spoolFiles(folder).map(({ name }) => name);
    expect(names).not.toContain(planted.dead);
    expect(names).toContain(planted.alive);
    fs.rmSync(path.join(folder, planted.alive));
  });

  it("four slow readers from one address hold no export place: another account from another address exports, and so does a slow reader's own account", async () => {
    // One after another, each answered once generated: four downloads of about 10 MB held unread.
    const held = [];
    for (const email of SLOW) {
      const opened = await openUnread(server, '/api/time-entries/export', tokens.get(email)!, ADDRESS_A);
      expect(opened.status, email).toBe(200);
      expect(Number(opened.headers['content-length'])).toBeGreaterThan(10_000_000);
      held.push(opened);
    }
    // The places (4 per process) and the leases are free while the four are not read.
    const other = await request(server, 'GET', '/api/settings/export', from(ADDRESS_B, tokens.get('other@example.com')!));
    expect(other.statusCode).toBe(200);
    expect(other.json().entries).toHaveLength(2_000);
    const again = await request(server, 'GET', '/api/settings/export', from(ADDRESS_A, tokens.get(SLOW[0]!)!));
    expect(again.statusCode).toBe(200);
    expect(again.json().entries).toHaveLength(10_000);
    // Each download is a file of its own, readable by this user only, in a folder closed to others.
    const files = spoolFiles(folder);
    // (The whole reads above left none.)
    expect(files).toHaveLength(SLOW.length);
    for (const file of files) expect(file.mode, file.name).toBe(0o600);
    expect(fs.statSync(folder).mode & 0o777).toBe(0o700);
    // The dropped downloads take theirs with them.
    for (const opened of held) opened.drop();
    await expect.poll(() => spoolFiles(folder).length, { timeout: 10_000 }).toBe(0);
  }, 120_000);

  it('gives one address at most 2 of the 4 places: its third and fourth export at once are 503 BUSY, another address still gets one', async () => {
    // Four accounts from one address at once (each about 10 MB to generate), another address just after.
    const fromA = Promise.all(SLOW.map((email) => request(server, 'GET', '/api/time-entries/export', from(ADDRESS_A, tokens.get(email)!))));
    await new Promise((resolve) => setTimeout(resolve, 150));
    const fromB = await request(server, 'GET', '/api/time-entries/export', from(ADDRESS_B, tokens.get('other@example.com')!));
    const answersA = await fromA;
    expect(fromB.statusCode).toBe(200);
    const statuses = answersA.map((answer) => answer.statusCode).sort();
    expect(statuses).toEqual([200, 200, 503, 503]);
    for (const refused of answersA.filter((answer) => answer.statusCode === 503)) {
      expect(refused.json()).toMatchObject({ code: 'BUSY' });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    }
    await expect.poll(() => spoolFiles(folder).length, { timeout: 10_000 }).toBe(0);
  }, 120_000);
});
