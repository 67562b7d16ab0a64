// Headers every answer carries (docs/security.md, "Headers"). No Content-Security-Policy here: the
// browser client's HTML sets its own, and none is needed on JSON. No CORS headers, on purpose: the
// browser client is served from the same origin, and no other origin may call the API from a browser.
import type { Socket } from 'node:net';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { errorBody } from './errors.js';

const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  // A JSON answer is never sniffed into HTML or script.
  'X-Content-Type-Options': 'nosniff',
  // No page of this server may be framed (clickjacking of the browser client).
  'X-Frame-Options': 'DENY',
  // Reset links carry a token in their query string: never send a URL on to another site.
  'Referrer-Policy': 'no-referrer',
  // Other origins may not embed or read answers, nor share a browsing context with the client.
  'Cross-Origin-Resource-Policy': 'same-origin',
  'Cross-Origin-Opener-Policy': 'same-origin',
};

export interface RequestStartOptions {
  /** Called once, on the first request that carries X-Forwarded-For (app.ts: the warning when TRUST_PROXY is off). */
  onFirstForwarded?: ((request: FastifyRequest) => void) | undefined;
  /** True once the server drains for shutdown: every answer then closes its connection (lifecycle.ts). */
  draining?: (() => boolean) | undefined;
}

/**
 * SECURITY_HEADERS with the lower-case names Fastify stores headers under: a name already in lower
 * case is stored as it is, while a mixed-case one is lower-cased into a new string on every request.
 */
const SECURITY_HEADERS_LOWER: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(SECURITY_HEADERS).map(([name, value]) => [name.toLowerCase(), value]),
);

/**
 * SECURITY_HEADERS on every answer, the shutdown's `Connection: close`, and the first-forwarded
 * callback. One callback hook for all three: a hook costs a call and a step of Fastify's hook runner
 * on every request, an async one a promise and a microtask turn as well (docs/performance.md).
 * What a cache may keep of an /api answer is set per route tree (api-hooks.ts).
 */
export function registerRequestStart(app: FastifyInstance, { onFirstForwarded, draining }: RequestStartOptions = {}): void {
  let watchForwarded = onFirstForwarded !== undefined;
  app.addHook('onRequest', (request, reply, done) => {
    reply.headers(SECURITY_HEADERS_LOWER);
    if (draining?.()) reply.header('connection', 'close');
    if (watchForwarded && request.headers['x-forwarded-for'] !== undefined) {
      watchForwarded = false;
      onFirstForwarded?.(request);
    }
    done();
  });
}

/** Node's HTTP parser errors (bad framing, smuggling attempts, huge headers) by their code. */
function clientErrorOf(code: string | undefined): { status: number; code: string; message: string } {
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, code: 'REQUEST_TIMEOUT', message: 'The request took too long to arrive' };
  if (code === 'HPE_HEADER_OVERFLOW') return { status: 431, code: 'HEADERS_TOO_LARGE', message: 'The request headers are too large' };
  return { status: 400, code: 'MALFORMED_REQUEST', message: 'The request is not valid HTTP/1.1' };
}

/**
 * Fastify's `clientErrorHandler`: the one error shape (with `code`) and the headers above, instead
 * of Fastify's default body; the connection is closed, since the stream can no longer be trusted.
 */
export function answerClientError(this: FastifyInstance, error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const { status, code, message } = clientErrorOf(error.code);
  const body = JSON.stringify(errorBody(status, code, message));
  const headers = {
    ...SECURITY_HEADERS,
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': String(Buffer.byteLength(body)),
    Connection: 'close',
  };
  this.log.debug({ code: error.code }, 'malformed request');
  if (socket.writable) {
    const head = Object.entries(headers)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join('');
    socket.write(`HTTP/1.1 ${status} ${errorBody(status, code, message).error}\r\n${head}\r\n${body}`);
  }
  socket.destroy();
}
