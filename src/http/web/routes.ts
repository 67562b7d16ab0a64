// Serves the browser client (docs/web-client.md) from dist/web: the same origin as /api, so the client
// needs no CORS and its token never crosses origins. Every non-/api GET answers the client's HTML, so a
// reload on a client route (/password-reset?token=…) works.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendNotFound } from '../error-handler.js';

/** The token lives in localStorage, so script injection must be impossible: only this origin's files run. */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "object-src 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

const IMMUTABLE = 'public, max-age=31536000, immutable';
/** The path parameter of /assets/:file (not validated by a schema: the pattern below decides). */
interface AssetParams {
  file: string;
}
const HASHED_ASSET = /^[\w-]+\.(js|css)$/;
const ROOT_FILES = ['manifest.webmanifest', 'icon.svg', 'icon-192.png', 'icon-512.png', 'favicon.ico', 'robots.txt'];
/** Every file may be sent precompressed (.br, .gz): a cache must keep one copy per Accept-Encoding. */
const VARY = 'Accept-Encoding';

/** dist/web of the package, found from this module whether it runs from src/, dist/src/ or the dist/cli bundle. */
function findWebRoot(): string | undefined {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return path.join(dir, 'dist', 'web');
    if (path.dirname(dir) === dir) return undefined;
  }
}

// Referrer-Policy, X-Content-Type-Options and the other headers of every answer come from the
// request-start hook (src/http/security-headers.ts); only what differs per file is set here.
function sendHtml(reply: FastifyReply) {
  return reply.header('Cache-Control', 'no-cache').header('Content-Security-Policy', CONTENT_SECURITY_POLICY).header('Vary', VARY).sendFile('index.html');
}

/**
 * Paths a monitor, a scanner or a habit may ask for (a metrics scrape, a liveness probe, an admin
 * page): answered 404, never the client's HTML with 200, so a monitor pointed at a conventional
 * path is not green forever. Monitoring lives at /api/health and /api/ready (metrics: METRICS_LISTEN).
 */
const NOT_CLIENT_PATHS =
  /^\/(metrics|healthz?|readyz?|livez|ready|ping|status|server-status|nginx_status|admin|administrator|actuator|debug|wp-admin|wp-login\.php|phpmyadmin|\.env|\.git)(\/|$|\.)/i;

function isClientPath(request: FastifyRequest): boolean {
  const query = request.url.indexOf('?');
  const pathname = query === -1 ? request.url : request.url.slice(0, query);
  const isApi = pathname === '/api' || pathname.startsWith('/api/');
  return (request.method === 'GET' || request.method === 'HEAD') && !isApi && !pathname.startsWith('/assets/') && !NOT_CLIENT_PATHS.test(pathname);
}

/**
 * The client's files, and the root's not-found handler: a GET outside /api answers the HTML, anything
 * else the JSON 404. A handler rather than a catch-all route, so that route groups with their own
 * not-found handler (and hooks, such as /api/auth's no-store: api-hooks.ts) keep answering their
 * unknown paths.
 */
async function webClient(app: FastifyInstance, options: { root?: string | undefined } = {}) {
  const root = options.root ?? findWebRoot();
  const built = root !== undefined && existsSync(path.join(root, 'index.html'));

  if (!built) {
    // A checkout compiled with tsc alone: say what is missing rather than answer 404 or crash.
    app.setNotFoundHandler(async (request, reply) => {
      if (!isClientPath(request)) return sendNotFound(request, reply);
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .header('Cache-Control', 'no-store')
        .send('The web client is not built: run `npm run build` (it writes dist/web), then restart timetrack serve.\n');
    });
    return;
  }

  await app.register(fastifyStatic, { root, serve: false, preCompressed: true, cacheControl: false, index: false });
  app.get('/assets/:file', { schema: { hide: true } }, async (request, reply) => {
    const { file } = request.params as AssetParams;
    if (!HASHED_ASSET.test(file)) return sendNotFound(request, reply);
    return reply.header('Cache-Control', IMMUTABLE).header('Vary', VARY).sendFile(`assets/${file}`);
  });
  for (const file of ROOT_FILES) {
    app.get(`/${file}`, { schema: { hide: true } }, async (_request, reply) => reply.header('Cache-Control', 'no-cache').header('Vary', VARY).sendFile(file));
  }
  // A callback handler: an async one costs a promise and a microtask turn on every unknown path.
  app.setNotFoundHandler((request, reply) => {
    if (isClientPath(request)) sendHtml(reply);
    else sendNotFound(request, reply);
  });
}

/** Registered on the root itself (what fastify-plugin does), since only the root's not-found handler sees every path. */
export const webRoutes = Object.assign(webClient, { [Symbol.for('skip-override')]: true });
