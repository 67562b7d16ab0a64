// Output that cannot attack its reader (docs/security.md, "output"): a CSV cell a spreadsheet would
// evaluate is escaped after every separator it may split at, not only at the start of the note; and
// control characters from notes, names or user agents (ESC, OSC, CSI, C1) never reach a terminal raw.
// Against the real binary (and a real `serve` for the user agent), with a real terminal from script(1).
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { parse } from 'csv-parse/sync';
import { execa } from 'execa';
import { afterEach, describe, expect, it } from 'vitest';
import { makeTempDir, PASSWORD } from '../support/app.js';
import { BIN, cleanEnv } from '../support/cli.js';
import { cli, createAccountWithCli, tempDb } from '../support/cli-accounts.js';
import { cliInProcess } from '../support/cli-in-process.js';
import { forEngine } from '../support/database.js';
import { startServer, type RunningServer } from '../support/server.js';

const ESC = '\u001b';
const OSC_TITLE = `${ESC}]0;pwned${'\u0007'}`;
const C1_CSI = '\u009b31m';
const NOTES = [
  'a;=HYPERLINK("http://evil.example","click")',
  'b|+cmd',
  'c\t-1+2',
  'd, @SUM(A1)',
  '=1+2',
  "'already quoted",
  'e;＝1+1',
  `title ${OSC_TITLE} and ${C1_CSI}red`,
];
/** What a spreadsheet evaluates at the start of a cell (spaces before it are trimmed by some). */
const EVALUATED = /^ *[=+\-@\uFF1D\uFF0B\uFF0D\uFF20]/;

let server: RunningServer | undefined;
afterEach(async () => {
  await server?.stop();
  server = undefined;
});

function importFile(notes: string[]): string {
  const rows = notes.map((note, i) => [`2026-03-0${(i % 8) + 1}T0${i % 9}:00:00.000Z`, `2026-03-0${(i % 8) + 1}T0${i % 9}:30:00.000Z`, note]);
  const file = path.join(makeTempDir(), 'in.csv');
  const quote = (cell: string) => `"${cell.replaceAll('"', '""')}"`;
  fs.writeFileSync(file, `start_at,end_at,note\n${rows.map((row) => row.map(quote).join(',')).join('\n')}\n`);
  return file;
}

/** Runs the binary on a real terminal (script(1) gives it a pty); answers what the terminal received. */
async function onTerminal(db: string, args: string[]): Promise<string> {
  const engine = forEngine(['--db', db, ...args], {});
  const command = ['node', BIN, ...engine.args].map((part) => `'${part.replaceAll("'", "'\\''")}'`).join(' ');
  const result = await execa('script', ['-qec', command, '/dev/null'], { env: cleanEnv(engine.env), extendEnv: false, reject: false });
  return result.stdout;
}

describe('entries export', () => {
  it('escapes every cell start a spreadsheet splitting at , ; | or tab would evaluate, and reads back exactly', async () => {
    const db = tempDb();
    await createAccountWithCli(db, 'ann@example.com');
    await createAccountWithCli(db, 'bob@example.com');
    expect((await cliInProcess(db, ['entries', 'import', '--user', 'ann@example.com', importFile(NOTES), '--apply', '-q'])).exitCode).toBe(0);
    const exported = await cli(db, ['entries', 'export', '--user', 'ann@example.com']);
    expect(exported.exitCode).toBe(0);
    const csv = String(exported.stdout);
    const notes = (parse(csv, { columns: true }) as Array<{ note: string }>).map((row) => row.note);
    expect(notes).toHaveLength(NOTES.length);
    for (const note of notes) {
      for (const cell of note.split(/[,;|\t\r\n]/)) expect(cell, note).not.toMatch(EVALUATED);
    }
    // Read back into another account: the very notes that went in.
    const file = path.join(makeTempDir(), 'out.csv');
    fs.writeFileSync(file, csv);
    expect((await cliInProcess(db, ['entries', 'import', '--user', 'bob@example.com', file, '--apply', '-q'])).exitCode).toBe(0);
    const again = String((await cli(db, ['entries', 'export', '--user', 'bob@example.com'])).stdout);
    const roundTrip = (parse(again, { columns: true }) as Array<{ note: string }>).map((row) => row.note);
    expect(roundTrip).toEqual(notes);
    expect(csv).toContain(OSC_TITLE); // into a pipe the CSV is exact
    // On a terminal, the escapes of the note are shown, not acted on.
    const shown = await onTerminal(db, ['entries', 'export', '--user', 'ann@example.com']);
    expect(shown).toContain('title \\x1B]0;pwned\\x07 and \\u{9B}31mred');
    expect(shown).not.toContain(ESC);
    expect(shown).not.toContain('\u009b');
  });
});

describe('token list', () => {
  it('shows a user agent with C1 controls (CSI, OSC, ST, NEL) escaped, in the table and in --json', async () => {
    const db = tempDb();
    await createAccountWithCli(db, 'ann@example.com');
    server = await startServer(db);
    // HTTP carries bytes 0x80–0xFF in a header (read as Latin-1): the C1 controls U+0080–U+009F.
    const userAgent = 'curl/8 \u009b2J\u009d0;owned\u009c \u0085end';
    const { hostname, port } = new URL(server.baseUrl);
    const body = JSON.stringify({ email: 'ann@example.com', password: PASSWORD });
    const request = `POST /api/auth/login HTTP/1.1\r\nHost: x\r\nUser-Agent: ${userAgent}\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\nConnection: close\r\n\r\n${body}`;
    const answer = await new Promise<string>((resolve, reject) => {
      const socket = net.connect(Number(port), hostname, () => socket.write(Buffer.from(request, 'latin1')));
      let text = '';
      socket.on('data', (chunk) => (text += chunk.toString()));
      socket.on('end', () => resolve(text));
      socket.on('error', reject);
    });
    expect(answer).toMatch(/^HTTP\/1\.1 200/);
    const table = String((await cli(db, ['token', 'list', '--user', 'ann@example.com'])).stdout);
    expect(table).toContain('curl/8 \\u{9B}2J\\u{9D}0;owned\\u{9C} \\u{85}end');
    const json = String((await cli(db, ['--json', 'token', 'list', '--user', 'ann@example.com'])).stdout);
    for (const output of [table, json]) expect(output).not.toMatch(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/);
    expect((JSON.parse(json) as { sessions: Array<{ user_agent: string }> }).sessions[0]?.user_agent).toBe(userAgent);
  });
});
