// The per-day totals that statistics read instead of scanning entries: after any sequence of writes
// they equal the totals computed from the entries themselves; deleting a user removes everything.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { splitByLocalDay } from '../../src/time/calendar/dates.js';
import { createTestApp, type TestApp, sqliteOf } from '../support/app.js';
import { addEntry, type SignedIn, signIn } from '../support/requests.js';
import { onPostgres } from '../support/database.js';

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

async function storedTotals(userId: number): Promise<Record<string, number>> {
  const rows = await t.ctx.db.selectFrom('daily_totals').select(['date', 'worked_ms']).where('user_id', '=', userId).orderBy('date').execute();
  return Object.fromEntries(rows.map((row) => [row.date, row.worked_ms]));
}

async function totalsFromEntries(userId: number, zone: string): Promise<Record<string, number>> {
  const entries = await t.ctx.db
    .selectFrom('time_entries')
    .select(['start_at', 'end_at'])
    .where('user_id', '=', userId)
    .where('end_at', 'is not', null)
    .execute();
  const totals: Record<string, number> = {};
  for (const entry of entries) {
    for (const piece of splitByLocalDay(Date.parse(entry.start_at), Date.parse(entry.end_at as string), zone)) {
      totals[piece.date] = (totals[piece.date] ?? 0) + piece.ms;
    }
  }
  return Object.fromEntries(Object.entries(totals).sort(([a], [b]) => a.localeCompare(b)));
}

it('keeps the per-day totals equal to the entries through creates, moves, stops, deletes and a new time zone', async () => {
  const a = await addEntry(ann, '2026-03-02T22:00:00Z', '2026-03-03T03:00:00Z');
  const b = await addEntry(ann, '2026-03-04T08:00:00Z', '2026-03-04T12:00:00Z');
  await addEntry(ann, '2026-03-05T08:00:00Z', '2026-03-05T09:00:00Z');
  expect(await storedTotals(ann.userId)).toEqual(await totalsFromEntries(ann.userId, 'UTC'));

  await ann.call('PATCH', `/api/time-entries/${a}`, { start_at: '2026-03-06T20:00:00Z', end_at: '2026-03-07T01:00:00Z' });
  await ann.call('DELETE', `/api/time-entries/${b}`);
  await ann.call('POST', '/api/time-entries/start');
  t.clock.advance(3600);
  expect(await storedTotals(ann.userId)).toEqual(await totalsFromEntries(ann.userId, 'UTC'));
  await ann.call('POST', '/api/time-entries/stop');
  const afterStop = await storedTotals(ann.userId);
  expect(afterStop).toEqual(await totalsFromEntries(ann.userId, 'UTC'));
  expect(afterStop['2026-03-10']).toBe(3_600_000);
  expect(afterStop['2026-03-04']).toBeUndefined();

  await ann.call('PATCH', '/api/settings', { timezone: 'America/New_York', timezone_valid_from: '1970-01-01' });
  expect(await storedTotals(ann.userId)).toEqual(await totalsFromEntries(ann.userId, 'America/New_York'));
});

it("deleting a user deletes the user's settings, entries, absences and totals", async () => {
  await ann.call('PATCH', '/api/settings', { timezone: 'Asia/Tokyo', timezone_valid_from: '1970-01-01' });
  await addEntry(ann, '2026-03-02T08:00:00Z', '2026-03-02T09:00:00Z');
  await ann.call('POST', '/api/time-entries/absences', { date: '2026-03-03', type: 'sick' });
  await t.ctx.db.deleteFrom('users').where('id', '=', ann.userId).execute();
  for (const table of ['user_settings', 'time_entries', 'absences', 'daily_totals'] as const) {
    const rows = await t.ctx.db.selectFrom(table).select('user_id').where('user_id', '=', ann.userId).execute();
    expect(rows, table).toEqual([]);
  }
});

it.skipIf(onPostgres)('the overtime sum over the per-day totals reads one index, not a table row per day (SQLite: skipped on PostgreSQL)', () => {
  // The shape of workedMinutesInRange's query (src/time/statistics/balance.ts).
  const plan = sqliteOf(t.ctx)
    .prepare('explain query plan select coalesce(sum(worked_ms / 60000), 0) as minutes from daily_totals where user_id = ? and date >= ? and date <= ?')
    .all(ann.userId, '2021-01-01', '2026-03-09') as Array<{ detail: string }>;
  expect(plan.map((step) => step.detail).join('\n')).toContain('USING COVERING INDEX daily_totals_worked');
});
