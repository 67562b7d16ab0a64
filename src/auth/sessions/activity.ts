// When sessions (and API tokens) were last used (docs/security.md, "Sessions you can see"). Never a
// write on a request's path: a request only notes its time in memory (one map lookup; nothing at all
// when the credential was noted less than ACTIVITY_RESOLUTION_SECONDS ago), and a timer writes what
// was noted in one transaction every FLUSH_INTERVAL_MS. Each write is also conditional in the
// database (only when the stored time is older than the resolution), so several processes on one
// PostgreSQL database still write a credential at most once per resolution each, and never move it back.
import type { Logger } from 'pino';
import { LRUCache } from 'lru-cache';
import type { BestEffortWriter } from '../../db/database.js';
import type { Clock } from '../../common/clock.js';

/** A credential's last use is written at most once in this time. */
export const ACTIVITY_RESOLUTION_SECONDS = 5 * 60;
const FLUSH_INTERVAL_MS = 30_000;
/** Credentials noted but not written yet: past this a flush starts at once, so memory stays bounded. */
const MAX_PENDING = 5_000;
/** Credentials whose last noted time is remembered (the least recently used are forgotten first). */
const TRACKED = 50_000;

export type CredentialKind = 'session' | 'api_token';

interface Noted {
  kind: CredentialKind;
  tokenHash: string;
  at: number;
}

export interface ActivityDeps {
  bestEffort: BestEffortWriter;
  clock: Clock;
  logger: Pick<Logger, 'warn'>;
}

export function createActivityRecorder({ bestEffort, clock, logger }: ActivityDeps) {
  const resolutionMs = ACTIVITY_RESOLUTION_SECONDS * 1000;
  const lastNoted = new LRUCache<string, number>({ max: TRACKED });
  const pending = new Map<string, Noted>();
  let timer: NodeJS.Timeout | undefined;
  let flushing: Promise<void> = Promise.resolve();

  const keyOf = (kind: CredentialKind, tokenHash: string) => (kind === 'session' ? tokenHash : `api:${tokenHash}`);

  /** Notes a use of the credential (called on every authenticated request: memory only). */
  function seen(kind: CredentialKind, tokenHash: string): void {
    const key = keyOf(kind, tokenHash);
    const now = clock.now().getTime();
    const last = lastNoted.get(key);
    if (last !== undefined && now - last < resolutionMs) return;
    lastNoted.set(key, now);
    pending.set(key, { kind, tokenHash, at: now });
    if (pending.size >= MAX_PENDING) void flush();
    else if (timer === undefined) {
      timer = setTimeout(() => void flush(), FLUSH_INTERVAL_MS);
      // A process that has nothing else to do does not wait for it (close() flushes).
      timer.unref();
    }
  }

  /** The time noted in this process for a credential, if any (written or not yet). */
  function notedAt(kind: CredentialKind, tokenHash: string): Date | undefined {
    const at = lastNoted.get(keyOf(kind, tokenHash));
    return at === undefined ? undefined : new Date(at);
  }

  async function write(batch: Noted[]): Promise<void> {
    await bestEffort((connection) =>
      connection.transaction().execute(async (trx) => {
        for (const { kind, tokenHash, at } of batch) {
          const iso = new Date(at).toISOString();
          const staleBefore = new Date(at - resolutionMs).toISOString();
          if (kind === 'session') {
            await trx
              .updateTable('auth_tokens')
              .set({ last_seen_at: iso })
              .where('token_hash', '=', tokenHash)
              .where((eb) => eb.or([eb('last_seen_at', 'is', null), eb('last_seen_at', '<=', staleBefore)]))
              .execute();
          } else {
            await trx
              .updateTable('api_tokens')
              .set({ last_used_at: iso })
              .where('token_hash', '=', tokenHash)
              .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', staleBefore)]))
              .execute();
          }
        }
      }),
    );
  }

  /** Writes what was noted (the timer, a full buffer, and close() call it; tests call it too). */
  function flush(): Promise<void> {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    const batch = [...pending.values()];
    pending.clear();
    if (batch.length === 0) return flushing;
    // One flush at a time: a write that is still running is not overtaken by a later one.
    flushing = flushing.then(() =>
      write(batch).catch((error: unknown) => {
        // A lost note only makes "last seen" older than it was; never an error for anyone.
        logger.warn(
          { err: error instanceof Error ? error.message : String(error), credentials: batch.length },
          'could not record when sessions were last used',
        );
      }),
    );
    return flushing;
  }

  return { seen, notedAt, flush };
}

export type ActivityRecorder = ReturnType<typeof createActivityRecorder>;
