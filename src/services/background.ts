// Work done off the request path (issuing a reset for request-reset, sending mail). Failures are
// logged, never shown to a client; graceful shutdown waits for what is still running, up to a bound.
import type { Logger } from 'pino';

export function createBackgroundTasks(logger: Logger) {
  const running = new Set<Promise<unknown>>();

  function run(label: string, task: () => Promise<unknown>): void {
    const promise = Promise.resolve()
      .then(task)
      .catch((error: unknown) => logger.error({ err: error, task: label }, `background task failed: ${label}`))
      .finally(() => running.delete(promise));
    running.add(promise);
  }

  /** Waits for running tasks, at most timeoutMs; returns how many were still running then. */
  async function drain(timeoutMs: number): Promise<number> {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, timeoutMs);
    });
    await Promise.race([Promise.allSettled([...running]), timeout]);
    clearTimeout(timer);
    return running.size;
  }

  return { run, drain, get size() { return running.size; } };
}

export type BackgroundTasks = ReturnType<typeof createBackgroundTasks>;
