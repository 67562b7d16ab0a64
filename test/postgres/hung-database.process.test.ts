// A PostgreSQL server that hangs (accepts, then answers nothing; not a refusal) under a real `serve`:
// health answers 503 with Retry-After within its probe's timeout, not a late 200 once the hang ends
// (docs/security.md). The hang is a TCP proxy between `serve` and the test server that stops
// forwarding, as a stalled network or server would.
import net from 'node:net';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../support/app.js';
import { bindPostgresDatabase, createMigratedPostgresDatabase, onPostgres } from '../support/database.js';
import { startServer, type RunningServer } from '../support/server.js';

/** A proxy to `target` whose forwarding can be stopped (the bytes held, the sockets left open). */
async function hangingProxy(target: URL) {
  let hung = false;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port), target.hostname);
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on('error', () => undefined);
      socket.on('close', () => sockets.delete(socket));
    }
    client.on('data', (chunk) => (hung ? undefined : upstream.write(chunk)));
    upstream.on('data', (chunk) => (hung ? undefined : client.write(chunk)));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = new URL(target);
  url.port = String((server.address() as net.AddressInfo).port);
  return {
    url: url.toString(),
    hang: () => (hung = true),
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe.skipIf(!onPostgres)('a hung PostgreSQL under serve', () => {
  let server: RunningServer | undefined;
  let proxy: Awaited<ReturnType<typeof hangingProxy>> | undefined;
  afterAll(async () => {
    await server?.stop('SIGKILL');
    await proxy?.close();
  });

  it('makes health answer 503 with Retry-After within seconds, not a late 200', async () => {
    proxy = await hangingProxy(new URL(await createMigratedPostgresDatabase()));
    const dbPath = path.join(makeTempDir('timetrack-pg-hung-'), 'timetrack.db');
    bindPostgresDatabase(dbPath, proxy.url);
    server = await startServer(dbPath, { LOG_LEVEL: 'warn' });
    expect((await fetch(`${server.baseUrl}/api/health`)).status).toBe(200);
    proxy.hang();
    const started = Date.now();
    const health = await fetch(`${server.baseUrl}/api/health`, { signal: AbortSignal.timeout(15_000) });
    expect(health.status).toBe(503);
    expect(Number(health.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(((await health.json()) as { reason: string }).reason).toBe('database unavailable');
    // Well within the statement timeout (30 s by default): the probe's own short limit answered.
    expect(Date.now() - started).toBeLessThan(15_000);
  }, 60_000);
});
