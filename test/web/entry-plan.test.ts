// The browser test's hand-typed entry is built from the clock (test/support/entry-plan.ts). Here the
// builder runs under fixed clocks: every 10 minutes of whole weeks, the week boundary, and the weeks
// of the clock changes, so the browser test passes whenever it runs.
import { DateTime } from 'luxon';
import { describe, expect, it } from 'vitest';
import { ENTRY_CLEARANCE_MINUTES, planEntry, type EntryPlan } from '../support/entry-plan.js';

const ZONE = 'Europe/Berlin';

/** What the browser test relies on; an empty list when the plan holds. */
function problems(now: DateTime, plan: Pick<EntryPlan, 'start' | 'minutes'> & { thisWeek?: boolean }): string[] {
  const found: string[] = [];
  const { start, minutes } = plan;
  const end = start.plus({ minutes });
  const date = start.toISODate();
  if (end.minus({ milliseconds: 1 }).toISODate() !== date) found.push(`crosses midnight: ${start.toISO()} to ${end.toISO()}`);
  if (start.startOf('week').toISODate() !== end.minus({ milliseconds: 1 }).startOf('week').toISODate()) found.push('crosses the week boundary');
  if (end > now.minus({ minutes: ENTRY_CLEARANCE_MINUTES })) found.push(`ends after now − ${ENTRY_CLEARANCE_MINUTES} min`);
  // The test types the date and HH:mm and reads back the span HH:mm–HH:mm: both must mean these instants.
  const typed = DateTime.fromISO(`${date}T${start.toFormat('HH:mm')}`, { zone: start.zone });
  if (typed.toMillis() !== start.toMillis()) found.push(`typed start ${start.toFormat('HH:mm')} is another instant`);
  const wallMinutes = end.hour * 60 + end.minute - (start.hour * 60 + start.minute);
  if (wallMinutes !== minutes) found.push(`the clock shows ${wallMinutes} minutes`);
  const weeksBack = Math.round(now.startOf('week').diff(start.startOf('week'), 'weeks').weeks);
  if (weeksBack > 1) found.push(`${weeksBack} weeks back`);
  if (plan.thisWeek !== undefined && plan.thisWeek !== (weeksBack === 0)) found.push('thisWeek is wrong');
  return found;
}

function every(step: number, from: DateTime, days: number): DateTime[] {
  const instants: DateTime[] = [];
  for (let minute = 0; minute < days * 24 * 60; minute += step) instants.push(from.plus({ minutes: minute }));
  return instants;
}

describe('the browser test entry, built from the clock', () => {
  it('at Tuesday 00:45 UTC (where the old rule crossed the week boundary) and around Monday midnight', () => {
    const fixed = [
      '2026-11-24T00:45:00Z',
      '2026-11-24T00:30:00Z',
      '2026-11-24T01:59:00Z',
      '2026-11-23T23:59:00Z',
      '2026-11-22T23:01:00Z',
      '2026-11-23T00:00:00Z',
      '2026-11-22T23:59:00Z',
      '2026-11-29T22:59:59Z',
    ];
    for (const iso of fixed) {
      const now = DateTime.fromISO(iso, { zone: 'utc' }).setZone(ZONE);
      const plan = planEntry(now);
      expect(problems(now, plan), `${iso}: ${plan.start.toISO()}`).toEqual([]);
      expect(plan.end.diff(plan.start, 'minutes').minutes).toBe(90);
    }
    // Tuesday 00:45 UTC is 01:45 in Berlin: today has just room (00:00–01:30); at 00:30 UTC it is Monday's.
    const tuesday = planEntry(DateTime.fromISO('2026-11-24T00:45:00Z').setZone(ZONE));
    expect([tuesday.start.toISO(), tuesday.thisWeek]).toEqual(['2026-11-24T00:00:00.000+01:00', true]);
    const earlier = planEntry(DateTime.fromISO('2026-11-24T00:30:00Z').setZone(ZONE));
    expect([earlier.start.toISO(), earlier.thisWeek]).toEqual(['2026-11-23T22:29:00.000+01:00', true]);
    // Monday 00:30 in Berlin: no room today, so Sunday, last week.
    const monday = planEntry(DateTime.fromISO('2026-11-22T23:30:00Z').setZone(ZONE));
    expect(monday.start.toISODate()).toBe('2026-11-22');
    expect(monday.thisWeek).toBe(false);
  });

  it('the rule it replaces (3 hours back, or 26 before 03:00) fails these checks at Tuesday 00:45 UTC', () => {
    const now = DateTime.fromISO('2026-11-24T00:45:00Z').setZone(ZONE).startOf('minute');
    const start = now.hour >= 3 ? now.minus({ hours: 3 }) : now.minus({ hours: 26 });
    expect(problems(now, { start, minutes: 90 })).toContain('crosses the week boundary');
  });

  // About 7,000 instants: minutes of work on a loaded machine.
  it('every ten minutes of a winter week, a summer week and the weeks of both clock changes', { timeout: 300_000 }, () => {
    const weeks = ['2026-11-23', '2026-07-13', '2026-03-23', '2026-10-19', '2027-03-22', '2027-10-25'];
    for (const monday of weeks) {
      // From the Monday before 00:00 local, a few hours early, to cover the boundary from both sides.
      const from = DateTime.fromISO(`${monday}T00:00`, { zone: ZONE }).minus({ hours: 3 });
      for (const now of every(10, from, 8)) {
        const plan = planEntry(now);
        expect(problems(now, plan), `${now.toISO()}: ${plan.start.toISO()}`).toEqual([]);
      }
    }
  });

  it('in zones with other offsets and clock changes', () => {
    for (const zone of ['UTC', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kolkata', 'America/Santiago']) {
      for (const now of every(30, DateTime.fromISO('2026-04-02T00:00', { zone }), 7)) {
        expect(problems(now, planEntry(now)), now.toISO() ?? '').toEqual([]);
      }
    }
  });
});
