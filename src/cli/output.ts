// Output of commands: --json prints one JSON document on stdout; otherwise plain lines or a table.
// Whatever an account or a client wrote (names, notes, user agents) may hold terminal escapes (ESC,
// OSC, CSI, C1 controls) that rewrite the screen or the window title of whoever reads the output:
// every control character but tab and newline is written as a visible escape instead.
import { once } from 'node:events';
import fs from 'node:fs';
import type { Writable } from 'node:stream';
import { createPrivateFile, narrowRedirectedOutput } from '../common/private-file.js';
import type { ExportStream } from '../time/exports.js';

/** C0 controls but tab and newline, DEL, and the C1 controls (U+0080–U+009F; U+009B is a CSI of its own). */
const TERMINAL_CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

/** The text with every control character a terminal would act on written as `\xHH` (`\u{HH}` for C1). */
export function terminalSafe(text: string): string {
  return text.replace(TERMINAL_CONTROL, (c) => {
    const code = c.charCodeAt(0);
    return code < 0x80 ? `\\x${code.toString(16).padStart(2, '0').toUpperCase()}` : `\\u{${code.toString(16).toUpperCase()}}`;
  });
}

/**
 * Writes an export's pieces to standard output as the reader takes them (a slow pipe holds the next
 * piece back, so memory stays at a piece or two), then gives the export's lease back.
 */
export async function writeExport(exported: ExportStream, shown: (text: string) => string = (text) => text, to: Writable = process.stdout): Promise<void> {
  try {
    for await (const piece of exported.pieces) {
      if (!to.write(shown(piece))) await once(to, 'drain');
    }
  } finally {
    await exported.close();
  }
}

/**
 * An export's destination: `--output <file>`, a new file made 0600 by this process (so also under
 * `sudo -u`, where a shell's `> file` is made by the calling user before the command runs), or
 * standard output (a redirected file of this user is narrowed to 0600 before anything is written).
 */
export async function exportTo(output: string | undefined, write: (to: Writable) => Promise<void>): Promise<void> {
  if (output === undefined) {
    narrowRedirectedOutput();
    await write(process.stdout);
    return;
  }
  const file = fs.createWriteStream('', { fd: createPrivateFile(output) });
  const closed = () => new Promise<void>((resolve, reject) => file.end((error?: Error | null) => (error ? reject(error) : resolve())));
  try {
    await write(file);
  } catch (error) {
    // Nothing half-written stays behind under the name asked for.
    await closed().catch(() => undefined);
    fs.rmSync(output, { force: true });
    throw error;
  }
  await closed();
}

/** Problems printed at most; the rest are counted in one more line (a 200,000-row file must not print 200,000 lines). */
export const PROBLEMS_SHOWN = 20;

/** The first PROBLEMS_SHOWN problem lines, and how many more there are. */
export function firstProblems(lines: string[]): string[] {
  if (lines.length <= PROBLEMS_SHOWN) return lines;
  return [...lines.slice(0, PROBLEMS_SHOWN), `… and ${lines.length - PROBLEMS_SHOWN} more problem(s)`];
}

export function printJson(value: unknown): void {
  // JSON escapes C0 itself; DEL and C1 it leaves raw, so they are written as \u escapes (still the same JSON).
  const text = JSON.stringify(value, null, 2).replace(/[\u007f-\u009f]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  process.stdout.write(`${text}\n`);
}

export function printLines(...lines: string[]): void {
  process.stdout.write(`${lines.map(terminalSafe).join('\n')}\n`);
}

/** A plain text table with a header row, columns padded to their widest cell. */
export function printTable(headers: string[], rows: string[][]): void {
  rows = rows.map((row) => row.map(terminalSafe));
  const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => (row[column] ?? '').length)));
  const format = (cells: string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  printLines(format(headers), ...rows.map(format));
}

/** What a command prints: `json` with --json, else the lines of `text`. */
export interface CommandOutput {
  json: unknown;
  text: string[];
}

export function printOutput(output: CommandOutput, asJson: boolean | undefined): void {
  if (asJson) printJson(output.json);
  else printLines(...output.text);
}

/** Set by `serve`: its stdout is the log, and a log reader that goes away is a failure to restart on, not the end of wanted output. */
export const stdoutRole = { log: false };
