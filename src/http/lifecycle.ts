// How `serve` takes its address and lets go of it: listening (after the starting listener of the
// migrations, src/http/starting.ts), and the graceful shutdown on SIGTERM/SIGINT: answer every
// request that reached the server, stop accepting, finish requests in flight. (The background work
// and the database are the context's to close, after this.)
import { markListenFailure } from '../common/errors.js';
import type { App } from './app.js';
import type { StartingListener } from './starting.js';

/** After this long, connections still open at shutdown are cut so the process can exit. */
const SHUTDOWN_GRACE_MS = 8_000;

/**
 * How long the server keeps reading after SIGTERM before it stops listening. Closing the listener
 * also closes every connection without a request in progress, and a connection accepted while the
 * event loop was busy counts as one even when its request already sits in the socket buffer: it
 * would be reset. Meanwhile every answer says `Connection: close`, so keep-alive clients leave.
 */
const SHUTDOWN_READ_GRACE_MS = 500;

/**
 * The longest a stop may take, from the signal to the exit: the read grace, the connections' grace,
 * the background work and closing the database fit within it; the unit's TimeoutStopSec (15 s)
 * is longer.
 */
export const SHUTDOWN_DEADLINE_MS = 12_000;

/**
 * The first SIGTERM or SIGINT. Listened for before listening: a stop right after the start must still
 * be graceful. Whatever happens after the signal (a stuck connection, a database that does not
 * answer, a failed start that left a handle open), the process ends within SHUTDOWN_DEADLINE_MS;
 * `onDeadline` says so first.
 */
export function stopSignal(onDeadline: () => void): Promise<NodeJS.Signals> {
  return new Promise<NodeJS.Signals>((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      setTimeout(() => {
        onDeadline();
        process.exit(1);
      }, SHUTDOWN_DEADLINE_MS).unref();
      resolve(signal);
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
}

/** Whether the server drains for shutdown: answers then close their connections (security-headers.ts). */
export function drainSwitch() {
  let draining = false;
  return {
    draining: () => draining,
    start: () => {
      draining = true;
    },
  };
}

export type DrainSwitch = ReturnType<typeof drainSwitch>;

/**
 * Listens on the configured address, taken over from the starting listener. A failure is marked as
 * the listen's (the CLI then names the port or HOST, src/cli/errors.ts) and closes the app.
 */
export async function listen(app: App, address: { host: string; port: number }, starting: StartingListener | undefined): Promise<void> {
  try {
    // The address answered 503 while the database was migrated: it is this server's from now on.
    await starting?.close();
    await app.listen({ host: address.host, port: starting?.port ?? address.port });
  } catch (error) {
    markListenFailure(error, 'HOST and PORT');
    await app.close().catch(() => undefined);
    throw error;
  }
}

/**
 * Drains and closes the server: every answer closes its connection, the listener keeps reading a
 * moment, then closes; requests in flight finish, connections still open after the grace are cut.
 */
export async function closeGracefully(app: App, drain: DrainSwitch): Promise<void> {
  drain.start();
  await new Promise((resolve) => setTimeout(resolve, SHUTDOWN_READ_GRACE_MS));
  // A keep-alive connection whose request finishes during shutdown would otherwise stay open (and
  // keep the process alive) until the client's keep-alive ends: close each one as it goes idle.
  const closeIdle = setInterval(() => app.server.closeIdleConnections(), 50);
  const forceClose = setTimeout(() => app.server.closeAllConnections(), SHUTDOWN_GRACE_MS);
  forceClose.unref();
  await app.close();
  clearInterval(closeIdle);
  clearTimeout(forceClose);
}
