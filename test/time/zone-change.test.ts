// A change of time zone with many entries: the new per-day totals are worked out before the write
// lock, a batch at a time, so other requests are answered meanwhile; an entry written while they are
// worked out is still in the totals the change stores (all in the new zone, never a mix).
import type { KyselyPlugin } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { totalsOfSpans } from '../../src/time/entries/store.js';
import { createSettingsService } from '../../src/time/settings/settings.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { type SignedIn, signIn } from '../support/requests.js';
import { NO_MONTH_LOCK } from '../../src/time/month-lock.js';

const COUNT = 20_000;
const NOW = '2026-03-10T12:00:00.000Z';
let t: TestApp;
let ann: SignedIn;
beforeEach(async () => {
  t = await createTestApp();
  t.clock.set(NOW);
  ann = await signIn(t);
  // Entries of 5 h, twice a day from 18:00 UTC: many cross midnight in some zones and not in others.
  const base = Date.parse('2000-01-01T18:00:00Z');
  const rows = Array.from({ length: COUNT }, (_, i) => ({
    user_id: ann.userId,
    start_at: new Date(base + (i * 86_400_000) / 2).toISOString(),
    end_at: new Date(base + (i * 86_400_000) / 2 + 5 * 3_600_000).toISOString(),
    note: '',
    created_at: NOW,
    updated_at: NOW,
  }));
  for (let first = 0; first < COUNT; first += 1000)
    await t.ctx.db
      .insertInto('time_entries')
      .values(rows.slice(first, first + 1000))
      .execute();
});
afterEach(async () => {
  await t.close();
});

/** The stored totals, and the totals worked out from the stored entries in `zone`. */
async function storedAndExpected(zone: string) {
  const stored = await t.ctx.db
    .selectFrom('daily_totals')
    .select(['date', 'worked_ms', 'break_ms'])
    .where('user_id', '=', ann.userId)
    .orderBy('date')
    .execute();
  const entries = await t.ctx.db.selectFrom('time_entries').selectAll().where('user_id', '=', ann.userId).where('end_at', 'is not', null).execute();
  const expected = [
    ...totalsOfSpans(
      entries.map((e) => [Date.parse(e.start_at), Date.parse(e.end_at as string)]),
      zone,
      15 * 60_000,
    ),
  ]
    .filter(([, day]) => day.workedMs > 0)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([date, day]) => ({ date, worked_ms: day.workedMs, break_ms: day.breakMs }));
  return { stored, expected };
}

/** A settings service on the real database that tells when it has first read a batch of entries. */
function watchedSettings() {
  let firstBatchRead: () => void = () => {};
  const batchRead = new Promise<void>((resolve) => (firstBatchRead = resolve));
  const watch: KyselyPlugin = {
    transformQuery: (args) => args.node,
    transformResult: async (args) => {
      if (args.result.rows.length >= 1000) firstBatchRead();
      return args.result;
    },
  };
  return {
    settings: createSettingsService({ database: { ...t.ctx.database, db: t.ctx.db.withPlugin(watch) }, clock: t.clock, monthLock: NO_MONTH_LOCK }),
    batchRead,
  };
}

it('answers other requests while the new totals are worked out', async () => {
  const { settings, batchRead } = watchedSettings();
  const finished: string[] = [];
  const change = settings
    .updateSettings(ann.userId, { timezone: 'Pacific/Auckland', timezone_valid_from: '1970-01-01' })
    .then(() => finished.push('zone change'));
  await batchRead;
  const other = ann.call('GET', '/api/time-entries/current').then((response) => {
    finished.push('other request');
    return response;
  });
  await change;
  expect((await other).statusCode).toBe(200);
  expect(finished).toEqual(['other request', 'zone change']);
  const { stored, expected } = await storedAndExpected('Pacific/Auckland');
  expect(stored).toEqual(expected);
});

it('an entry written while the totals are worked out is in the totals the change stores', async () => {
  const { settings, batchRead } = watchedSettings();
  const change = settings.updateSettings(ann.userId, { timezone: 'Pacific/Auckland', timezone_valid_from: '1970-01-01' });
  await batchRead;
  // Before every entry the change has read: only the check inside its transaction can see it.
  const early = await ann.call('POST', '/api/time-entries', { start_at: '1999-06-01T20:00:00Z', end_at: '1999-06-01T23:00:00Z' });
  expect(early.statusCode).toBe(201);
  await change;
  const { stored, expected } = await storedAndExpected('Pacific/Auckland');
  expect(stored.find((row) => row.date === '1999-06-02')).toEqual({ date: '1999-06-02', worked_ms: 3 * 3_600_000, break_ms: 0 });
  expect(stored).toEqual(expected);
});
