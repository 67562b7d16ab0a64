// The bystander figure (docs/performance.md): the p95 of a second account's /me and /api/health while
// one account runs its heaviest allowed mix against the same serve: exports (CSV and account
// document), month PDFs, statistics over its five years, and changes of time zone (each a rebuild of
// every daily total), from HEAVY_WORKERS loops at once, at the default budgets (whatever they refuse
// is part of the mix). The bystander asks one request at a time, BYSTANDER_PAUSE_MS apart.
import { sleep } from './processes.js';

export const BYSTANDER = "bystander: p95 in ms of a second account's /me and /api/health while one account runs its heaviest allowed mix";
const HEAVY_WORKERS = 4;
const BYSTANDER_PAUSE_MS = 20;

const percentile = (values: number[], share: number) =>
  [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(values.length * share))] ?? NaN;

/** The heavy account's requests, in turn: each worker starts at another one. */
function heavyRequests(months: string[]): Array<{ method: string; path: string; body?: unknown }> {
  const zones = ['Europe/Lisbon', 'Europe/Berlin'];
  let zone = 0;
  const month = () => months[Math.floor(Math.random() * months.length)]!;
  return [
    { method: 'GET', path: '/api/time-entries/export' },
    { method: 'GET', path: '/api/settings/export' },
    {
      method: 'GET',
      get path() {
        return `/api/stats/month.pdf?month=${month()}`;
      },
    },
    { method: 'GET', path: '/api/stats/overtime' },
    {
      method: 'GET',
      get path() {
        return `/api/stats/month?month=${month()}`;
      },
    },
    // From the first day on: every daily total of the account is worked out again.
    {
      method: 'PATCH',
      path: '/api/settings',
      get body() {
        return { timezone: zones[(zone += 1) % 2], timezone_valid_from: '1970-01-01' };
      },
    },
  ];
}

async function timed(url: string, init: RequestInit): Promise<{ ms: number; status: number }> {
  const started = performance.now();
  const response = await fetch(url, init);
  await response.arrayBuffer();
  return { ms: performance.now() - started, status: response.status };
}

export interface BystanderResult {
  meP95: number;
  healthP95: number;
  idleMeP95: number;
  asked: number;
  heavy: Record<string, number>;
}

/** Runs the mix for `seconds` against `baseUrl`: `heavyToken` is the heavy account's, `meToken` the bystander's. */
export async function bystander(baseUrl: string, heavyToken: string, meToken: string, seconds: number): Promise<BystanderResult> {
  const me = { headers: { authorization: `Bearer ${meToken}` } };
  const idle: number[] = [];
  for (let i = 0; i < 50; i += 1) idle.push((await timed(`${baseUrl}/api/auth/me`, me)).ms);
  const months = Array.from({ length: 48 }, (_, i) => new Date(Date.now() - (i + 1) * 30 * 86_400_000).toISOString().slice(0, 7));
  const until = Date.now() + seconds * 1000;
  const heavy: Record<string, number> = {};
  const requests = heavyRequests(months);
  const workers = Array.from({ length: HEAVY_WORKERS }, async (_, worker) => {
    for (let i = worker; Date.now() < until; i += 1) {
      const request = requests[i % requests.length]!;
      const given = request.body; // read once: a zone change's body is another zone each time
      const body = given === undefined ? undefined : JSON.stringify(given);
      const headers = { authorization: `Bearer ${heavyToken}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
      const { status } = await timed(`${baseUrl}${request.path}`, { method: request.method, headers, body });
      const key = `${request.method} ${request.path.split('?')[0]} ${status}`;
      heavy[key] = (heavy[key] ?? 0) + 1;
      if (status === 429 || status === 409 || status === 503) await sleep(100);
    }
  });
  await sleep(500);
  const meTimes: number[] = [];
  const healthTimes: number[] = [];
  while (Date.now() < until) {
    const a = await timed(`${baseUrl}/api/auth/me`, me);
    const b = await timed(`${baseUrl}/api/health`, {});
    if (a.status !== 200 || b.status !== 200) throw new Error(`bystander: /me ${a.status}, /api/health ${b.status}`);
    meTimes.push(a.ms);
    healthTimes.push(b.ms);
    await sleep(BYSTANDER_PAUSE_MS);
  }
  await Promise.all(workers);
  return { meP95: percentile(meTimes, 0.95), healthP95: percentile(healthTimes, 0.95), idleMeP95: percentile(idle, 0.95), asked: meTimes.length, heavy };
}
