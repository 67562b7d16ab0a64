// A lane for work that grows with an account's data (statistics): at most `concurrency` such jobs
// run at once in a process, the others wait their turn without costing the event loop anything, and
// past `queueLimit` waiting ones a job is refused with BUSY (503, Retry-After). However many accounts
// ask at once, only a few jobs' steps compete with everybody else's requests for the event loop.
import { ServiceError } from './errors.js';

export interface WorkLane {
  run<T>(job: () => Promise<T>): Promise<T>;
}

export function createWorkLane(options: { concurrency: number; queueLimit: number; name: string }): WorkLane {
  let active = 0;
  const waiting: Array<() => void> = [];
  const next = () => {
    active -= 1;
    const wake = waiting.shift();
    if (wake) {
      active += 1;
      wake();
    }
  };
  return {
    async run(job) {
      if (active >= options.concurrency) {
        if (waiting.length >= options.queueLimit) throw new ServiceError('BUSY', `Too many ${options.name} at once; try again shortly`, 1);
        await new Promise<void>((resolve) => waiting.push(resolve));
      } else {
        active += 1;
      }
      try {
        return await job();
      } finally {
        next();
      }
    },
  };
}
