// The gate in front of a rebuild of an account's per-day totals (a change of time zone or of the
// shortest break: docs/security.md, "one user's data as a load"). Decided before any of the work:
// - one rebuild of an account at a time: a second change of the same account while one runs is
//   refused (RATE_LIMITED, Retry-After), not queued, so no waiter holds memory or a connection. In a
//   process a set of the accounts being rebuilt; across the processes on one PostgreSQL database an
//   advisory lock tried without waiting (`exclusively`), taken only after the in-process checks, and
//   held by the one rebuild that runs;
// - a budget per account: REBUILDS_PER_WINDOW in REBUILD_WINDOW_MS (RATE_LIMITED, Retry-After);
// - at most MAX_CONCURRENT_REBUILDS in a process (BUSY), so memory stays bounded however many
//   accounts change their zone at once.
import type { OpenedDatabase } from '../../db/database.js';
import type { Clock } from '../../common/clock.js';
import { ServiceError } from '../../common/errors.js';
import { WindowCounter } from '../../common/window-counter.js';

/** Rebuilds an account may start in one window: a few corrections after a move, not a load. */
export const REBUILDS_PER_WINDOW = 10;
export const REBUILD_WINDOW_MS = 10 * 60_000;
/** Rebuilds running at once in one process; each holds one batch of entries and the days' totals. */
export const MAX_CONCURRENT_REBUILDS = 2;
/** Accounts whose budget is kept at once (a full table refuses, never forgets a live window). */
const BUDGET_CAPACITY = 10_000;
/** What a refusal while the account's own rebuild runs suggests waiting. */
const RUNNING_RETRY_SECONDS = 5;

export interface RebuildGate {
  /** Runs `job` as the account's one rebuild, or refuses before it starts. */
  run<T>(userId: number, job: () => Promise<T>): Promise<T>;
}

function rebuildRunning(): ServiceError {
  const message = "A change of this account's time zone or shortest break is being worked out; try again when it has finished";
  return new ServiceError('RATE_LIMITED', message, RUNNING_RETRY_SECONDS);
}

export function createRebuildGate(clock: Clock, database: Pick<OpenedDatabase, 'exclusively'>): RebuildGate {
  const running = new Set<number>();
  const budget = new WindowCounter(BUDGET_CAPACITY);
  return {
    async run(userId, job) {
      if (running.has(userId)) throw rebuildRunning();
      if (running.size >= MAX_CONCURRENT_REBUILDS)
        throw new ServiceError('BUSY', 'The server is recounting other accounts; try again shortly', RUNNING_RETRY_SECONDS);
      const hit = budget.hit(String(userId), REBUILD_WINDOW_MS, clock.now().getTime());
      if (hit === undefined || hit.count > REBUILDS_PER_WINDOW) {
        const seconds = hit === undefined ? 60 : Math.max(1, Math.ceil(hit.remainingMs / 1000));
        throw new ServiceError(
          'RATE_LIMITED',
          `At most ${REBUILDS_PER_WINDOW} changes of time zone or shortest break in ${REBUILD_WINDOW_MS / 60_000} minutes`,
          seconds,
        );
      }
      running.add(userId);
      try {
        const done = await database.exclusively(`rebuild ${userId}`, async () => ({ result: await job() }));
        if (done === undefined) throw rebuildRunning();
        return done.result;
      } finally {
        running.delete(userId);
      }
    },
  };
}
