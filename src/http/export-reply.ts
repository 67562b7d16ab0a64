// Sends an export (src/time/exports.ts) as the body of a reply: a byte stream that pulls the next
// piece only when the socket has taken the last one (backpressure: an export holds a piece or two in
// memory, however slowly its client reads), and that gives the export's lease back when it ends, fails
// or the client goes away. A client that stops reading for EXPORT_LEASE_SECONDS is cut off: its
// export would otherwise hold the account's lease and a connection for ever. The session is checked
// again every PIECES_BETWEEN_CHECKS pieces: an export whose session (or API token) was revoked ends.
import type { Socket } from 'node:net';
import { Readable } from 'node:stream';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { EXPORT_LEASE_SECONDS, type ExportStream } from '../time/exports.js';
import { bearerToken, type Authenticator } from './authentication.js';

/** Pieces (of 50 rows) sent between two checks of the request's session record. */
export const PIECES_BETWEEN_CHECKS = 20;

/** The pieces, the session checked again between batches: a revoked one (UNAUTHORIZED) ends the export. */
async function* whileSignedIn(pieces: AsyncIterable<string>, recheck: () => Promise<unknown>): AsyncGenerator<string> {
  let sent = 0;
  for await (const piece of pieces) {
    if (sent > 0 && sent % PIECES_BETWEEN_CHECKS === 0) await recheck();
    sent += 1;
    yield piece;
  }
}

export function sendExport(
  request: FastifyRequest,
  reply: FastifyReply,
  exported: ExportStream,
  credentials: Pick<Authenticator, 'authenticate'>,
  contentType: string,
  fileName: string,
): FastifyReply {
  const token = bearerToken(request) ?? '';
  const recheck = async () => credentials.authenticate(token);
  // Bytes, not objects: the stream's buffer is counted in bytes (16 KiB), so it asks for a new piece
  // only once the last one has gone to the socket.
  const body = Readable.from(whileSignedIn(exported.pieces, recheck), { objectMode: false });
  const socket = request.raw.socket as Partial<Socket> | undefined;
  const stalled = () => socket?.destroy?.();
  // (A request injected without a network, as tests do, has no socket timer.)
  const timed = typeof socket?.setTimeout === 'function';
  if (timed) {
    socket.setTimeout!(EXPORT_LEASE_SECONDS * 1000);
    socket.once!('timeout', stalled);
  }
  body.once('close', () => {
    if (timed) {
      socket.removeListener!('timeout', stalled);
      if (!socket.destroyed) socket.setTimeout!(0);
    }
    void exported.close();
  });
  // The route's schema documents the body as text; Fastify sends a stream as it comes (chunked).
  return reply
    .type(contentType)
    .header('Content-Disposition', `attachment; filename="${fileName}"`)
    .send(body as unknown as string);
}
