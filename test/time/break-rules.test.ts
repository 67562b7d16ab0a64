// Break rules (docs/time-model.md): breaks taken are the gaps of at least min_break_minutes between a
// day's entries; the shortfall against the highest rule the day exceeds is deducted, never below that
// rule's threshold; today's end of work includes the break still owed.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { expectError } from '../support/expectations.js';
import { addEntry, asUser, login, type SignedIn, signIn } from '../support/requests.js';

const GERMAN = [
  { worked_over_minutes: 360, break_minutes: 30 },
  { worked_over_minutes: 540, break_minutes: 45 },
];

let t: TestApp;
let ann: SignedIn;
beforeEach(async () => {
  t = await createTestApp();
  t.clock.set('2026-03-16T07:00:00.000Z'); // Monday
  ann = await signIn(t);
  await ann.call('PATCH', '/api/settings', { tracking_start: '2026-03-02', break_rules: [GERMAN[1], GERMAN[0]] });
});
afterEach(async () => {
  await t.close();
});

async function at(iso: string): Promise<void> {
  t.clock.set(iso);
  ann = asUser(t, ann.userId, await login(t.app));
}

const pick = (days: Array<Record<string, unknown>>, key: string) => days.map((day) => day[key]);

describe('break rules', () => {
  it('are stored by threshold; bad rules and minimums are refused naming the field', async () => {
    expect((await ann.call('GET', '/api/settings')).json()).toMatchObject({ break_rules: GERMAN, min_break_minutes: 15 });
    for (const [body, field] of [
      [{ break_rules: [{ worked_over_minutes: 360, break_minutes: 0 }] }, 'break_rules.0.break_minutes'],
      [{ break_rules: [{ worked_over_minutes: -1, break_minutes: 30 }] }, 'break_rules.0.worked_over_minutes'],
      [{ break_rules: [GERMAN[0], { worked_over_minutes: 360, break_minutes: 45 }] }, 'break_rules'],
      [{ min_break_minutes: 0 }, 'min_break_minutes'],
      [{ min_break_minutes: 241 }, 'min_break_minutes'],
    ] as const) {
      const refused = expectError(await ann.call('PATCH', '/api/settings', body), 400, 'VALIDATION_ERROR');
      expect(refused.details?.[0].field, JSON.stringify(body)).toBe(field);
    }
    expectError(
      await ann.call('PATCH', '/api/settings', { break_rules: Array.from({ length: 11 }, (_, i) => ({ worked_over_minutes: i, break_minutes: 5 })) }),
      400,
      'VALIDATION_ERROR',
    );
  });

  it('deduct the break not taken, never below the threshold; the week and the balance agree', async () => {
    await addEntry(ann, '2026-03-02T08:00:00Z', '2026-03-02T14:30:00Z'); // Mon 390, no break: 360
    await addEntry(ann, '2026-03-03T08:00:00Z', '2026-03-03T14:10:00Z'); // Tue 370: only 10 deducted, 360
    await addEntry(ann, '2026-03-04T08:00:00Z', '2026-03-04T12:00:00Z'); // Wed 240 + 280 with a 20-minute break: 10 deducted
    await addEntry(ann, '2026-03-04T12:20:00Z', '2026-03-04T17:00:00Z');
    await addEntry(ann, '2026-03-05T08:00:00Z', '2026-03-05T12:00:00Z'); // Thu: a 10-minute gap is no break: 530 − 30
    await addEntry(ann, '2026-03-05T12:10:00Z', '2026-03-05T17:00:00Z');
    await addEntry(ann, '2026-03-06T07:00:00Z', '2026-03-06T12:00:00Z'); // Fri 300 + 270 = 570 > 540: 45 needed, 30 taken
    await addEntry(ann, '2026-03-06T12:30:00Z', '2026-03-06T17:00:00Z');
    await addEntry(ann, '2026-03-07T08:00:00Z', '2026-03-07T14:00:00Z'); // Sat exactly 360: no rule
    const week = (await ann.call('GET', '/api/stats/week?date=2026-03-02')).json();
    expect(pick(week.days, 'worked_minutes')).toEqual([360, 360, 510, 500, 555, 360, 0]);
    expect(pick(week.days, 'break_minutes')).toEqual([0, 0, 20, 0, 30, 0, 0]);
    expect(pick(week.days, 'break_deducted_minutes')).toEqual([30, 10, 10, 30, 15, 0, 0]);
    expect(week.totals).toMatchObject({ worked_minutes: 2645, break_minutes: 50, break_deducted_minutes: 95 });
    // The balance (one aggregate in the database) is the sum of the same day rows.
    const next = (await ann.call('GET', '/api/stats/week?date=2026-03-09')).json();
    const sum = [...week.days, ...next.days].reduce((total: number, day: { balance_minutes: number }) => total + day.balance_minutes, 0);
    expect((await ann.call('GET', '/api/stats/overtime')).json()).toMatchObject({ balance_minutes: sum, through: '2026-03-15' });

    // A shorter minimum break makes Thursday's 10-minute gap a break: the totals are worked out again.
    await ann.call('PATCH', '/api/settings', { min_break_minutes: 10 });
    const again = (await ann.call('GET', '/api/stats/week?date=2026-03-02')).json();
    expect(again.days[3]).toMatchObject({ break_minutes: 10, break_deducted_minutes: 20, worked_minutes: 510 });
    const sumAgain = [...again.days, ...next.days].reduce((total: number, day: { balance_minutes: number }) => total + day.balance_minutes, 0);
    expect((await ann.call('GET', '/api/stats/overtime')).json().balance_minutes).toBe(sumAgain);
    // Without rules nothing is deducted.
    await ann.call('PATCH', '/api/settings', { break_rules: [] });
    expect(pick((await ann.call('GET', '/api/stats/week?date=2026-03-02')).json().days, 'worked_minutes')).toEqual([390, 370, 520, 530, 570, 360, 0]);
  });

  it('edits recompute the breaks of the days they touch; an import adds to a day that has entries', async () => {
    const first = await addEntry(ann, '2026-03-09T08:00:00Z', '2026-03-09T12:00:00Z');
    await addEntry(ann, '2026-03-09T12:45:00Z', '2026-03-09T16:00:00Z');
    expect((await ann.call('GET', '/api/stats/week?date=2026-03-09')).json().days[0]).toMatchObject({
      break_minutes: 45,
      break_deducted_minutes: 0,
      worked_minutes: 435,
    });
    await ann.call('PATCH', `/api/time-entries/${first}`, { end_at: '2026-03-09T12:40:00Z' });
    expect((await ann.call('GET', '/api/stats/week?date=2026-03-09')).json().days[0]).toMatchObject({
      break_minutes: 0,
      break_deducted_minutes: 30,
      worked_minutes: 445,
    });
    const csv =
      'start_at,end_at,note\n2026-03-09T16:30:00Z,2026-03-09T17:00:00Z,\n2026-03-10T08:00:00Z,2026-03-10T09:00:00Z,\n2026-03-10T09:20:00Z,2026-03-10T10:00:00Z,\n';
    const imported = await t.ctx.services.entriesCsv.importCsv(ann.userId, csv, { apply: true });
    expect(imported.applied).toBe(true);
    const days = (await ann.call('GET', '/api/stats/week?date=2026-03-09')).json().days;
    expect(days[0]).toMatchObject({ break_minutes: 30, break_deducted_minutes: 0, worked_minutes: 505 });
    expect(days[1]).toMatchObject({ break_minutes: 20, worked_minutes: 100 });
  });

  it("today's end of work includes the break still owed; a gap before the running timer or before now counts as taken", async () => {
    await at('2026-03-16T08:00:00.000Z');
    await ann.call('POST', '/api/time-entries/start');
    await at('2026-03-16T10:00:00.000Z');
    // 480 counted needs 510 worked without a break (30 deducted): 10:00 + 390 minutes.
    expect((await ann.call('GET', '/api/stats/today')).json()).toMatchObject({
      worked_minutes: 120,
      break_minutes: 0,
      end_of_work: '2026-03-16T16:30:00.000Z',
    });
    await at('2026-03-16T12:00:00.000Z');
    await ann.call('POST', '/api/time-entries/stop');
    await at('2026-03-16T12:30:00.000Z');
    // Work that starts now follows a 30-minute break: 12:30 + 240.
    expect((await ann.call('GET', '/api/stats/today')).json()).toMatchObject({ worked_minutes: 240, end_of_work: '2026-03-16T16:30:00.000Z' });
    await ann.call('POST', '/api/time-entries/start');
    await at('2026-03-16T15:00:00.000Z');
    const today = (await ann.call('GET', '/api/stats/today')).json();
    expect(today).toMatchObject({ worked_minutes: 390, break_minutes: 30, break_deducted_minutes: 0, end_of_work: '2026-03-16T16:30:00.000Z' });
    expect((await ann.call('GET', '/api/stats/week?date=2026-03-16')).json().days[0]).toMatchObject({ worked_minutes: 390, break_minutes: 30 });
    // A long day: 630 minutes worked exceed 540, whose rule asks 45 minutes; 30 were taken, 15 are deducted.
    await at('2026-03-16T19:00:00.000Z');
    expect((await ann.call('GET', '/api/stats/today')).json()).toMatchObject({ worked_minutes: 615, break_minutes: 30, break_deducted_minutes: 15 });
  });
});
