// While `serve` applies migrations (or, on PostgreSQL, waits for another process that migrates), its
// address already answers: /api/ready and /api/health 503 with the reason, every other request 503
// DATABASE_UNAVAILABLE with Retry-After. A load balancer sees "not ready", not a refused connection.
// The real server takes the address over once the schema is this build's (src/http/lifecycle.ts).
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { markListenFailure } from '../common/errors.js';

export interface StartingListener {
  /** The port it listens on (the one asked for, or the one given for port 0). */
  port: number;
  /** Stops answering and frees the address for the real server. */
  close(): Promise<void>;
}

export interface StartingAbout {
  version: string;
  commit: string;
  engine: string;
}

const RETRY_AFTER_SECONDS = 5;

export async function listenWhileStarting(host: string, port: number, about: StartingAbout): Promise<StartingListener> {
  const server = http.createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    const probe = path === '/api/ready' || path === '/api/health';
    const body = probe
      ? { status: 'unavailable', reason: 'starting: the database schema is being migrated', ...about }
      : { error: { code: 'DATABASE_UNAVAILABLE', message: 'The server is starting (its database is being migrated); try again in a few seconds.' } };
    response.writeHead(503, {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      'retry-after': String(RETRY_AFTER_SECONDS),
      'x-content-type-options': 'nosniff',
      connection: 'close',
    });
    response.end(request.method === 'HEAD' ? undefined : JSON.stringify(body));
  });
  // A request that never ends must not hold the start (the real server has its own timeouts).
  server.requestTimeout = 5_000;
  server.headersTimeout = 5_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => {
      // The same failure as the real server's listen: the CLI names the port or HOST (src/cli/errors.ts).
      markListenFailure(error, 'HOST and PORT');
      reject(error);
    });
    server.listen({ host, port }, resolve);
  });
  return {
    port: (server.address() as AddressInfo).port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
