// Work done off the request path (issuing a reset for request-reset, sending mail). Failures are
// logged, never shown to a client; graceful shutdown waits for what is still running, up to a bound.
import type { Logger } from 'pino';

/** A queue drained on a timer: see BackgroundTasks.queue. */
export interface TimedQueue<T> {
  /** Queues an item (an equal key already waiting: kept once); false when the queue is full and the item was dropped. */
  push(key: string, item: T): boolean;
}

export interface TimedQueueOptions {
  /** How often the waiting items are taken up. */
  intervalMs: number;
  /** Items waiting at most; more are dropped (and logged). */
  limit: number;
}

export function createBackgroundTasks(logger: Logger) {
  const running = new Set<Promise<unknown>>();
  /** Queues drained on a timer, flushed at once by `drain`. */
  const flushers = new Set<() => void>();

  function run(label: string, task: () => Promise<unknown>): void {
    // Started on the next turn of the event loop, not in a microtask: the answer of the request that
    // scheduled it is written first, so its time does not include the task's database writes.
    const promise = new Promise<void>((resolve) => setImmediate(resolve))
      .then(task)
      .catch((error: unknown) => logger.error({ err: error, task: label }, `background task failed: ${label}`))
      .finally(() => running.delete(promise));
    running.add(promise);
  }

  /**
   * A queue whose items are handled on a timer, never by the request that queued them: a request
   * does the same (tiny) work whatever its item leads to, and its answer never waits for that work.
   * The waiting items are taken up every `intervalMs`, one after the other, each in a macrotask of its
   * own; the timer runs only while items wait (and never keeps the process alive).
   */
  function queue<T>(label: string, options: TimedQueueOptions, handle: (item: T) => Promise<unknown>): TimedQueue<T> {
    const waiting = new Map<string, T>();
    let timer: NodeJS.Timeout | undefined;
    let dropped = 0;
    const flush = () => {
      if (timer) clearTimeout(timer);
      timer = undefined;
      const items = [...waiting.values()];
      waiting.clear();
      if (dropped > 0) logger.warn({ task: label, dropped }, `background queue full: ${label}`);
      dropped = 0;
      if (items.length === 0) return;
      run(label, async () => {
        for (const item of items) {
          await new Promise((resolve) => setImmediate(resolve));
          await handle(item).catch((error: unknown) => logger.error({ err: error, task: label }, `background task failed: ${label}`));
        }
      });
    };
    flushers.add(flush);
    return {
      push(key, item) {
        if (!waiting.has(key) && waiting.size >= options.limit) {
          dropped += 1;
          return false;
        }
        waiting.set(key, item);
        if (!timer) {
          timer = setTimeout(flush, options.intervalMs);
          timer.unref();
        }
        return true;
      },
    };
  }

  /** Waits for running tasks (queued ones are taken up at once), at most timeoutMs; returns how many were still running then. */
  async function drain(timeoutMs: number): Promise<number> {
    for (const flush of flushers) flush();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<'timeout'>((resolve) => {
      timer = setTimeout(() => resolve('timeout'), timeoutMs);
    });
    // Tasks may start others (a reset request starts its e-mail): wait until none is left.
    while (running.size > 0) {
      if ((await Promise.race([Promise.allSettled([...running]), timeout])) === 'timeout') break;
    }
    clearTimeout(timer);
    return running.size;
  }

  return {
    run,
    queue,
    drain,
    get size() {
      return running.size;
    },
  };
}

export type BackgroundTasks = ReturnType<typeof createBackgroundTasks>;
