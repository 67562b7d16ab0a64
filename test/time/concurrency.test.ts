// The single-running and overlap rules hold under parallel requests in one process (inject); across
// two real `timetrack serve` processes on PostgreSQL: concurrency.process.test.ts.
import { describe, expect, it } from 'vitest';
import { createTestApp } from '../support/app.js';
import { signIn } from '../support/requests.js';
import { countBy } from './concurrency-answers.js';

describe('parallel requests in one process', () => {
  it('lets exactly one of 20 parallel starts win; the others get 409 ALREADY_RUNNING', async () => {
    const t = await createTestApp();
    try {
      const ann = await signIn(t);
      const responses = await Promise.all(Array.from({ length: 20 }, () => ann.call('POST', '/api/time-entries/start')));
      expect(countBy(responses.map((r) => [r.statusCode, r.statusCode === 201 ? undefined : r.json().code]))).toEqual({ '201': 1, '409 ALREADY_RUNNING': 19 });
      expect((await ann.call('GET', '/api/time-entries')).json().entries).toHaveLength(1);
    } finally {
      await t.close();
    }
  });
});
