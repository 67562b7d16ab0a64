// Drives HTTP load over loopback: wrk when it is installed (a C load generator, far lighter on two
// cores), autocannon otherwise. Both report requests per second and the 99th-percentile latency.
import { execFile, execFileSync } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface LoadResult {
  requestsPerSecond: number;
  /** Answers received in the run. */
  requests: number;
  p99Ms: number;
  non2xx: number;
}

export interface LoadRequest {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  connections: number;
  seconds: number;
}

export type Driver = 'wrk' | 'autocannon';

export function chooseDriver(): Driver {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return 'wrk';
  } catch (error) {
    // wrk prints its usage and exits 1 for --version; only a missing binary means "not installed".
    return (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'autocannon' : 'wrk';
  }
}

function toMs(value: string, unit: string): number {
  const factor = { us: 0.001, ms: 1, s: 1000 }[unit] ?? 1;
  return Number(value) * factor;
}

async function withWrk(request: LoadRequest): Promise<LoadResult> {
  const script = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'timetrack-wrk-')), 'request.lua');
  const lines = [`wrk.method = "${request.method ?? 'GET'}"`];
  for (const [name, value] of Object.entries(request.headers ?? {})) lines.push(`wrk.headers["${name}"] = ${JSON.stringify(value)}`);
  if (request.body !== undefined) lines.push(`wrk.body = ${JSON.stringify(request.body)}`);
  // Count answers that are not 2xx, so a figure never counts errors as throughput.
  lines.push('non2xx = 0', 'response = function(status) if status < 200 or status > 299 then non2xx = non2xx + 1 end end');
  lines.push('done = function(summary, latency, requests) io.write(string.format("NON2XX %d\\n", non2xx)) end');
  fs.writeFileSync(script, lines.join('\n'));
  const { stdout } = await run('wrk', ['-t1', `-c${request.connections}`, `-d${request.seconds}s`, '--latency', '-s', script, request.url], {
    maxBuffer: 1 << 20,
  });
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(stdout);
  const p99 = /\s99%\s+([\d.]+)(us|ms|s)/.exec(stdout);
  const non2xx = /NON2XX (\d+)/.exec(stdout);
  const requests = /(\d+) requests in/.exec(stdout);
  if (!rps || !p99 || !requests) throw new Error(`cannot read wrk output:\n${stdout}`);
  return { requestsPerSecond: Number(rps[1]), requests: Number(requests[1]), p99Ms: toMs(p99[1]!, p99[2]!), non2xx: Number(non2xx?.[1] ?? 0) };
}

async function withAutocannon(request: LoadRequest): Promise<LoadResult> {
  // autocannon ships no types; only the few fields read below are declared.
  const require = createRequire(import.meta.url);
  const autocannon = require('autocannon') as (options: object) => Promise<AutocannonResult>;
  const result = await autocannon({
    url: request.url,
    method: request.method ?? 'GET',
    headers: request.headers ?? {},
    body: request.body,
    connections: request.connections,
    duration: request.seconds,
  });
  // autocannon records latency in whole milliseconds: a fast route reads p99 = 0, which would make
  // the storm ratio meaningless. Below its resolution, count one millisecond.
  return { requestsPerSecond: result.requests.average, requests: result.requests.total, p99Ms: Math.max(result.latency.p99, 1), non2xx: result.non2xx };
}

interface AutocannonResult {
  requests: { average: number; total: number };
  latency: { p99: number };
  non2xx: number;
}

export function load(driver: Driver, request: LoadRequest): Promise<LoadResult> {
  return driver === 'wrk' ? withWrk(request) : withAutocannon(request);
}
