// Preloaded with `node --expose-gc --import` by tests that measure what a real `serve` process holds:
// on SIGUSR2 it collects the garbage and writes process.memoryUsage() as JSON to the file named by
// MEMORY_PROBE_FILE. Resident memory is no measure of what is held: the garbage a piece of work left
// is given back to the system late or never, by tens of megabytes, differently on every run.
import fs from 'node:fs';

const file = process.env.MEMORY_PROBE_FILE;
if (file && typeof globalThis.gc === 'function') {
  process.on('SIGUSR2', () => {
    globalThis.gc();
    globalThis.gc();
    fs.writeFileSync(`${file}.tmp`, JSON.stringify(process.memoryUsage()));
    fs.renameSync(`${file}.tmp`, file);
  });
}
