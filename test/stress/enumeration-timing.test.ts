// Whether an account exists must not show in the time of an answer. Benchmark-style: 20 tries of
// each case, medians compared with a wide margin (25%), run on a quiet machine by `npm run test:stress`.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { account, createTestApp, PASSWORD, type TestApp } from '../support/app.js';
import { register } from '../support/requests.js';

const TRIES = 20;
const MARGIN = 0.25;
let t: TestApp;

beforeAll(async () => {
  t = await createTestApp({ realHashing: true, env: { LOCKOUT_ATTEMPTS: '1000' } });
  await register(t.app, account({ email: 'known@example.com', username: 'known' }));
  await t.ctx.services.hasher.warmUp();
});
afterAll(async () => {
  await t.close();
});

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Times two kinds of request, interleaved so that drift of the machine hits both alike. Work a request
 * left in the background is finished before the next one starts (untimed), so it is charged to neither.
 */
async function compare(
  known: (i: number) => Promise<{ statusCode: number; body: string }>,
  unknown: (i: number) => Promise<{ statusCode: number; body: string }>,
) {
  const times = { known: [] as number[], unknown: [] as number[] };
  const answers = { known: new Set<string>(), unknown: new Set<string>() };
  for (let i = 0; i < TRIES; i++) {
    for (const kind of ['known', 'unknown'] as const) {
      const started = process.hrtime.bigint();
      const response = await (kind === 'known' ? known(i) : unknown(i));
      times[kind].push(Number(process.hrtime.bigint() - started) / 1e6);
      answers[kind].add(`${response.statusCode} ${response.body}`);
      await t.ctx.services.background.drain(10_000);
    }
  }
  const ratio = median(times.known) / median(times.unknown);
  return { ratio, answers, medians: { known: median(times.known), unknown: median(times.unknown) } };
}

const post = (url: string, payload: unknown) => t.app.inject({ method: 'POST', url, payload: payload as object });

describe('no timing difference between known and unknown accounts', () => {
  it('login: wrong password of a known account vs an unknown e-mail and an unknown username', async () => {
    const byEmail = await compare(
      () => post('/api/auth/login', { email: 'known@example.com', password: 'wrong password!' }),
      (i) => post('/api/auth/login', { email: `unknown${i}@example.com`, password: 'wrong password!' }),
    );
    expect([...byEmail.answers.known]).toEqual([...byEmail.answers.unknown]);
    expect(Math.abs(byEmail.ratio - 1), JSON.stringify(byEmail.medians)).toBeLessThan(MARGIN);
    // The account must not lock during the measurement.
    await t.ctx.services.accountAdmin.unlockAccount('known@example.com');
  });

  it('request-reset: same answer and time for a known and an unknown address (production)', async () => {
    const result = await compare(
      () => post('/api/auth/request-reset', { email: 'known@example.com' }),
      (i) => post('/api/auth/request-reset', { email: `unknown${i}@example.com` }),
    );
    await t.ctx.services.background.drain(10_000);
    expect([...result.answers.known]).toEqual([...result.answers.unknown]);
    // Both answer in well under a millisecond; the margin is absolute there (scheduler noise).
    expect(Math.abs(result.medians.known - result.medians.unknown), JSON.stringify(result.medians)).toBeLessThan(Math.max(1, MARGIN * result.medians.unknown));
  });

  it('reset-password: an unknown token and a used one cost the same', async () => {
    const used = await t.ctx.services.resets.issueResetForEmail('known@example.com');
    await t.ctx.services.resets.resetPassword(used.token, PASSWORD);
    const result = await compare(
      () => post('/api/auth/reset-password', { token: used.token, new_password: PASSWORD }),
      (i) => post('/api/auth/reset-password', { token: `unknown-token-${i}`, new_password: PASSWORD }),
    );
    expect([...result.answers.known]).toEqual([...result.answers.unknown]);
    expect(Math.abs(result.medians.known - result.medians.unknown), JSON.stringify(result.medians)).toBeLessThan(Math.max(1, MARGIN * result.medians.unknown));
  });

  it('register: a taken address costs the same time as a free one (the contract answers 409 EMAIL_TAKEN for it)', async () => {
    const result = await compare(
      () => post('/api/auth/register', { email: 'known@example.com', password: PASSWORD, full_name: 'Known' }),
      (i) => post('/api/auth/register', { email: `new${i}@example.com`, password: PASSWORD, full_name: 'New' }),
    );
    expect(result.answers.known.size).toBe(1);
    expect([...result.answers.known][0]).toMatch(/^409 .*EMAIL_TAKEN/);
    expect(Math.abs(result.ratio - 1), JSON.stringify(result.medians)).toBeLessThan(MARGIN);
  });
});
