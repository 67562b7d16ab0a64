// Serves the browser client (docs/web-client.md) from dist/web: the same origin as /api, so the client
// needs no CORS and its token never crosses origins. Every non-/api GET answers the client's HTML, so a
// reload on a client route (/password-reset?token=…) works.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { sendNotFound } from '../error-handler.js';

/** The token lives in localStorage, so script injection must be impossible: only this origin's files run. */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' blob:",
  "object-src 'none'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'self'",
].join('; ');

const IMMUTABLE = 'public, max-age=31536000, immutable';
const HASHED_ASSETS = /^\/assets\/[\w.-]+$/;
const ROOT_FILES = new Set(['/manifest.webmanifest', '/icon.svg', '/icon-192.png', '/icon-512.png']);

/** dist/web of the package, found from this module whether it runs from src/, dist/src/ or the dist/cli bundle. */
function findWebRoot(): string | undefined {
  for (let dir = path.dirname(fileURLToPath(import.meta.url)); ; dir = path.dirname(dir)) {
    if (existsSync(path.join(dir, 'package.json'))) return path.join(dir, 'dist', 'web');
    if (path.dirname(dir) === dir) return undefined;
  }
}

function sendHtml(reply: FastifyReply) {
  return reply
    .header('Cache-Control', 'no-cache')
    .header('Content-Security-Policy', CONTENT_SECURITY_POLICY)
    .header('Referrer-Policy', 'no-referrer')
    .header('X-Content-Type-Options', 'nosniff')
    .sendFile('index.html');
}

export async function webRoutes(app: FastifyInstance, options: { root?: string | undefined } = {}) {
  const root = options.root ?? findWebRoot();
  const built = root !== undefined && existsSync(path.join(root, 'index.html'));

  if (!built) {
    // A checkout compiled with tsc alone: say what is missing rather than answer 404 or crash.
    app.get('/*', async (request, reply) => {
      if (request.url.startsWith('/api/')) return sendNotFound(request, reply);
      return reply
        .code(503)
        .type('text/plain; charset=utf-8')
        .header('Cache-Control', 'no-store')
        .send('The web client is not built: run `npm run build` (it writes dist/web), then restart timetrack serve.\n');
    });
    return;
  }

  await app.register(fastifyStatic, { root, serve: false, preCompressed: true, cacheControl: false, index: false });
  app.get('/*', { schema: { hide: true } }, async (request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    if (pathname === '/api' || pathname.startsWith('/api/')) return sendNotFound(request, reply);
    if (HASHED_ASSETS.test(pathname)) {
      return reply.header('Cache-Control', IMMUTABLE).header('X-Content-Type-Options', 'nosniff').sendFile(pathname.slice(1));
    }
    if (ROOT_FILES.has(pathname)) {
      return reply.header('Cache-Control', 'no-cache').header('X-Content-Type-Options', 'nosniff').sendFile(pathname.slice(1));
    }
    return sendHtml(reply);
  });
}
