// Two comparisons of way (b), each side by side in alternating rounds:
// - serve against the "limit" server (limit-server.ts: Fastify doing only what `/me` must do), on
//   the 404 and on `/me`: what timetrack's structure costs beyond the work itself;
// - serve against serve started without its kept process.nextTick entry: whether the entry still
//   pays (docs/decisions/0001-process-nexttick-entry.md).
import type { LoadRequest, LoadResult } from './load.js';

interface Server {
  url: string;
  stop: () => Promise<void>;
}

type Measured = LoadResult & { busyPercent: number; cpuUs: number; lines: number };

export interface Bench<S extends Server> {
  rounds: number;
  connections: number;
  seconds: number;
  warmUp: (request: LoadRequest) => Promise<unknown>;
  measure: (server: S, request: LoadRequest) => Promise<Measured>;
  sideBySide: (left: Measured[], right: Measured[]) => string;
  put: (figure: string, cell: { measured: string; ratio: number | null }) => void;
}

export const LIMIT_404 = "(b) 404 ÷ the limit server's 404";
export const LIMIT_ME = "(b) /me ÷ the limit server's /me";
export const TICK_ENTRY = 'process.nextTick entry: CPU per 404 without ÷ with (b)';

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Alternating rounds of each pair; each ratio is the median of the rounds' ratios of `of`. */
async function rounds<S extends Server>(bench: Bench<S>, pairs: Array<[S, LoadRequest, S, LoadRequest]>): Promise<Array<[Measured[], Measured[]]>> {
  for (const [, leftRequest, , rightRequest] of pairs) {
    await bench.warmUp({ ...leftRequest, seconds: 2 });
    await bench.warmUp({ ...rightRequest, seconds: 2 });
  }
  const results = pairs.map((): [Measured[], Measured[]] => [[], []]);
  for (let round = 0; round < bench.rounds; round++) {
    for (const [i, [left, leftRequest, right, rightRequest]] of pairs.entries()) {
      results[i]![0].push(await bench.measure(left, leftRequest));
      results[i]![1].push(await bench.measure(right, rightRequest));
    }
  }
  return results;
}

const ratioOf = (left: Measured[], right: Measured[]) => median(left.map((r, i) => r.requestsPerSecond / right[i]!.requestsPerSecond));

export async function limitFigures<S extends Server>(bench: Bench<S>, serve: S, limit: S, meHeaders: Record<string, string>): Promise<void> {
  const request = (server: S, path: string, headers?: Record<string, string>): LoadRequest => ({
    url: `${server.url}${path}`,
    ...(headers && { headers }),
    connections: bench.connections,
    seconds: bench.seconds,
  });
  const [notFound, me] = await rounds(bench, [
    [serve, request(serve, '/api/no-such-route'), limit, request(limit, '/api/no-such-route')],
    [serve, request(serve, '/api/auth/me', meHeaders), limit, request(limit, '/api/auth/me', meHeaders)],
  ]);
  if ([...me![0], ...me![1]].some((r) => r.non2xx > 0)) throw new Error('/me answered errors beside the limit server');
  bench.put(LIMIT_404, { measured: bench.sideBySide(notFound![0], notFound![1]), ratio: ratioOf(notFound![0], notFound![1]) });
  bench.put(LIMIT_ME, { measured: bench.sideBySide(me![0], me![1]), ratio: ratioOf(me![0], me![1]) });
}

export async function tickEntryFigure<S extends Server>(bench: Bench<S>, withEntry: S, withoutEntry: S): Promise<void> {
  const request = (server: S): LoadRequest => ({ url: `${server.url}/api/no-such-route`, connections: bench.connections, seconds: bench.seconds });
  const [[without, kept]] = (await rounds(bench, [[withoutEntry, request(withoutEntry), withEntry, request(withEntry)]])) as [[Measured[], Measured[]]];
  // CPU per answer: above 1, serve without the entry spends more on each answer than with it.
  const ratio = median(without.map((r, i) => r.cpuUs / kept[i]!.cpuUs));
  bench.put(TICK_ENTRY, { measured: bench.sideBySide(without, kept), ratio });
}
