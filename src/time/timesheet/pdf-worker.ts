// The thread that draws the month PDFs of `serve` (./pdf-renderer.ts): pdfkit and the fonts loaded
// once at its start, then one sheet per message, so that drawing never holds the server's event loop
// (docs/security.md, "one user's data as a load"). Built as dist/cli/pdf-worker.js (scripts/build.mjs).
import { parentPort } from 'node:worker_threads';
import { preloadPdf, timesheetPdf } from './pdf.js';
import type { PdfJob, PdfAnswer } from './pdf-renderer.js';

const port = parentPort;
if (port) {
  await preloadPdf();
  port.on('message', (job: PdfJob) => {
    timesheetPdf(job.sheet, job.person, job.language, job.seal).then(
      (pdf) => port.postMessage({ id: job.id, pdf } satisfies PdfAnswer),
      (error: unknown) => port.postMessage({ id: job.id, error: String(error) } satisfies PdfAnswer),
    );
  });
  port.postMessage({ id: 0 } satisfies PdfAnswer);
}
