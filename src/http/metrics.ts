// Prometheus metrics (prom-client), served on a listen address of their own (METRICS_LISTEN, off by
// default) so that they never reach the public side of the reverse proxy: requests by route and
// status, a latency histogram, sign-ins by outcome, lockouts, database errors, and the process
// figures prom-client collects (CPU, memory, event-loop lag, handles), and which build runs.
import http from 'node:http';
import { markListenFailure } from '../common/errors.js';
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

export type Metrics = ReturnType<typeof createMetrics>;

/** Sign-in answers by status: what an operator watches for (a flood of failures, lockouts). */
const LOGIN_OUTCOMES: Record<number, string> = { 200: 'success', 401: 'failed', 403: 'disabled', 423: 'locked', 429: 'rate_limited' };

/** Which build answers: the version of package.json and the commit it was built from. */
export interface BuildInfo {
  version: string;
  commit: string;
}

export function createMetrics(build: BuildInfo) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'timetrack_' });
  // Always 1; the labels say which build runs (a dashboard shows a half-finished upgrade by them).
  new Gauge({
    name: 'timetrack_build_info',
    help: 'The running build: version and commit (value always 1)',
    labelNames: ['version', 'commit'],
    registers: [registry],
  }).set(build, 1);
  const requests = new Counter({
    name: 'timetrack_http_requests_total',
    help: 'HTTP requests answered, by method, route and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'timetrack_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by method and route',
    labelNames: ['method', 'route'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const logins = new Counter({
    name: 'timetrack_logins_total',
    help: 'Sign-in attempts by outcome (success, failed, locked, disabled, rate_limited)',
    labelNames: ['outcome'],
    registers: [registry],
  });
  const lockouts = new Counter({ name: 'timetrack_login_lockouts_total', help: 'Sign-ins refused because the account is locked (423)', registers: [registry] });
  const databaseErrors = new Counter({
    name: 'timetrack_database_errors_total',
    help: 'Requests that failed because the database was unavailable (answered 503)',
    registers: [registry],
  });

  return {
    registry,
    /** One answered request; `route` is the route's pattern (never the raw path: unbounded labels), or "unmatched". */
    observeRequest(method: string, route: string | undefined, status: number, seconds: number): void {
      const pattern = route ?? 'unmatched';
      requests.inc({ method, route: pattern, status: String(status) });
      latency.observe({ method, route: pattern }, seconds);
      if (method === 'POST' && pattern === '/api/auth/login') {
        const outcome = LOGIN_OUTCOMES[status];
        if (outcome) logins.inc({ outcome });
        if (status === 423) lockouts.inc();
      }
    },
    databaseError(): void {
      databaseErrors.inc();
    },
  };
}

/** Serves GET /metrics on its own address; anything else is 404. Resolves once listening. */
export async function serveMetrics(metrics: Metrics, listen: { host: string; port: number }): Promise<http.Server> {
  const server = http.createServer((request, response) => {
    if (request.method === 'GET' && request.url?.split('?')[0] === '/metrics') {
      metrics.registry
        .metrics()
        .then((text) => response.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text))
        .catch(() => response.writeHead(500).end());
      return;
    }
    response.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error) => {
      markListenFailure(error, 'METRICS_LISTEN');
      reject(error);
    });
    server.listen(listen.port, listen.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  return server;
}
