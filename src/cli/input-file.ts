// Files an import command reads (a CSV of entries, an account document), or standard input for `-`:
// read through one descriptor up to a limit, so a file too large is refused with one line naming it
// before it fills the memory, and a file that cannot be read says why.
import fs from 'node:fs';
import { ServiceError } from '../common/errors.js';

const CHUNK_BYTES = 1024 * 1024;

function tooLarge(source: string, maxBytes: number): ServiceError {
  return new ServiceError(
    'VALIDATION_ERROR',
    `${source} is larger than ${maxBytes} bytes (${Math.round(maxBytes / 1024 / 1024)} MiB), the most an import reads`,
  );
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

/**
 * Where JSON text stops being JSON (line and column, 1-based), for an error message: V8 names the
 * place in some of its messages only. A small scanner of the JSON grammar, run only on text that
 * JSON.parse refused.
 */
export function jsonErrorPlace(text: string): { line: number; column: number } {
  let at = 0;
  const fail = (): never => {
    throw at;
  };
  const space = () => {
    while (at < text.length && ' \t\n\r'.includes(text[at]!)) at += 1;
  };
  const literal = (word: string) => {
    for (const character of word) {
      if (text[at] !== character) fail();
      at += 1;
    }
  };
  const string = () => {
    at = stringEnd(text, at);
  };
  const number = () => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(at, at + 400));
    if (!match) fail();
    at += match![0].length;
  };
  const value = (): void => {
    space();
    const character = text[at];
    if (character === '{') {
      at += 1;
      space();
      if (text[at] === '}') return void (at += 1);
      for (;;) {
        space();
        if (text[at] !== '"') fail();
        string();
        space();
        if (text[at] !== ':') fail();
        at += 1;
        value();
        space();
        if (text[at] === ',') at += 1;
        else if (text[at] === '}') return void (at += 1);
        else fail();
      }
    }
    if (character === '[') {
      at += 1;
      space();
      if (text[at] === ']') return void (at += 1);
      for (;;) {
        value();
        space();
        if (text[at] === ',') at += 1;
        else if (text[at] === ']') return void (at += 1);
        else fail();
      }
    }
    if (character === '"') return string();
    if (character === 't') return literal('true');
    if (character === 'f') return literal('false');
    if (character === 'n') return literal('null');
    return number();
  };
  try {
    value();
    space();
  } catch (place) {
    if (typeof place !== 'number') throw place;
    at = place;
  }
  return placeOf(text, at);
}

/** Line and column (1-based) of the character at `at`. */
function placeOf(text: string, at: number): { line: number; column: number } {
  const before = text.slice(0, at);
  return { line: before.split('\n').length, column: at - before.lastIndexOf('\n') };
}

/** Where the JSON string that starts at `from` (its opening quote) ends; throws the place where it stops being one. */
function stringEnd(text: string, from: number): number {
  let at = from + 1;
  for (;;) {
    const character = text[at];
    if (character === undefined || character < ' ') throw at;
    if (character === '"') return at + 1;
    if (character === '\\') {
      at += 1;
      if (text[at] === 'u') {
        if (!/^[0-9a-fA-F]{4}$/.test(text.slice(at + 1, at + 5))) throw at;
        at += 5;
      } else if (text[at] !== undefined && '"\\/bfnrt'.includes(text[at]!)) at += 1;
      else throw at;
    } else at += 1;
  }
}
