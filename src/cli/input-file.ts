// Files an import command reads (a CSV of entries, an account document), or standard input for `-`:
// read through one descriptor up to a limit, so a file too large is refused with one line naming it
// before it fills the memory, and a file that cannot be read says why.
import fs from 'node:fs';
import { ServiceError } from '../common/errors.js';

const CHUNK_BYTES = 1024 * 1024;

function tooLarge(source: string, maxBytes: number): ServiceError {
  return new ServiceError('VALIDATION_ERROR', `${source} is larger than ${maxBytes} bytes (${Math.round(maxBytes / 1024 / 1024)} MiB), the most an import reads`);
}

/** The text of `file` (or standard input for `-`), refused past `maxBytes` without reading further. */
export function readInputFile(file: string, maxBytes: number): string {
  const source = file === '-' ? 'standard input' : file;
  let fd: number;
  try {
    fd = file === '-' ? 0 : fs.openSync(file, 'r');
  } catch (error) {
    throw new ServiceError('VALIDATION_ERROR', `cannot read ${source} (${(error as NodeJS.ErrnoException).code ?? 'error'})`);
  }
  try {
    const stat = fs.fstatSync(fd);
    if (stat.isDirectory()) throw new ServiceError('VALIDATION_ERROR', `${source} is a folder, not a file`);
    if (stat.isFile() && stat.size > maxBytes) throw tooLarge(source, maxBytes);
    const chunks: Buffer[] = [];
    let total = 0;
    for (;;) {
      const chunk = Buffer.allocUnsafe(CHUNK_BYTES);
      let read: number;
      try {
        read = fs.readSync(fd, chunk, 0, CHUNK_BYTES, null);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        // A non-blocking standard input with nothing yet: wait a moment and read again.
        if (code === 'EAGAIN') {
          Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
          continue;
        }
        if (code === 'EOF') break;
        throw new ServiceError('VALIDATION_ERROR', `cannot read ${source} (${code ?? 'error'})`);
      }
      if (read === 0) break;
      total += read;
      if (total > maxBytes) throw tooLarge(source, maxBytes);
      chunks.push(chunk.subarray(0, read));
    }
    return Buffer.concat(chunks, total).toString('utf8');
  } finally {
    if (file !== '-') fs.closeSync(fd);
  }
}
