// Draws month PDFs in a worker thread (./pdf-worker.ts), one at a time behind the lane's short queue
// (./pdf-lane.ts), so that the event loop answers everybody else meanwhile (docs/security.md, "one
// user's data as a load"). The worker starts with the first sheet a process draws (it loads pdfkit
// and the fonts once, in its own thread: a `serve` that draws none never pays for it), and a worker
// that ended is replaced at the next sheet instead of failing every PDF until a restart. Where the
// worker's file is not built (the sources run by the tests in-process), the sheets are drawn in this
// thread, still one at a time.
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { createPdfLane } from './pdf-lane.js';
import { preloadPdf, timesheetPdf, type SheetPerson } from './pdf.js';
import type { MonthSheet, SheetLanguage } from './format.js';
import type { SheetSeal } from './seal.js';

export interface PdfJob {
  id: number;
  sheet: MonthSheet;
  person: SheetPerson;
  language: SheetLanguage;
  /** An approved month's seal, printed under the figures (./seal.ts). */
  seal: SheetSeal | null;
}
/** The worker's answer to a job (id 0: it has loaded pdfkit and the fonts). */
export interface PdfAnswer {
  id: number;
  pdf?: Uint8Array;
  error?: string;
}

type Draw = (sheet: MonthSheet, person: SheetPerson, language: SheetLanguage, seal: SheetSeal | null) => Promise<Buffer>;

interface Drawer {
  draw: Draw;
  stop: () => Promise<void>;
  /** The worker has ended (or failed): the next sheet needs a new one. */
  ended: () => boolean;
}

/** Starts the worker and waits until it has loaded pdfkit and the fonts. */
async function startWorker(file: string): Promise<Drawer> {
  const worker = new Worker(file);
  worker.unref();
  const pending = new Map<number, { resolve: (pdf: Buffer) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  let failed: Error | undefined;
  const fail = (error: Error) => {
    failed = error;
    for (const job of pending.values()) job.reject(error);
    pending.clear();
  };
  worker.on('error', fail);
  worker.on('exit', () => fail(new Error('the PDF worker has ended')));
  await new Promise<void>((resolve, reject) => {
    worker.once('message', () => resolve());
    worker.once('error', reject);
  });
  worker.on('message', (answer: PdfAnswer) => {
    const job = pending.get(answer.id);
    pending.delete(answer.id);
    if (answer.pdf) job?.resolve(Buffer.from(answer.pdf));
    else job?.reject(new Error(answer.error ?? 'the PDF worker answered nothing'));
  });
  const draw: Draw = (sheet, person, language, seal) => {
    if (failed) return Promise.reject(failed);
    nextId += 1;
    const id = nextId;
    return new Promise<Buffer>((resolve, reject) => {
      pending.set(id, { resolve, reject });
      worker.postMessage({ id, sheet, person, language, seal } satisfies PdfJob);
    });
  };
  return { draw, stop: async () => void (await worker.terminate()), ended: () => failed !== undefined };
}

/** Draws in this thread (no worker file): pdfkit and the fonts loaded once. */
async function inThisThread(): Promise<Drawer> {
  await preloadPdf();
  return { draw: (sheet, person, language, seal) => timesheetPdf(sheet, person, language, seal), stop: async () => {}, ended: () => false };
}

/** The PDF drawing of a server: in the worker beside this module when it is built, else here; one at a time. */
export function startPdfRenderer() {
  const file = fileURLToPath(new URL('./pdf-worker.js', import.meta.url));
  const built = fs.existsSync(file);
  let starting: Promise<Drawer> | undefined;
  let stopped = false;
  /** The drawer of this sheet: the running one, or a new one when there is none or it ended. */
  const drawer = async (): Promise<Drawer> => {
    const current = starting && (await starting.catch(() => undefined));
    if (current && !current.ended()) return current;
    if (stopped) throw new Error('the server is stopping');
    starting = built ? startWorker(file) : inThisThread();
    return starting;
  };
  const lane = createPdfLane();
  return {
    /** The sheet drawn in its turn; BUSY at once when the queue is full. */
    run: <T>(work: (draw: Draw) => Promise<T>): Promise<T> => lane.run(async () => work((await drawer()).draw)),
    stop: async () => {
      stopped = true;
      const current = starting && (await starting.catch(() => undefined));
      await current?.stop();
    },
  };
}

export type PdfRenderer = ReturnType<typeof startPdfRenderer>;
