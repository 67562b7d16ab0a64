// A change-password does not wait behind a whole sign-in flood (docs/security.md, "change-password
// starved by a sign-in flood"): against a real `serve` with one hashing thread, 60 parallel sign-ins
// fill the queue, then the owner changes the password. The hashing lanes take turns, so the change
// (two argon2 computations) is answered while most of the flood is still waiting.
import { describe, expect, it } from 'vitest';
import { PASSWORD } from '../support/app.js';
import { createAccountWithCli, tempDb } from '../support/cli-accounts.js';
import { startServer } from '../support/server.js';

const FLOOD = 60;

describe('change-password during a sign-in flood', () => {
  it('is answered before most of the flood, not after all of it', async () => {
    const db = tempDb();
    await createAccountWithCli(db, 'ann@example.com');
    const server = await startServer(db, { HASH_CONCURRENCY: '1', HASH_QUEUE_LIMIT: '64', LOCKOUT_ATTEMPTS: '1000' });
    try {
      const post = (path: string, body: unknown, token?: string) =>
        fetch(`${server.baseUrl}${path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
          body: JSON.stringify(body),
        });
      const { token } = (await (await post('/api/auth/login', { email: 'ann@example.com', password: PASSWORD })).json()) as { token: string };
      const answered: number[] = [];
      const started = performance.now();
      const flood = Array.from({ length: FLOOD }, (_, i) =>
        post('/api/auth/login', { email: `flood-${i}@example.com`, password: `wrong guess ${i}` }).then((response) => {
          answered.push(performance.now() - started);
          return response.status;
        }),
      );
      await new Promise((resolve) => setTimeout(resolve, 100));
      const change = await post('/api/auth/change-password', { old_password: PASSWORD, new_password: 'a brand new passphrase' }, token);
      const changedAt = performance.now() - started;
      expect(change.status).toBe(200);
      const statuses = await Promise.all(flood);
      const verified = statuses.filter((status) => status === 401).length;
      const floodEnd = Math.max(...answered);
      const answeredBefore = answered.filter((at) => at < changedAt).length;
      console.log(
        `change-password answered after ${Math.round(changedAt)} ms; flood of ${verified} verified sign-ins ended after ${Math.round(floodEnd)} ms; ${answeredBefore} answered before the change`,
      );
      // Without the turns the change waits for every queued sign-in (about FLOOD argon2 computations).
      expect(verified).toBeGreaterThan(FLOOD / 2);
      expect(answeredBefore).toBeLessThan(verified / 2);
      expect(changedAt).toBeLessThan(floodEnd * 0.6);
    } finally {
      await server.stop();
    }
  }, 120_000);
});
