// The bound on lists: GET /api/time-entries and /absences answer at most MAX_LISTED_* items; a range
// that holds more is refused with 400 VALIDATION_ERROR asking for a shorter range, never cut short.
import type { KyselyPlugin } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { createAbsenceService, MAX_LISTED_ABSENCES } from '../../src/time/absences/absences.js';
import { MAX_LISTED_ENTRIES } from '../../src/time/entries/rules.js';
import { createTimeEntryService } from '../../src/time/entries/service.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { expectError } from '../support/expectations.js';
import { type SignedIn, signIn } from '../support/requests.js';
import { NO_MONTH_LOCK } from '../../src/time/month-lock.js';

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

const NOW = '2026-03-10T12:00:00.000Z';

/** `count` one-minute entries straight into the table, one every two minutes from 2000-01-01 00:00 UTC. */
async function fillEntries(count: number): Promise<void> {
  const base = Date.parse('2000-01-01T00:00:00Z');
  const rows = Array.from({ length: count }, (_, i) => ({
    user_id: ann.userId,
    start_at: new Date(base + i * 120_000).toISOString(),
    end_at: new Date(base + i * 120_000 + 60_000).toISOString(),
    note: '',
    created_at: NOW,
    updated_at: NOW,
  }));
  for (let first = 0; first < count; first += 1000)
    await t.ctx.db
      .insertInto('time_entries')
      .values(rows.slice(first, first + 1000))
      .execute();
}

/** `count` vacation days straight into the table, from 2000-01-01 on. */
async function fillAbsences(count: number): Promise<void> {
  const base = Date.parse('2000-01-01T00:00:00Z');
  const rows = Array.from({ length: count }, (_, i) => ({
    user_id: ann.userId,
    date: new Date(base + i * 86_400_000).toISOString().slice(0, 10),
    type: 'vacation' as const,
    note: '',
    created_at: NOW,
  }));
  for (let first = 0; first < count; first += 1000)
    await t.ctx.db
      .insertInto('absences')
      .values(rows.slice(first, first + 1000))
      .execute();
}

it(`lists up to ${MAX_LISTED_ENTRIES} entries, and refuses a range that holds one more`, async () => {
  await fillEntries(MAX_LISTED_ENTRIES);
  const all = await ann.call('GET', '/api/time-entries');
  expect(all.statusCode).toBe(200);
  expect(all.json().entries).toHaveLength(MAX_LISTED_ENTRIES);

  await t.ctx.db
    .insertInto('time_entries')
    .values({ user_id: ann.userId, start_at: '2025-12-24T08:00:00.000Z', end_at: '2025-12-24T09:00:00.000Z', note: '', created_at: NOW, updated_at: NOW })
    .execute();
  const refused = expectError(await ann.call('GET', '/api/time-entries'), 400, 'VALIDATION_ERROR');
  expect(refused.message).toBe(`The range holds more than ${MAX_LISTED_ENTRIES} entries; ask again with a shorter from/to range`);
  expectError(await ann.call('GET', '/api/time-entries?from=1999-01-01&to=2026-01-01'), 400, 'VALIDATION_ERROR');

  const shorter = await ann.call('GET', '/api/time-entries?from=2000-01-01&to=2000-01-02');
  expect(shorter.statusCode).toBe(200);
  expect(shorter.json().entries.length).toBeGreaterThan(0);
});

it(`lists up to ${MAX_LISTED_ABSENCES} absences, and refuses a range that holds one more`, async () => {
  await fillAbsences(MAX_LISTED_ABSENCES);
  const all = await ann.call('GET', '/api/time-entries/absences');
  expect(all.statusCode).toBe(200);
  expect(all.json().absences).toHaveLength(MAX_LISTED_ABSENCES);

  await t.ctx.db.insertInto('absences').values({ user_id: ann.userId, date: '2025-12-24', type: 'holiday', note: '', created_at: NOW }).execute();
  const refused = expectError(await ann.call('GET', '/api/time-entries/absences'), 400, 'VALIDATION_ERROR');
  expect(refused.message).toBe(`The range holds more than ${MAX_LISTED_ABSENCES} absences; ask again with a shorter from/to range`);

  // The browser client asks for one year of absences at a time.
  const year = await ann.call('GET', '/api/time-entries/absences?from=2000-01-03&to=2001-01-03');
  expect(year.statusCode).toBe(200);
  expect(year.json().absences).toHaveLength(366);
});

/** Watches the real database: the most rows any one query answered. */
function largestAnswer() {
  const seen = { rows: 0 };
  const plugin: KyselyPlugin = {
    transformQuery: (args) => args.node,
    transformResult: async (args) => {
      seen.rows = Math.max(seen.rows, args.result.rows.length);
      return args.result;
    },
  };
  return { seen, db: t.ctx.db.withPlugin(plugin) };
}

it('reads at most one row more than the cap to refuse a range, never all of them', async () => {
  await fillEntries(MAX_LISTED_ENTRIES * 3);
  await fillAbsences(MAX_LISTED_ABSENCES * 2);
  const { seen, db } = largestAnswer();
  const settings = t.ctx.services.settings;
  await expect(
    createTimeEntryService({ database: { ...t.ctx.database, db }, clock: t.clock, settings, monthLock: NO_MONTH_LOCK }).listEntries(ann.userId, {}),
  ).rejects.toMatchObject({
    code: 'VALIDATION_ERROR',
  });
  await expect(
    createAbsenceService({ database: { ...t.ctx.database, db }, clock: t.clock, settings, monthLock: NO_MONTH_LOCK }).listAbsences(ann.userId, {}),
  ).rejects.toMatchObject({
    code: 'VALIDATION_ERROR',
  });
  expect(seen.rows).toBe(Math.max(MAX_LISTED_ENTRIES, MAX_LISTED_ABSENCES) + 1);
});
