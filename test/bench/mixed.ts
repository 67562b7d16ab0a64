// Mixed traffic of a team at the rate its people make it, while a login flood runs: the latency a
// person sees, which the throughput figures do not say. Open loop: each request is sent at its
// scheduled time whatever the answers before it, and its latency counts from that time, so a
// server that falls behind shows it (a closed-loop driver would wait and hide it).
//
// The rate assumed (docs/performance.md, "Goals and why"): 200 people, each one request every 10 s
// (20 a second: Today 35 %, Week 25 %, Month 15 %, a new entry 25 %), plus one person signing in
// each second. That is a busy morning on which everyone's client is in use all the time; a person
// books a few entries a day, so real use is below this.
import { randomBytes } from 'node:crypto';
import { createContext } from '../../src/composition-root.js';

export const PEOPLE = 200;
export const REQUESTS_PER_PERSON_PER_SECOND = 0.1;
export const LOGINS_PER_SECOND = 1;

interface Person {
  id: number;
  email: string;
  token: string;
}

/** 200 accounts with two weeks of entries each and a stored session (signed as login signs one). */
export async function seedPeople(env: Record<string, string>, password: string): Promise<Person[]> {
  const ctx = await createContext({ env: { ...env, LOG_LEVEL: 'warn' }, migrate: true, logDestination: process.stderr });
  const { accounts, settings, timeEntries, sessions } = ctx.services;
  const people: Person[] = [];
  const suffix = randomBytes(3).toString('hex');
  const start = new Date(Date.now() - 365 * 86_400_000).toISOString().slice(0, 10);
  const seedPerson = async (i: number) => {
    const email = `person-${i}-${suffix}@example.com`;
    const user = await accounts.createAccount({ email, password, full_name: `Person ${i}` });
    // A zone change recounts the account's days, at most two accounts at once in a process (BUSY
    // beyond: docs/security.md); the seed waits its turn as a client would.
    for (;;) {
      try {
        await settings.updateSettings(user.id, { timezone: 'Europe/Berlin', holiday_region: 'DE-BY', tracking_start: start });
        break;
      } catch (error) {
        if ((error as { code?: string }).code !== 'BUSY') throw error;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
    for (let day = 14; day >= 1; day--) {
      const date = new Date(Date.now() - day * 86_400_000).toISOString().slice(0, 10);
      await timeEntries.createEntry(user.id, { start_at: `${date}T07:30:00Z`, end_at: `${date}T16:00:00Z`, note: 'work' });
    }
    const signed = await sessions.signSession(user.id);
    await ctx.database.transact((trx) => sessions.storeSession(signed, trx));
    return { id: user.id, email, token: signed.token };
  };
  // Ten at a time: the writes of one overlap the hashing of the next.
  for (let i = 0; i < PEOPLE; i += 10) people.push(...(await Promise.all(Array.from({ length: 10 }, (_, j) => seedPerson(i + j)))));
  await ctx.close();
  return people;
}

/** The body of a new finished entry of two minutes from `startMs`. */
const twoMinuteEntry = (startMs: number, note: string) =>
  JSON.stringify({ start_at: new Date(startMs).toISOString(), end_at: new Date(startMs + 120_000).toISOString(), note });

/**
 * The morning before the measured minutes: every person's token is known to this process (a token's
 * first request verifies its signature on libuv's pool, where it would queue behind the flood's
 * hashes), and each kind of request has been answered once (a route's schemas are compiled at its
 * first request, docs/performance.md, "Deliberate optimisations": the process's first Month took
 * 0.22 s here). The figure is the latency of a server that has been up, not of its first second.
 */
export async function warmUp(baseUrl: string, people: Person[]): Promise<void> {
  for (const person of people) await fetch(`${baseUrl}/api/auth/me`, { headers: { authorization: `Bearer ${person.token}` } }).then((r) => r.arrayBuffer());
  const headers = { authorization: `Bearer ${people[0]!.token}` };
  for (const path of ['/api/stats/today', '/api/stats/week', '/api/stats/month']) {
    const response = await fetch(`${baseUrl}${path}`, { headers });
    await response.arrayBuffer();
    if (!response.ok) throw new Error(`warm-up: ${path} answered ${response.status}`);
  }
  // On a day before the measured writes' (mixedTraffic's start a year back, on 5 January).
  const body = twoMinuteEntry(Date.UTC(new Date().getUTCFullYear() - 1, 0, 4, 6), 'warm-up');
  const response = await fetch(`${baseUrl}/api/time-entries`, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`warm-up: POST /api/time-entries answered ${response.status}`);
}

interface MixedResult {
  sent: number;
  /** The slowest requests (not logins): what they were, when they were sent and how long they took. */
  slowest: string[];
  failed: number;
  p50Ms: number;
  p99Ms: number;
  loginP50Ms: number;
  loginP99Ms: number;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length * p) / 100))] ?? 0;
};

/** Sends the team's traffic to `baseUrl` for `seconds`, open loop; `during` runs beside it (the flood). */
export async function mixedTraffic(baseUrl: string, people: Person[], password: string, seconds: number): Promise<MixedResult> {
  const rate = people.length * REQUESTS_PER_PERSON_PER_SECOND;
  const started = performance.now();
  const latencies: number[] = [];
  const logins: number[] = [];
  const slow: { ms: number; what: string }[] = [];
  let failed = 0;
  let writes = 0;
  const pending: Promise<void>[] = [];
  const send = (at: number, path: string, init: RequestInit, into: number[]) =>
    pending.push(
      (async () => {
        const wait = started + at - performance.now();
        if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
        try {
          const response = await fetch(`${baseUrl}${path}`, init);
          await response.arrayBuffer();
          if (!response.ok) failed += 1;
        } catch {
          failed += 1;
        }
        const ms = performance.now() - started - at;
        into.push(ms);
        if (into === latencies) slow.push({ ms, what: `${init.method ?? 'GET'} ${path} sent at ${(at / 1000).toFixed(1)} s` });
      })(),
    );
  for (let i = 0; i < seconds * rate; i++) {
    const person = people[Math.floor(Math.random() * people.length)]!;
    const headers = { authorization: `Bearer ${person.token}` };
    const kind = Math.random();
    const at = (i * 1000) / rate;
    if (kind < 0.35) send(at, '/api/stats/today', { headers }, latencies);
    else if (kind < 0.6) send(at, '/api/stats/week', { headers }, latencies);
    else if (kind < 0.75) send(at, '/api/stats/month', { headers }, latencies);
    else {
      // A finished entry of two minutes, each at its own time a year back: never overlapping.
      const body = twoMinuteEntry(Date.UTC(new Date().getUTCFullYear() - 1, 0, 5, 6) + writes++ * 180_000, 'mixed');
      send(at, '/api/time-entries', { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body }, latencies);
    }
  }
  for (let s = 0; s < seconds * LOGINS_PER_SECOND; s++) {
    const person = people[s % people.length]!;
    send(
      (s * 1000) / LOGINS_PER_SECOND,
      '/api/auth/login',
      { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email: person.email, password }) },
      logins,
    );
  }
  await Promise.all(pending);
  return {
    sent: latencies.length + logins.length,
    slowest: slow
      .sort((a, b) => b.ms - a.ms)
      .slice(0, 6)
      .map(({ ms, what }) => `${ms.toFixed(1)} ms ${what}`),
    failed,
    p50Ms: percentile(latencies, 50),
    p99Ms: percentile(latencies, 99),
    loginP50Ms: percentile(logins, 50),
    loginP99Ms: percentile(logins, 99),
  };
}
