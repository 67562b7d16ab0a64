// With TIMETRACK_TEST_CPU_LOG=<file>, every test file appends one line there: its path, its wall time
// and the CPU time its worker process spent on it, itself and in the processes it started and waited
// for (serve, the CLI, Chromium), in seconds, then how many `serve` processes and other runs of the
// built binary it started (docs/testing.md, "How fast"). Without it, nothing.
import fs from 'node:fs';
import os from 'node:os';
import { afterAll, beforeAll } from 'vitest';
import { onBinaryStart } from './binary-starts.js';

const log = process.env.TIMETRACK_TEST_CPU_LOG;

/** This process's CPU seconds, its own and its waited-for children's, from /proc (Linux). */
function cpuSeconds(): { own: number; children: number } {
  const fields = fs.readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  // After the name: state is field 3, utime/stime/cutime/cstime are fields 14 to 17 (proc(5)).
  const [utime, stime, cutime, cstime] = [11, 12, 13, 14].map((index) => Number(fields[index]));
  const ticks = 100;
  return { own: (utime! + stime!) / ticks, children: (cutime! + cstime!) / ticks };
}

interface Starts {
  serve: number;
  cli: number;
}

/** The processes of the built binary this worker started, `serve` and the rest (./binary-starts.ts). */
function countBinaryStarts(): Starts {
  const holder = globalThis as { timetrackBinaryStarts?: Starts };
  if (holder.timetrackBinaryStarts) return holder.timetrackBinaryStarts;
  const starts: Starts = { serve: 0, cli: 0 };
  onBinaryStart('cpu-per-file', (args) => {
    if (args.includes('serve')) starts.serve++;
    else starts.cli++;
  });
  holder.timetrackBinaryStarts = starts;
  return starts;
}

if (log !== undefined && os.platform() === 'linux') {
  const starts = countBinaryStarts();
  let start = { wall: 0, own: 0, children: 0, serve: 0, cli: 0 };
  beforeAll(() => {
    start = { wall: performance.now(), ...cpuSeconds(), ...starts };
  });
  // Vitest passes the file's suite second, after a context it wants destructured.
  // eslint-disable-next-line no-empty-pattern
  afterAll(({}, suite) => {
    const end = cpuSeconds();
    const file = 'filepath' in suite ? String(suite.filepath) : suite.name;
    const row = [
      file.replace(`${process.cwd()}/`, ''),
      ((performance.now() - start.wall) / 1000).toFixed(1),
      (end.own - start.own).toFixed(1),
      (end.children - start.children).toFixed(1),
      starts.serve - start.serve,
      starts.cli - start.cli,
    ];
    fs.appendFileSync(log, `${row.join('\t')}\n`);
  });
}
