// The month PDFs of one process drawn one at a time, with a short queue (docs/security.md, "one user's
// data as a load"): drawing a sheet is CPU work on the event loop, so a burst of them would otherwise
// run back to back while every other request waits. Between two sheets a macrotask passes, so the
// requests that came in meanwhile are answered; a sheet that finds the queue full is refused at once
// with BUSY (503, Retry-After) instead of waiting behind a long line.
import { setImmediate as nextMacrotask } from 'node:timers/promises';
import { ServiceError } from '../../common/errors.js';

/** Sheets waiting at most, besides the one being drawn. */
export const PDF_QUEUE_LENGTH = 4;
/** The Retry-After of a refusal: about the time the queue takes to drain. */
const RETRY_SECONDS = 2;

export function createPdfLane(queueLength: number = PDF_QUEUE_LENGTH) {
  let busy = false;
  const waiting: Array<() => void> = [];

  async function turn(): Promise<void> {
    if (!busy) {
      busy = true;
      return;
    }
    if (waiting.length >= queueLength) throw new ServiceError('BUSY', 'Too many PDF timesheets are being drawn; try again shortly', RETRY_SECONDS);
    await new Promise<void>((resolve) => waiting.push(resolve));
  }

  async function release(): Promise<void> {
    // The requests that arrived during the drawing go first.
    await nextMacrotask();
    const next = waiting.shift();
    if (next) next();
    else busy = false;
  }

  /** Runs `draw` in its turn, or refuses at once with BUSY when the queue is full. */
  async function run<T>(draw: () => Promise<T>): Promise<T> {
    await turn();
    try {
      return await draw();
    } finally {
      void release();
    }
  }

  return { run };
}
