// Statistics from 1970 never hold the event loop for long (docs/security.md, "one user's data as a
// load"), against a real `serve`: a bystander's /api/health stays answered while a balance works out
// 57 cold years of holidays. Compares latencies, so it runs in the stress suite (a loaded machine
// must not decide `npm test`); moved whole from test/adversarial/exports-statistics-load.process.test.ts.
import { describe, expect, it } from 'vitest';
import { createAccountWithCli, tempDb } from '../support/cli-accounts.js';
import { login, request } from '../support/requests.js';
import { startServer } from '../support/server.js';

describe('statistics from 1970', () => {
  it('never hold the event loop for long, cold or warm, and answer alike', async () => {
    const db = tempDb();
    await createAccountWithCli(db, 'old@example.com');
    const server = await startServer(db, { LOG_LEVEL: 'warn' });
    try {
      const token = await login(server, 'old@example.com');
      const patched = await request(server, 'PATCH', '/api/settings', {
        token,
        payload: { tracking_start: '1970-01-01', holiday_region: 'DE-BW', timezone: 'Europe/Berlin' },
      });
      expect(patched.statusCode).toBe(200);
      // A bystander asks for health every 10 ms while the balance works out 57 cold years of holidays.
      let stop = false;
      const latencies: number[] = [];
      const bystander = (async () => {
        while (!stop) {
          const started = performance.now();
          await fetch(`${server.baseUrl}/api/health`).then((response) => response.arrayBuffer());
          latencies.push(performance.now() - started);
          await new Promise((resolve) => setTimeout(resolve, 10));
        }
      })();
      const coldStarted = performance.now();
      const cold = await request(server, 'GET', '/api/stats/overtime', { token });
      const coldMs = performance.now() - coldStarted;
      const warm = await request(server, 'GET', '/api/stats/overtime', { token });
      stop = true;
      await bystander;
      expect(cold.statusCode).toBe(200);
      expect(warm.json()).toEqual(cold.json());
      expect(cold.json().since).toBe('1970-01-01');
      const longest = Math.max(...latencies);
      console.log(
        `balance from 1970 (cold, ${Math.round(coldMs)} ms): bystander's health answered ${latencies.length} times, longest ${longest.toFixed(1)} ms`,
      );
      // 57 years of holidays worked out in one go would stall the bystander for about the whole
      // request; one year at a time, for a small part of it (relative: a busy machine must not decide).
      expect(longest).toBeLessThan(Math.max(100, coldMs / 3));
    } finally {
      await server.stop();
    }
  }, 120_000);
});
