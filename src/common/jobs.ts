// The periodic jobs of a long-running process (`serve`), in one registry that starts them, runs each
// round, and stops them at shutdown. A round that fails is logged; the next round runs on time.
// Timers never keep the process alive.
import type { Logger } from 'pino';
import { isDatabaseUnavailable } from '../db/database.js';

/**
 * What "once" means when several processes share one database (PostgreSQL; on SQLite one server
 * holds the file: docs/database.md):
 * - `one process a round`: each round runs under the job's lock (database `exclusively`, a
 *   PostgreSQL advisory lock named after the job): the process that takes it does the work, the
 *   others skip that round. Such a job is also idempotent: rounds may follow each other closely,
 *   in any process, and a slow round may still run when the next is due (SQLite).
 * - `every process`: each process runs it for itself (what it finds concerns that process).
 */
export type JobScope = 'one process a round' | 'every process';

/** Runs `fn` unless another process runs the job of this name right now (then undefined). */
export type Exclusively = <T>(name: string, fn: () => Promise<T>) => Promise<T | undefined>;

export interface Job<T = unknown> {
  /** In log lines, and the name of the lock of a job run in one process a round. */
  name: string;
  scope: JobScope;
  /** A round every this many milliseconds from the start. */
  everyMs: number;
  /** One more round this long after the start (before or between the regular ones), when set. */
  firstRoundAfterMs?: number;
  /** One round; its result goes to `done`. */
  run(): Promise<T>;
  /** After a round: its result, or undefined when another process ran this round. */
  done(result: T | undefined): void;
  /** The log message of a round that failed. */
  failureMessage: string;
}

/** Where a round that failed because the database is unavailable is reported instead of a line of its own (src/http/outage-log.ts). */
export interface OutageReport {
  failed(error: unknown): void;
}

export function createJobRegistry(logger: Logger, exclusively: Exclusively, outages?: OutageReport) {
  const jobs: Job[] = [];
  const timers: NodeJS.Timeout[] = [];

  function runRound<T>(job: Job<T>): Promise<void> {
    const round = job.scope === 'one process a round' ? exclusively(job.name, () => job.run()) : job.run();
    return round
      .then((result) => job.done(result))
      .catch((error: unknown) => {
        if (outages && isDatabaseUnavailable(error)) outages.failed(error);
        else logger.error({ err: error }, job.failureMessage);
      });
  }

  return {
    add<T>(job: Job<T>): void {
      jobs.push(job as Job);
    },
    /** Starts every job's timers. */
    start(): void {
      for (const job of jobs) {
        timers.push(setInterval(() => void runRound(job), job.everyMs).unref());
        if (job.firstRoundAfterMs !== undefined) timers.push(setTimeout(() => void runRound(job), job.firstRoundAfterMs).unref());
      }
    },
    /** Stops every timer; a round already running finishes (shutdown closes the database after the server). */
    stop(): void {
      for (const timer of timers.splice(0)) clearTimeout(timer);
    },
  };
}

export type JobRegistry = ReturnType<typeof createJobRegistry>;
