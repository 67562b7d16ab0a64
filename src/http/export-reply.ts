// Sends an export (src/time/exports.ts) as the body of a reply, in two steps (docs/security.md, "one
// user's data as a load"):
// 1. generation: the pieces are written into a spool file (export-spool.ts) at the database's pace,
//    not the client's; the export's place and the account's lease are given back when it ends. A
//    refusal on the way (the session revoked, too large, too slow) is still an error answer.
// 2. sending: the file, with its Content-Length, at the client's pace (the socket's backpressure). A
//    client that stops reading for EXPORT_LEASE_SECONDS is cut off, and every sending is cut after
//    the spool's sendMs; the file is removed when it has been sent, cut or the client goes away.
// The session is checked again every PIECES_BETWEEN_CHECKS pieces while generating and every
// BYTES_BETWEEN_CHECKS bytes while sending: an export whose session (or API token) was revoked ends.
import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { EXPORT_LEASE_SECONDS, type ExportStream } from '../time/exports.js';
import { bearerToken, type Authenticator } from './authentication.js';
import { discardSpooled, spoolPieces, type Spooled, type SpoolLimits } from './export-spool.js';
import { rateLimitKey } from './rate-limit-store.js';

/** Pieces (of 50 rows) generated between two checks of the request's session record. */
export const PIECES_BETWEEN_CHECKS = 20;
/** Bytes sent between two checks of the request's session record. */
const BYTES_BETWEEN_CHECKS = 1024 * 1024;
/** Bytes read from the spool file at a time. */
const READ_BYTES = 64 * 1024;

/** The key an export's place counts under: the client's address (an IPv6 client's /64), as for rate limits. */
export function exportClientKey(request: FastifyRequest): string {
  return rateLimitKey(request.ip);
}

/** The pieces, the session checked again between batches: a revoked one (UNAUTHORIZED) ends the export. */
async function* whileSignedIn(pieces: AsyncIterable<string>, recheck: () => Promise<unknown>): AsyncGenerator<string> {
  let sent = 0;
  for await (const piece of pieces) {
    if (sent > 0 && sent % PIECES_BETWEEN_CHECKS === 0) await recheck();
    sent += 1;
    yield piece;
  }
}

/** The spool file's bytes, the session checked again every BYTES_BETWEEN_CHECKS. */
async function* fromSpool(spooled: Spooled, recheck: () => Promise<unknown>): AsyncGenerator<Buffer> {
  const stream = spooled.handle.createReadStream({ start: 0, highWaterMark: READ_BYTES, autoClose: false });
  let sent = 0;
  let checkedAt = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      if (sent - checkedAt >= BYTES_BETWEEN_CHECKS) {
        await recheck();
        checkedAt = sent;
      }
      sent += chunk.length;
      yield chunk;
    }
  } finally {
    stream.destroy();
  }
}

/** Generates the export into a spool file; the lease and place are free again when this answers. */
async function generate(reply: FastifyReply, exported: ExportStream, spool: SpoolLimits, recheck: () => Promise<unknown>): Promise<Spooled> {
  const gone = new AbortController();
  const onClose = () => gone.abort();
  reply.raw.once('close', onClose);
  try {
    return await spoolPieces(whileSignedIn(exported.pieces, recheck), spool, gone.signal);
  } finally {
    reply.raw.removeListener('close', onClose);
    // Given back when the pieces ended; here also when the spool failed before reading them.
    await exported.close();
  }
}

export async function sendExport(
  request: FastifyRequest,
  reply: FastifyReply,
  exported: ExportStream,
  options: { credentials: Pick<Authenticator, 'authenticate'>; spool: SpoolLimits },
  contentType: string,
  fileName: string,
): Promise<FastifyReply> {
  const token = bearerToken(request) ?? '';
  const recheck = async () => options.credentials.authenticate(token);
  const spooled = await generate(reply, exported, options.spool, recheck);
  // Bytes, not objects: the stream's buffer is counted in bytes (16 KiB), so it reads more of the
  // file only once the last of it has gone to the socket.
  const body = Readable.from(fromSpool(spooled, recheck), { objectMode: false });
  const socket = request.raw.socket as Partial<Socket> | undefined;
  const cut = () => {
    socket?.destroy?.();
    body.destroy();
  };
  // (A request injected without a network, as tests do, has no socket timer.)
  const timed = typeof socket?.setTimeout === 'function';
  if (timed) {
    socket.setTimeout!(EXPORT_LEASE_SECONDS * 1000);
    socket.once!('timeout', cut);
  }
  const deadline = setTimeout(cut, options.spool.sendMs);
  body.once('close', () => {
    clearTimeout(deadline);
    if (timed) {
      socket.removeListener!('timeout', cut);
      if (!socket.destroyed) socket.setTimeout!(0);
    }
    void discardSpooled(spooled);
  });
  // The route's schema documents the body as text; Fastify sends the stream as it comes.
  return reply
    .type(contentType)
    .header('Content-Length', spooled.bytes)
    .header('Content-Disposition', `attachment; filename="${fileName}"`)
    .send(body as unknown as string);
}
