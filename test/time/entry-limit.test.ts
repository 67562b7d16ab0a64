// The bound on a user's entries: at MAX_ENTRIES_PER_USER every way to add one (create, the timer, the
// CSV import) answers 409 TOO_MANY_ENTRIES and writes nothing; deleting one makes room again; other
// users are not affected.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { MAX_ENTRIES_PER_USER } from '../../src/time/entries/rules.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { addEntry, type SignedIn, signIn } from '../support/requests.js';

let t: TestApp;
let ann: SignedIn;
beforeEach(async () => {
  t = await createTestApp();
  t.clock.set('2026-03-10T12:00:00.000Z');
  ann = await signIn(t);
});
afterEach(async () => {
  await t.close();
});

/** Writes `count` one-minute entries of the user straight into the table, one a minute from 2000-01-01. */
async function fillEntries(userId: number, count: number): Promise<void> {
  const base = Date.parse('2000-01-01T00:00:00Z');
  const now = '2026-03-10T12:00:00.000Z';
  await t.ctx.db.transaction().execute(async (trx) => {
    for (let first = 0; first < count; first += 1000) {
      const rows = [];
      for (let i = first; i < Math.min(count, first + 1000); i++) {
        rows.push({
          user_id: userId,
          start_at: new Date(base + i * 120_000).toISOString(),
          end_at: new Date(base + i * 120_000 + 60_000).toISOString(),
          note: '',
          created_at: now,
          updated_at: now,
        });
      }
      await trx.insertInto('time_entries').values(rows).execute();
    }
  });
}

it(`refuses the entry after the ${MAX_ENTRIES_PER_USER}th with 409 TOO_MANY_ENTRIES, by every way in`, async () => {
  await fillEntries(ann.userId, MAX_ENTRIES_PER_USER - 1);
  const last = await addEntry(ann, '2026-03-02T08:00:00Z', '2026-03-02T09:00:00Z');

  const refused = await ann.call('POST', '/api/time-entries', { start_at: '2026-03-03T08:00:00Z', end_at: '2026-03-03T09:00:00Z' });
  expect(refused.statusCode).toBe(409);
  expect(refused.json()).toEqual({
    statusCode: 409,
    error: 'Conflict',
    code: 'TOO_MANY_ENTRIES',
    message: `A user keeps at most ${MAX_ENTRIES_PER_USER} time entries; delete old ones (export them first) to add more`,
  });
  expect((await ann.call('POST', '/api/time-entries/start')).json().code).toBe('TOO_MANY_ENTRIES');
  await expect(
    t.ctx.services.entriesCsv.importCsv(ann.userId, 'start_at,end_at,note\n2026-03-04T08:00:00Z,2026-03-04T09:00:00Z,x\n', { apply: true }),
  ).rejects.toMatchObject({ code: 'TOO_MANY_ENTRIES' });
  const count = await t.ctx.db
    .selectFrom('time_entries')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', ann.userId)
    .executeTakeFirstOrThrow();
  expect(Number(count.n)).toBe(MAX_ENTRIES_PER_USER);

  const bob = await signIn(t, 'bob@example.com');
  await addEntry(bob, '2026-03-03T08:00:00Z', '2026-03-03T09:00:00Z');

  expect((await ann.call('DELETE', `/api/time-entries/${last}`)).statusCode).toBe(204);
  // Room for one: an import of two rows is refused whole.
  await expect(
    t.ctx.services.entriesCsv.importCsv(
      ann.userId,
      'start_at,end_at,note\n2026-03-04T08:00:00Z,2026-03-04T09:00:00Z,x\n2026-03-05T08:00:00Z,2026-03-05T09:00:00Z,y\n',
      { apply: true },
    ),
  ).rejects.toMatchObject({ code: 'TOO_MANY_ENTRIES' });
  await addEntry(ann, '2026-03-03T08:00:00Z', '2026-03-03T09:00:00Z');
});
