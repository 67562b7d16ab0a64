// An import works out the days of its rows before its write lock; inside the lock it uses them only if
// the zones and the shortest break stored now are the ones they were worked out with, and works them
// out again otherwise (docs/time-model.md, "CSV").
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { signIn, type SignedIn } from '../support/requests.js';
import { parseRows } from '../../src/time/entries/csv-text.js';
import { importDaysIn, importDaysOf, type DaysSettings } from '../../src/time/entries/import-days.js';

// Across midnight in UTC, a break of 20 minutes, and an entry on the last evening of April in UTC
// that is already May in Tokyo.
const CSV = [
  'start_at,end_at,note',
  '2026-03-09T22:30:00Z,2026-03-10T01:00:00Z,',
  '2026-03-10T08:00:00Z,2026-03-10T09:00:00Z,',
  '2026-03-10T09:20:00Z,2026-03-10T10:00:00Z,',
  '2026-04-30T20:00:00Z,2026-04-30T21:00:00Z,',
  '',
].join('\n');
const rows = parseRows(CSV, Date.parse('2026-06-01T00:00:00Z')).rows;
const utc: DaysSettings = { zones: [{ valid_from: '1970-01-01', timezone: 'UTC' }], min_break_minutes: 15 };
const tokyo: DaysSettings = { zones: [{ valid_from: '1970-01-01', timezone: 'Asia/Tokyo' }], min_break_minutes: 15 };

describe('the days of an import', () => {
  it('worked out before the lock are used when the settings stored now are the same', () => {
    const planned = importDaysOf(rows, utc);
    expect(planned.months).toEqual([['2026-03-01', '2026-04-30']]);
    expect(importDaysIn(planned, rows, { zones: [{ valid_from: '1970-01-01', timezone: 'UTC' }], min_break_minutes: 15 })).toBe(planned);
  });

  it('are worked out again in the zones or with the shortest break stored now when either changed', () => {
    const planned = importDaysOf(rows, utc);
    const inTokyo = importDaysIn(planned, rows, tokyo);
    expect(inTokyo).toEqual(importDaysOf(rows, tokyo));
    expect(inTokyo.months).toEqual([
      ['2026-03-01', '2026-03-31'],
      ['2026-05-01', '2026-05-31'],
    ]);
    expect([...inTokyo.totals.keys()]).toEqual(['2026-03-10', '2026-05-01']);
    const longerBreak = importDaysIn(planned, rows, { ...utc, min_break_minutes: 30 });
    expect(longerBreak.totals.get('2026-03-10')?.breakMs).toBe(0);
    expect(planned.totals.get('2026-03-10')?.breakMs).toBe(20 * 60_000);
  });
});

describe('an import whose zone changes between its check and its write', () => {
  let t: TestApp;
  let ann: SignedIn;
  let bob: SignedIn;
  beforeEach(async () => {
    t = await createTestApp();
    t.clock.set('2026-06-01T08:00:00.000Z');
    ann = await signIn(t);
    bob = await signIn(t, 'bob@example.com');
    for (const user of [ann, bob])
      await user.call('PATCH', '/api/settings', { timezone: 'UTC', timezone_valid_from: '1970-01-01', tracking_start: '2026-01-01' });
  });
  afterEach(async () => {
    await t.close();
  });

  const totalsOf = async (userId: number) =>
    t.ctx.db.selectFrom('daily_totals').select(['date', 'worked_ms', 'break_ms']).where('user_id', '=', userId).orderBy('date').execute();

  it('adds its time to the days of the zone stored when it writes', async () => {
    const { entriesCsv, settings } = t.ctx.services;
    const checked = await entriesCsv.checkImport(ann.userId, rows, {});
    const planned = importDaysOf(rows, await settings.getSettings(ann.userId));
    expect([...planned.totals.keys()]).toEqual(['2026-03-09', '2026-03-10', '2026-04-30']);
    // Another write moves Ann to Tokyo after the days were worked out, before the import's lock.
    await ann.call('PATCH', '/api/settings', { timezone: 'Asia/Tokyo', timezone_valid_from: '1970-01-01' });
    const problems = await t.ctx.database.transact(async (trx) => {
      await t.ctx.database.lockUser(trx, ann.userId);
      return entriesCsv.writeImportIn(trx, ann.userId, checked, { days: planned });
    });
    expect(problems).toEqual([]);
    // Bob, in Tokyo all along, imports the same file: the same days and figures.
    await bob.call('PATCH', '/api/settings', { timezone: 'Asia/Tokyo', timezone_valid_from: '1970-01-01' });
    expect((await entriesCsv.importCsv(bob.userId, CSV, { apply: true })).applied).toBe(true);
    const annDays = await totalsOf(ann.userId);
    expect(annDays.map((day) => day.date)).toEqual(['2026-03-10', '2026-05-01']);
    expect(annDays).toEqual(await totalsOf(bob.userId));
  });
});
