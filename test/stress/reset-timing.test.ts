// request-reset must not tell, by its time, whether an address has an account (docs/security.md,
// "account enumeration"), also with a real SMTP server: against a real `serve`, every request only
// queues the address; the lookup, the token and the mail happen on a timer, one after another.
// Twenty known addresses (each gets its mail) and twenty unknown ones, interleaved; the times are
// compared pair by pair (median of the differences, and a sign test).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD } from '../support/app.js';
import { tempDb } from '../support/cli-accounts.js';
import { register } from '../support/requests.js';
import { startServer, type RunningServer } from '../support/server.js';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.js';

const TRIES = 60;
let server: RunningServer;
let smtp: TestSmtpServer;

beforeAll(async () => {
  smtp = await startSmtpServer();
  server = await startServer(tempDb(), { LOG_LEVEL: 'warn', SMTP_HOST: '127.0.0.1', SMTP_PORT: String(smtp.port), SMTP_FROM: 'timetrack@example.com' });
  for (let i = 0; i < TRIES; i += 1) await register(server, { email: `known${i}@example.com`, password: PASSWORD, full_name: 'Known' });
});
afterAll(async () => {
  await server?.stop();
  await smtp?.close();
});

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const resetRequest = (email: string) =>
  fetch(`${server.baseUrl}/api/auth/request-reset`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ email }) });

/**
 * A request for `email`, and right after its answer a probe (health): the time of both. Work the
 * request set off on the server (a lookup, a token, a mail) would delay the probe: that is what an
 * attacker measures, since the answer itself goes out before such work starts.
 */
async function timedRequest(email: string): Promise<{ ms: number; answer: string }> {
  const started = performance.now();
  const response = await resetRequest(email);
  const answer = `${response.status} ${await response.text()}`;
  await (await fetch(`${server.baseUrl}/api/health`)).arrayBuffer();
  return { ms: performance.now() - started, answer };
}

describe('request-reset with SMTP', () => {
  it('takes the same time and answers the same for known and unknown addresses; the known ones get their mail', async () => {
    for (let i = 0; i < 5; i += 1) await timedRequest(`warm${i}@example.com`);
    const times = { known: [] as number[], unknown: [] as number[] };
    const answers = new Set<string>();
    for (let i = 0; i < TRIES; i += 1) {
      // Alternating which goes first, so that drift hits both alike.
      const order = i % 2 === 0 ? (['known', 'unknown'] as const) : (['unknown', 'known'] as const);
      for (const kind of order) {
        const { ms, answer } = await timedRequest(`${kind}${i}@example.com`);
        times[kind].push(ms);
        answers.add(answer);
        // A pause: what a request set off has finished before the next.
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
    expect(answers.size).toBe(1);
    // Paired: each known request against the unknown one beside it (the machine's drift hits both).
    const differences = times.known.map((ms, i) => ms - times.unknown[i]!);
    const knownSlower = differences.filter((difference) => difference > 0).length;
    const medians = { known: median(times.known), unknown: median(times.unknown), difference: median(differences) };
    console.log(
      `request-reset with SMTP (${TRIES} pairs, each request followed by a probe): medians known ${medians.known.toFixed(2)} ms, unknown ${medians.unknown.toFixed(2)} ms, ` +
        `median difference ${medians.difference.toFixed(2)} ms; known slower in ${knownSlower} of ${TRIES} pairs`,
    );
    // A sign test: without a difference, "known slower" is a coin toss (mean TRIES/2, deviation √TRIES/2);
    // three deviations either way would be a tell. And the median difference stays within noise.
    expect(Math.abs(knownSlower - TRIES / 2)).toBeLessThan(3 * (Math.sqrt(TRIES) / 2));
    expect(Math.abs(medians.difference)).toBeLessThan(Math.max(2, 0.25 * medians.unknown));
    // Every known address got its mail (from the queue), and no unknown one did.
    await smtp.waitForMessage(TRIES, 30_000);
    await new Promise((resolve) => setTimeout(resolve, 2000));
    expect(smtp.messages.flatMap((message) => message.to).sort()).toEqual(Array.from({ length: TRIES }, (_, i) => `known${i}@example.com`).sort());
  }, 120_000);
});
