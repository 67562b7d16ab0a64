// A login flood cannot run unbounded argon2 work: at most HASH_CONCURRENCY computations at once,
// HASH_QUEUE_LIMIT waiting, and the rest answered 503 BUSY with Retry-After at once.
import { afterEach, describe, expect, it } from 'vitest';
import { argon2id, type PasswordAlgorithm } from '../../src/auth/passwords/hasher.js';
import { defaultHashConcurrency } from '../../src/config/index.js';
import { createTestApp, PASSWORD, type TestApp } from '../support/app.js';
import { register } from '../support/requests.js';

let t: TestApp;
afterEach(async () => {
  await t.close();
});

describe('bounded password hashing', () => {
  it('runs at most HASH_CONCURRENCY hashes at once and refuses what the queue cannot hold with 503 BUSY', async () => {
    // argon2id, but a verification waits until the turned-away requests have their answers (or 5 s
    // pass): on a loaded machine the first hash could otherwise finish while the flood still arrives,
    // and a free slot would rightly take one more request. Without the bound nothing is turned away,
    // every request reaches a hash, and the 5 s pass.
    let openGate!: () => void;
    const gate = new Promise<void>((resolve) => (openGate = resolve));
    const gateTimer = setTimeout(openGate, 5_000);
    let armed = false;
    const gated: PasswordAlgorithm = {
      ...argon2id,
      async verify(hash, password) {
        if (armed) await gate;
        return argon2id.verify(hash, password);
      },
    };
    t = await createTestApp({ passwordAlgorithm: gated, env: { HASH_CONCURRENCY: '1', HASH_QUEUE_LIMIT: '3', LOCKOUT_ATTEMPTS: '1000' } });
    await register(t.app);
    await t.ctx.services.hasher.warmUp(); // the dummy hash for unknown e-mails, as serve computes it at start
    armed = true;
    let peak = 0;
    let answered = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, t.ctx.services.hasher.inFlight)), 1);
    const flood = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        t.app
          .inject({
            method: 'POST',
            url: '/api/auth/login',
            payload: { email: i % 2 ? 'ann@example.com' : `other${i}@example.com`, password: i === 0 ? PASSWORD : 'wrong password!' },
          })
          .then((response) => {
            if (++answered === 20) openGate();
            return response;
          }),
      ),
    );
    clearTimeout(gateTimer);
    clearInterval(sampler);
    const statuses = flood.map((response) => response.statusCode);
    const busy = flood.filter((response) => response.statusCode === 503);
    // 1 running + 3 queued are evaluated; the other 20 are turned away without hashing.
    expect(statuses.filter((s) => s !== 503)).toHaveLength(4);
    expect(busy).toHaveLength(20);
    for (const response of busy) {
      expect(response.json()).toMatchObject({ statusCode: 503, code: 'BUSY' });
      expect(response.headers['retry-after']).toBe('1');
    }
    expect(peak).toBe(1);
    expect(t.ctx.services.hasher.inFlight).toBe(0);
    // Once the flood has passed, logins work again.
    expect((await t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: 'ann@example.com', password: PASSWORD } })).statusCode).toBe(200);
  });

  it('never runs more than the default bound (cores − 1, at least 1) at once under a flood', async () => {
    t = await createTestApp({ realHashing: true, env: { LOCKOUT_ATTEMPTS: '1000' } });
    let peak = 0;
    const sampler = setInterval(() => (peak = Math.max(peak, t.ctx.services.hasher.inFlight)), 1);
    const flood = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        t.app.inject({ method: 'POST', url: '/api/auth/login', payload: { email: `flood${i}@example.com`, password: 'wrong password!' } }),
      ),
    );
    clearInterval(sampler);
    expect(flood.every((response) => response.statusCode === 401)).toBe(true);
    expect(peak).toBe(defaultHashConcurrency());
  });
});
