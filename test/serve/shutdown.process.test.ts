// SIGTERM answers every request that reached the server, and closes idle keep-alive connections
// (docs/security.md, "Shutdown"). A real `timetrack serve` with argon2id, so requests queue for hashing.
import http from 'node:http';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { makeTempDir, PASSWORD } from '../support/app.js';
import { startServer } from '../support/server.js';

/** One request on its own connection; resolves with the status or the socket error's code. */
function loginOnOwnConnection(baseUrl: string, password: string, sent: () => void): Promise<number | string> {
  return new Promise((resolve) => {
    const body = JSON.stringify({ email: 'ann@example.com', password });
    const request = http.request(
      `${baseUrl}/api/auth/login`,
      { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    request.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? 'error'));
    request.end(body, sent);
  });
}

describe('shutdown', () => {
  it('answers every request sent before SIGTERM (none reset) and exits 0', async () => {
    const server = await startServer(path.join(makeTempDir(), 'timetrack.db'), { HASH_CONCURRENCY: '1', LOCKOUT_ATTEMPTS: '1000' });
    const registered = await fetch(`${server.baseUrl}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'ann@example.com', password: PASSWORD, full_name: 'Ann' }),
    });
    expect(registered.status).toBe(201);
    let written = 0;
    // Twelve sign-ins queued behind one hashing slot: the drain waits for all of them. (They must fit
    // the 8 s grace of a shutdown also on a machine loaded by other work.)
    const answers = Array.from({ length: 12 }, (_, i) => loginOnOwnConnection(server.baseUrl, i % 2 ? PASSWORD : 'a wrong password', () => (written += 1)));
    while (written < 12) await new Promise((resolve) => setTimeout(resolve, 1));
    const stopped = server.stop('SIGTERM');
    const statuses = await Promise.all(answers);
    expect(statuses.filter((status) => typeof status !== 'number')).toEqual([]);
    expect(new Set(statuses)).toEqual(new Set([200, 401]));
    expect((await stopped).exitCode).toBe(0);
  });

  it('closes an idle keep-alive connection, and says Connection: close on answers during the drain', async () => {
    const server = await startServer(path.join(makeTempDir(), 'timetrack.db'));
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<{ connection: string | undefined; socketClosed: Promise<void> }>((resolve, reject) => {
        http
          .get(`${server.baseUrl}/api/health`, { agent }, (response) => {
            const socketClosed = new Promise<void>((done) => response.socket.once('close', () => done()));
            response.resume();
            response.on('end', () => resolve({ connection: response.headers.connection, socketClosed }));
          })
          .on('error', reject);
      });
    const first = await get();
    expect(first.connection).toBe('keep-alive');
    const stopped = server.stop('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 100));
    // The same idle connection, reused during the drain: answered, and told to close.
    const during = await get();
    expect(during.connection).toBe('close');
    await during.socketClosed;
    expect((await stopped).exitCode).toBe(0);
    agent.destroy();
  });
});
