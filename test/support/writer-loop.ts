// A client that writes time entries in a loop while an upgrade happens under it
// (test/deploy/migrate-upgrade-switch.process.test.ts): one account, one entry per attempt, each in an hour of
// its own (so no retry ever overlaps an entry that was written after all). Like a load balancer, it
// moves on to the next address when one answers 503 or refuses the connection, and waits a moment when
// every address did. A 503 must carry Retry-After; any other answer but 201 is a failure, recorded.

export interface WriterReport {
  /** The ids of the entries answered 201, in order. */
  acknowledged: number[];
  /** Every answer that breaks the contract: a 5xx other than 503 with Retry-After, or anything unexpected. */
  failures: string[];
  /** The acknowledged ids (or those given) that `baseUrl` no longer has. */
  missing(baseUrl: string, ids?: number[]): Promise<number[]>;
}

export interface Writers {
  acknowledged(): number[];
  waitForAcknowledged(count: number, timeoutMs?: number): Promise<void>;
  stop(): Promise<WriterReport>;
}

const HOUR_MS = 3_600_000;
const FIRST_SLOT = Date.UTC(2025, 0, 1);

async function json(baseUrl: string, method: string, route: string, body?: unknown, token?: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${baseUrl}${route}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, body: text ? (JSON.parse(text) as unknown) : undefined };
}

/** Registers the account on the first address, signs in, and starts writing. */
export async function startWriters(baseUrls: string[], account: { email: string; password: string }): Promise<Writers> {
  const registered = await json(baseUrls[0]!, 'POST', '/api/auth/register', { ...account, full_name: 'Writer' });
  if (registered.status !== 201) throw new Error(`register answered ${registered.status}`);
  const login = await json(baseUrls[0]!, 'POST', '/api/auth/login', account);
  const token = login.body.token as string;
  const acknowledged: number[] = [];
  const failures: string[] = [];
  let running = true;
  let slot = 0;
  let next = 0;

  async function attempt(): Promise<void> {
    const baseUrl = baseUrls[next % baseUrls.length]!;
    const start = FIRST_SLOT + slot * HOUR_MS;
    slot += 1;
    let response: Response;
    try {
      response = await fetch(`${baseUrl}/api/time-entries`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify({ start_at: new Date(start).toISOString(), end_at: new Date(start + HOUR_MS / 2).toISOString() }),
      });
    } catch {
      // Refused or cut: not acknowledged; the next address, after a moment.
      next += 1;
      await new Promise((resolve) => setTimeout(resolve, 50));
      return;
    }
    const text = await response.text();
    if (response.status === 201) {
      acknowledged.push((JSON.parse(text) as { entry: { id: number } }).entry.id);
      return;
    }
    if (response.status === 503 && response.headers.get('retry-after')) {
      next += 1;
      await new Promise((resolve) => setTimeout(resolve, 50));
      return;
    }
    failures.push(`${baseUrl}: ${response.status} ${text}`);
  }

  const loop = (async () => {
    while (running) await attempt();
  })();

  return {
    acknowledged: () => [...acknowledged],
    async waitForAcknowledged(count, timeoutMs = 60_000) {
      const deadline = Date.now() + timeoutMs;
      while (acknowledged.length < count) {
        if (Date.now() > deadline) throw new Error(`only ${acknowledged.length} writes acknowledged, waited for ${count}; failures: ${failures.join('; ')}`);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async stop() {
      running = false;
      await loop;
      return {
        acknowledged: [...acknowledged],
        failures,
        async missing(baseUrl, ids = acknowledged) {
          const gone: number[] = [];
          for (const id of ids) {
            const { status } = await json(baseUrl, 'GET', `/api/time-entries/${id}`, undefined, token);
            if (status !== 200) gone.push(id);
          }
          return gone;
        },
      };
    },
  };
}
