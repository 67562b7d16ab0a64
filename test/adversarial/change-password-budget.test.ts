// change-password cannot be turned into a hashing flood (docs/security.md, "Hashing capacity"):
// a budget per account and per address, and only a share of the hashing queue for account changes.
import { afterEach, describe, expect, it } from 'vitest';
import { argon2id, PasswordHasher, type PasswordAlgorithm } from '../../src/auth/passwords/hasher.js';
import { account, createTestApp, PASSWORD, type TestApp } from '../support/app.js';
import { expectError } from '../support/expectations.js';
import { bearer, login, post, register } from '../support/requests.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
  t = undefined;
});

/** An algorithm whose computations finish only when the test says so, to see who waits and who runs. */
function gatedAlgorithm() {
  const pending: Array<{ label: string; finish: () => void }> = [];
  const started: string[] = [];
  const algorithm: PasswordAlgorithm = {
    hash: (password) =>
      new Promise((resolve) => {
        started.push(password);
        pending.push({ label: password, finish: () => resolve(`hash of ${password}`) });
      }),
    verify: (_hash, password) =>
      new Promise((resolve) => {
        started.push(password);
        pending.push({ label: password, finish: () => resolve(false) });
      }),
    needsRehash: () => false,
  };
  return { algorithm, started, finishOne: () => pending.shift()?.finish() };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('hashing lanes', () => {
  it('account changes get a queue of a quarter beside the sign-in queue; a free slot alternates between the lanes', async () => {
    const gate = gatedAlgorithm();
    const hasher = new PasswordHasher({ concurrency: 1, queueLimit: 8, algorithm: gate.algorithm });
    const results: Array<Promise<unknown>> = [];
    results.push(hasher.verify('h', 'account 1', 'account'));
    await tick();
    // 1 runs; the account lane holds 2 waiters (a quarter of 8), the third is BUSY at once.
    results.push(hasher.verify('h', 'account 2', 'account'), hasher.verify('h', 'account 3', 'account'));
    await expect(hasher.verify('h', 'account 4', 'account')).rejects.toMatchObject({ code: 'BUSY' });
    // Sign-in still finds room; the lanes take turns, so neither waits behind the whole other lane.
    // Sign-in fills its whole queue (8) beside the account lane's own, and is BUSY past it.
    for (let i = 1; i <= 8; i += 1) results.push(hasher.verify('h', `login ${i}`));
    await expect(hasher.verify('h', 'login 9')).rejects.toMatchObject({ code: 'BUSY' });
    for (let i = 0; i < 11; i += 1) {
      gate.finishOne();
      await tick();
      await tick();
    }
    await Promise.all(results);
    expect(gate.started).toEqual([
      'account 1',
      'login 1',
      'account 2',
      'login 2',
      'account 3',
      'login 3',
      'login 4',
      'login 5',
      'login 6',
      'login 7',
      'login 8',
    ]);
  });
});

describe('change-password budget', () => {
  it('allows 5 changes per account in 15 minutes, then 429 RATE_LIMITED with Retry-After; other accounts are not affected', async () => {
    t = await createTestApp({ env: { LOCKOUT_ATTEMPTS: '1000' } });
    await register(t.app);
    await register(t.app, account({ email: 'bob@example.com' }));
    const ann = await login(t.app);
    const bob = await login(t.app, 'bob@example.com');
    const change = (token: string, old_password: string) =>
      post(t!.app, '/api/auth/change-password', { old_password, new_password: 'another fine passphrase' }, bearer(token));
    // A session is revoked at its third wrong old password: the budget is spent here by five sessions.
    for (let i = 0; i < 5; i += 1) expect((await change(await login(t.app), `wrong old ${i}!`)).statusCode).toBe(403);
    const limited = expectError(await change(ann, PASSWORD), 429, 'RATE_LIMITED');
    expect(limited.message).toMatch(/password changes/);
    expect((await change(bob, PASSWORD)).statusCode).toBe(200);
    t.clock.advance(15 * 60);
    expect((await change(ann, PASSWORD)).statusCode).toBe(200);
  });

  it('counts against the per-address budget of the auth routes', async () => {
    t = await createTestApp({ env: { RATE_LIMIT_AUTH: '3' } });
    await register(t.app); // 1
    const token = await login(t.app); // 2
    expect(
      (await post(t.app, '/api/auth/change-password', { old_password: 'wrong old one!', new_password: 'another fine passphrase' }, bearer(token))).statusCode,
    ).toBe(403); // 3
    expectError(
      await post(t.app, '/api/auth/change-password', { old_password: PASSWORD, new_password: 'another fine passphrase' }, bearer(token)),
      429,
      'RATE_LIMITED',
    );
  });
});

describe('a guess the hashing queue refused', () => {
  it('does not count against the lockout (nothing was verified)', async () => {
    // argon2id, but each verification waits until the other guess of its round has its answer: the
    // two always meet at the one hashing slot (on PostgreSQL the second's reads could otherwise arrive
    // after the first's hash and rightly take the free slot).
    let release: () => void = () => {};
    let armed = false;
    const gated: PasswordAlgorithm = {
      ...argon2id,
      async verify(hash, password) {
        if (armed) await new Promise<void>((resolve) => ((release = resolve), setTimeout(resolve, 5_000)));
        return argon2id.verify(hash, password);
      },
    };
    t = await createTestApp({ passwordAlgorithm: gated, env: { HASH_CONCURRENCY: '1', HASH_QUEUE_LIMIT: '0' } });
    const { user } = await register(t.app);
    await t.ctx.services.hasher.warmUp();
    armed = true;
    // Four rounds of two guesses: the first holds the one hashing slot while the second finds it taken
    // and no queue (503 BUSY); then the first is verified (401). Only the verified ones may count: 4, not
    // 8 (which would lock).
    const statuses: number[] = [];
    for (let round = 0; round < 4; round += 1) {
      const guess = (i: number) => post(t!.app, '/api/auth/login', { email: 'ann@example.com', password: `wrong guess ${round}.${i}` });
      const first = guess(0);
      while (t.ctx.services.hasher.inFlight === 0) await new Promise((resolve) => setTimeout(resolve, 1));
      const second = await guess(1);
      release();
      statuses.push((await first).statusCode, second.statusCode);
    }
    expect(statuses.filter((status) => status === 503)).toHaveLength(4);
    expect(statuses.filter((status) => status === 401)).toHaveLength(4);
    const row = await t.ctx.db.selectFrom('auth_info').select(['failed_attempts', 'locked_until']).where('user_id', '=', user.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ failed_attempts: 4, locked_until: null });
  });
});
