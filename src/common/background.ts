// Work done off the request path (issuing a reset for request-reset, sending mail). Failures are
// logged, never shown to a client; graceful shutdown waits for what is still running, up to a bound.
import type { Logger } from 'pino';

export function createBackgroundTasks(logger: Logger) {
  const running = new Set<Promise<unknown>>();

  function run(label: string, task: () => Promise<unknown>): void {
    // Started on the next turn of the event loop, not in a microtask: the answer of the request that
    // scheduled it is written first, so its time does not include the task's database writes.
    const promise = new Promise<void>((resolve) => setImmediate(resolve))
      .then(task)
      .catch((error: unknown) => logger.error({ err: error, task: label }, `background task failed: ${label}`))
      .finally(() => running.delete(promise));
    running.add(promise);
  }

  /** Waits for running tasks, at most timeoutMs; returns how many were still running then. */
  async function drain(timeoutMs: number): Promise<number> {
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

  return { run, drain, get size() { return running.size; } };
}

export type BackgroundTasks = ReturnType<typeof createBackgroundTasks>;
