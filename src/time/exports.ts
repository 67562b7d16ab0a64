// Exports of one account (the CSV of its entries, the account document): work that grows with the
// account, so each is bounded (docs/security.md, "one user's data as a load"):
// - it streams: read a batch at a time by keyset (never the whole account in memory), the event loop
//   given back (a macrotask) after every batch, the consumer's pace followed (a Readable pulls the next
//   piece only when the socket or the terminal has taken the last one);
// - at most one export of an account runs at a time, across every process on the database: a lease
//   row (export_leases) taken before the first byte (EXPORT_RUNNING otherwise), renewed as the export
//   goes on, deleted at its end; a holder that died or stalled loses it when it expires;
// - at most MAX_CONCURRENT_EXPORTS run in one process at once, and at most MAX_EXPORTS_PER_CLIENT of
//   them for one client (the caller's key, an HTTP client's address), BUSY otherwise, so memory stays
//   bounded whatever the number of accounts and one address cannot take every place.
import { randomBytes } from 'node:crypto';
import { setImmediate as nextMacrotask } from 'node:timers/promises';
import { sql } from 'kysely';
import type { BestEffortWriter, OpenedDatabase } from '../db/database.js';
import { addSeconds, type Clock } from '../common/clock.js';
import { ServiceError } from '../common/errors.js';

/** How long a lease lasts unless renewed: an export that neither reads nor sends for this long has stalled. */
export const EXPORT_LEASE_SECONDS = 60;
/** A running export renews its lease when this much of it has passed. */
const RENEW_AFTER_SECONDS = 20;
/** Exports running at once in one process; each holds about one batch in memory. */
export const MAX_CONCURRENT_EXPORTS = 4;
/** Of those, the most one client (an address) runs at once. */
export const MAX_EXPORTS_PER_CLIENT = 2;
/** The Retry-After of a refusal for want of a place, in seconds. */
const BUSY_RETRY_SECONDS = 5;

/** An export that has its lease: the text pieces to send, and `close` to end it early (idempotent). */
export interface ExportStream {
  pieces: AsyncIterable<string>;
  /** Gives the lease back; called when the pieces are done, and by whoever abandons them. */
  close(): Promise<void>;
}

/** Whose export it is: the account, and the key its place counts under (an HTTP client's address; none for the CLI). */
export interface ExportOwner {
  userId: number;
  client?: string | undefined;
}

export function exportRunning(): ServiceError {
  return new ServiceError('EXPORT_RUNNING', 'An export of this account is running already; try again when it has finished', EXPORT_LEASE_SECONDS);
}

export interface ExportGateDeps {
  database: Pick<OpenedDatabase, 'db' | 'bestEffort'>;
  clock: Clock;
}

/** Takes the account's lease, or answers why not. A lease lost to a power loss only lets one more export start. */
async function takeLease({ database, clock }: ExportGateDeps, userId: number, holder: string): Promise<boolean> {
  const now = clock.now();
  const taken = await database.bestEffort((executor) =>
    executor
      .insertInto('export_leases')
      .values({ user_id: userId, holder, expires_at: addSeconds(now, EXPORT_LEASE_SECONDS).toISOString() })
      .onConflict((conflict) =>
        conflict
          .column('user_id')
          .doUpdateSet({ holder: (eb) => eb.ref('excluded.holder'), expires_at: (eb) => eb.ref('excluded.expires_at') })
          .where(sql<boolean>`export_leases.expires_at <= ${now.toISOString()}`),
      )
      .returning('holder')
      .executeTakeFirst(),
  );
  return taken?.holder === holder;
}

export function createExportGate(deps: ExportGateDeps) {
  const { database, clock } = deps;
  const bestEffort: BestEffortWriter = database.bestEffort;
  let running = 0;
  /** Places taken per client key (only keys with a place are kept). */
  const runningFor = new Map<string, number>();
  function take(client: string | undefined): void {
    if (running >= MAX_CONCURRENT_EXPORTS) throw new ServiceError('BUSY', 'Too many exports are running; try again shortly', BUSY_RETRY_SECONDS);
    if (client !== undefined && (runningFor.get(client) ?? 0) >= MAX_EXPORTS_PER_CLIENT) {
      throw new ServiceError('BUSY', 'Too many exports are running from this address; try again shortly', BUSY_RETRY_SECONDS);
    }
    running += 1;
    if (client !== undefined) runningFor.set(client, (runningFor.get(client) ?? 0) + 1);
  }
  function release(client: string | undefined): void {
    running -= 1;
    if (client === undefined) return;
    const left = (runningFor.get(client) ?? 1) - 1;
    if (left > 0) runningFor.set(client, left);
    else runningFor.delete(client);
  }

  /**
   * Opens an export of the account: refused with EXPORT_RUNNING while another one holds the lease,
   * with BUSY when this process runs MAX_CONCURRENT_EXPORTS already, or MAX_EXPORTS_PER_CLIENT for
   * the owner's `client`. `produce` yields the pieces; a
   * macrotask passes between any two of them, and the lease is renewed on the way (an export that
   * lost it, having stalled past its expiry while another took it, stops with EXPORT_RUNNING).
   */
  async function open({ userId, client }: ExportOwner, produce: () => AsyncIterable<string>): Promise<ExportStream> {
    take(client);
    const holder = randomBytes(12).toString('base64url');
    let closed = false;
    const close = async () => {
      if (closed) return;
      closed = true;
      release(client);
      await bestEffort((executor) => executor.deleteFrom('export_leases').where('user_id', '=', userId).where('holder', '=', holder).execute());
    };
    try {
      if (!(await takeLease(deps, userId, holder))) throw exportRunning();
    } catch (error) {
      closed = true;
      release(client);
      throw error;
    }
    let renewedAt = clock.now().getTime();
    async function renewIfDue(): Promise<void> {
      const now = clock.now();
      if (now.getTime() - renewedAt < RENEW_AFTER_SECONDS * 1000) return;
      const renewed = await bestEffort((executor) =>
        executor
          .updateTable('export_leases')
          .set({ expires_at: addSeconds(now, EXPORT_LEASE_SECONDS).toISOString() })
          .where('user_id', '=', userId)
          .where('holder', '=', holder)
          .executeTakeFirst(),
      );
      if (Number(renewed.numUpdatedRows) === 0) throw exportRunning();
      renewedAt = now.getTime();
    }
    const pieces = (async function* () {
      try {
        let first = true;
        for await (const piece of produce()) {
          if (!first) {
            await nextMacrotask();
            await renewIfDue();
          }
          first = false;
          yield piece;
        }
      } finally {
        await close();
      }
    })();
    return { pieces, close };
  }

  return { open };
}

export type ExportGate = ReturnType<typeof createExportGate>;
