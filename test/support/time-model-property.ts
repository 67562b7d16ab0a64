// Property test of the time model (docs/time-model.md): random users, settings, entries (sub-minute,
// across midnights and DST days, up to 31 days, touching), absences and edits go through the real
// services on a real SQLite file; every statistic (week days and totals, overtime, today) must equal
// what a small reference model computes. The reference shares no code with src/: it finds where a
// local day starts by scanning forward until luxon shows that date, and adds up milliseconds per day
// by plain interval overlap, then floors each day.
import fc from 'fast-check';
import { DateTime } from 'luxon';
import { expect } from 'vitest';
import type { TestApp } from './app.js';

export const ZONES = [
  'UTC',
  'America/Santiago',
  'America/Havana',
  'Atlantic/Azores',
  'Asia/Beirut',
  'Africa/Cairo',
  'Australia/Lord_Howe',
  'Asia/Kathmandu',
  'Europe/Berlin',
  'Europe/London',
  'Europe/Chisinau',
  'America/New_York',
  'America/Los_Angeles',
  'America/St_Johns',
  'America/Scoresbysund',
  'America/Asuncion',
  'Australia/Sydney',
  'Pacific/Auckland',
  'Pacific/Chatham',
  'Pacific/Kiritimati',
  'Pacific/Pago_Pago',
  'Asia/Tokyo',
  'Asia/Kolkata',
  'Asia/Tehran',
] as const;

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const WEEKDAY_KEYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;

// ---- The reference model ----------------------------------------------------------------------

const shownDate = (ms: number, zone: string): string => DateTime.fromMillis(ms, { zone }).toISODate() as string;
const plusDays = (date: string, days: number): string => new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);
const weekdayKey = (date: string) => WEEKDAY_KEYS[(new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7]!;

const dayStartCache = new Map<string, number>();
/**
 * The first instant whose local date is `date`: scan from well before (no zone is 15 hours ahead of
 * UTC) in quarter hours, then in minutes. Every clock change of these zones falls on a whole minute.
 */
function refDayStart(date: string, zone: string): number {
  const key = `${zone} ${date}`;
  const cached = dayStartCache.get(key);
  if (cached !== undefined) return cached;
  let t = Date.parse(`${date}T00:00:00Z`) - 15 * HOUR;
  while (shownDate(t, zone) < date) t += 15 * MINUTE;
  t -= 15 * MINUTE;
  while (shownDate(t, zone) < date) t += MINUTE;
  dayStartCache.set(key, t);
  return t;
}

function refDateOf(ms: number, zone: string): string {
  let date = shownDate(ms, zone);
  while (refDayStart(date, zone) > ms) date = plusDays(date, -1);
  while (refDayStart(plusDays(date, 1), zone) <= ms) date = plusDays(date, 1);
  return date;
}

interface RefEntry {
  start: number;
  end: number | null;
}

interface RefUser {
  zone: string;
  targets: Record<(typeof WEEKDAY_KEYS)[number], number>;
  trackingStart: string;
  offset: number;
  absences: Map<string, string>;
  entries: RefEntry[];
}

function refWorkedMs(user: RefUser, date: string, now: number): number {
  const from = refDayStart(date, user.zone);
  const to = refDayStart(plusDays(date, 1), user.zone);
  let ms = 0;
  for (const entry of user.entries) ms += Math.max(0, Math.min(entry.end ?? now, to) - Math.max(entry.start, from));
  return ms;
}

/** The breaks taken on a day: the gaps of at least 15 minutes between the day's pieces of entries. */
function refBreakMs(user: RefUser, date: string, now: number): number {
  const from = refDayStart(date, user.zone);
  const to = refDayStart(plusDays(date, 1), user.zone);
  const pieces = user.entries
    .map((entry) => [Math.max(entry.start, from), Math.min(entry.end ?? now, to)] as const)
    .filter(([start, end]) => end > start)
    .sort((a, b) => a[0] - b[0]);
  let ms = 0;
  for (let i = 1; i < pieces.length; i++) {
    const gap = pieces[i]![0] - pieces[i - 1]![1];
    if (gap >= 15 * MINUTE) ms += gap;
  }
  return ms;
}

function refDay(user: RefUser, date: string, now: number) {
  const absence = user.absences.get(date) ?? null;
  const target = date >= user.trackingStart && absence === null ? user.targets[weekdayKey(date)] : 0;
  const worked = Math.floor(refWorkedMs(user, date, now) / MINUTE);
  return {
    date,
    weekday: weekdayKey(date),
    target_minutes: target,
    worked_minutes: worked,
    break_minutes: Math.floor(refBreakMs(user, date, now) / MINUTE),
    break_deducted_minutes: 0,
    absence,
    absence_portion: absence === null ? null : 'full',
    public_holiday: null,
    booked_minutes: 0,
    balance_minutes: worked - target,
  };
}

function refWeek(user: RefUser, monday: string, now: number) {
  const days = [0, 1, 2, 3, 4, 5, 6].map((i) => refDay(user, plusDays(monday, i), now));
  const sum = (key: 'target_minutes' | 'worked_minutes' | 'break_minutes' | 'break_deducted_minutes' | 'booked_minutes' | 'balance_minutes') => days.reduce((total, day) => total + day[key], 0);
  return {
    week_start: monday,
    week_end: plusDays(monday, 6),
    days,
    totals: {
      target_minutes: sum('target_minutes'),
      worked_minutes: sum('worked_minutes'),
      break_minutes: sum('break_minutes'),
      break_deducted_minutes: sum('break_deducted_minutes'),
      booked_minutes: sum('booked_minutes'),
      balance_minutes: sum('balance_minutes'),
    },
  };
}

function refOvertime(user: RefUser, now: number) {
  const through = plusDays(refDateOf(now, user.zone), -1);
  let balance = user.offset;
  for (let date = user.trackingStart; date <= through; date = plusDays(date, 1)) balance += refDay(user, date, now).balance_minutes;
  return { balance_minutes: balance, offset_minutes: user.offset, since: user.trackingStart, through };
}

function refToday(user: RefUser, now: number) {
  const date = refDateOf(now, user.zone);
  const day = refDay(user, date, now);
  const endOfWork = now + day.target_minutes * MINUTE - refWorkedMs(user, date, now);
  return {
    date,
    target_minutes: day.target_minutes,
    worked_minutes: day.worked_minutes,
    break_minutes: day.break_minutes,
    break_deducted_minutes: 0,
    booked_minutes: 0,
    remaining_minutes: Math.max(0, day.target_minutes - day.worked_minutes),
    running: user.entries.some((entry) => entry.end === null),
    end_of_work: new Date(endOfWork).toISOString(),
    adjusted_end_of_work: new Date(endOfWork - refOvertime(user, now).balance_minutes * MINUTE).toISOString(),
  };
}

/** Whether an entry may be written: a positive length of at most 31 days, overlapping none of `others`. */
function refAccepts(entry: RefEntry, others: RefEntry[], now: number): boolean {
  if (entry.end !== null && entry.end <= entry.start) return false;
  if (entry.end === null && (entry.start > now || others.some((other) => other.end === null))) return false;
  if ((entry.end ?? now) - entry.start > 31 * DAY) return false;
  return others.every((other) => (entry.end ?? Infinity) <= other.start || (other.end ?? Infinity) <= entry.start);
}

// ---- Generated scenarios ----------------------------------------------------------------------

/** Days of 2026 on which the zone's offset changes (and the days either side). */
const transitionDaysCache = new Map<string, string[]>();
function transitionDays(zone: string): string[] {
  let days = transitionDaysCache.get(zone);
  if (!days) {
    days = [];
    for (let ms = Date.UTC(2026, 0, 1); ms < Date.UTC(2027, 0, 1); ms += DAY) {
      if (DateTime.fromMillis(ms, { zone }).offset !== DateTime.fromMillis(ms + DAY, { zone }).offset) {
        const date = new Date(ms).toISOString().slice(0, 10);
        days.push(plusDays(date, -1), date, plusDays(date, 1), plusDays(date, 2));
      }
    }
    if (days.length === 0) days.push('2026-03-29', '2026-10-25');
    transitionDaysCache.set(zone, days);
  }
  return days;
}

const lengthArb = fc.oneof(
  { weight: 3, arbitrary: fc.integer({ min: 1, max: MINUTE - 1 }) },
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 3 * HOUR }) },
  { weight: 3, arbitrary: fc.integer({ min: 1, max: 2 * DAY }) },
  { weight: 1, arbitrary: fc.integer({ min: 20 * DAY, max: 31 * DAY }) },
);
const gapArb = fc.oneof(fc.constant(0), fc.integer({ min: 1, max: MINUTE }), fc.integer({ min: 0, max: 6 * HOUR }), fc.integer({ min: 0, max: 3 * DAY }));
const editArb = fc.oneof(
  fc.record({ kind: fc.constant('delete' as const), index: fc.nat() }),
  fc.record({ kind: fc.constant('move' as const), index: fc.nat(), shift: fc.integer({ min: -3 * HOUR, max: 3 * HOUR }), stretch: fc.integer({ min: -2 * HOUR, max: 2 * HOUR }) }),
  fc.record({ kind: fc.constant('zone' as const), zone: fc.constantFrom(...ZONES) }),
);

const scenarioArb = fc.record({
  zone: fc.constantFrom(...ZONES),
  onTransition: fc.boolean(),
  transitionPick: fc.nat(),
  randomDay: fc.integer({ min: 0, max: 364 }),
  anchorShift: fc.integer({ min: -26 * HOUR, max: 26 * HOUR }),
  targets: fc.tuple(...WEEKDAY_KEYS.map(() => fc.oneof(fc.constant(480), fc.integer({ min: 0, max: 1440 })))),
  trackingShift: fc.integer({ min: -20, max: 3 }),
  offset: fc.integer({ min: -2000, max: 2000 }),
  pieces: fc.array(fc.record({ gap: gapArb, length: lengthArb }), { maxLength: 6 }),
  running: fc.option(fc.integer({ min: 1, max: 2 * DAY }), { nil: undefined }),
  nowAfter: fc.integer({ min: 0, max: 3 * DAY }),
  absences: fc.uniqueArray(fc.integer({ min: -3, max: 8 }), { maxLength: 3 }),
  edits: fc.array(editArb, { maxLength: 3 }),
});

type Scenario = typeof scenarioArb extends fc.Arbitrary<infer T> ? T : never;

let userCount = 0;

async function runScenario(t: TestApp, scenario: Scenario): Promise<void> {
  const { services } = t.ctx;
  const zoneDays = transitionDays(scenario.zone);
  const anchorDate = scenario.onTransition
    ? zoneDays[scenario.transitionPick % zoneDays.length]!
    : new Date(Date.UTC(2026, 0, 1) + scenario.randomDay * DAY).toISOString().slice(0, 10);
  const anchor = refDayStart(anchorDate, scenario.zone) + scenario.anchorShift;

  // Finished entries one after another (touching when the gap is 0), then maybe a running one.
  const entries: RefEntry[] = [];
  let cursor = anchor;
  for (const piece of scenario.pieces) {
    const start = cursor + piece.gap;
    entries.push({ start, end: start + piece.length });
    cursor = start + piece.length;
  }
  let now = cursor + scenario.nowAfter;
  if (scenario.running !== undefined) {
    entries.push({ start: cursor + scenario.nowAfter, end: null });
    now = cursor + scenario.nowAfter + scenario.running;
  }
  t.clock.set(new Date(now).toISOString());

  const user = await services.accounts.createAccount({ email: `user${++userCount}@example.com`, password: 'correct horse battery staple', full_name: 'Property' });
  const ref: RefUser = {
    zone: scenario.zone,
    targets: Object.fromEntries(WEEKDAY_KEYS.map((key, i) => [key, scenario.targets[i]!])) as RefUser['targets'],
    trackingStart: plusDays(anchorDate, scenario.trackingShift),
    offset: scenario.offset,
    absences: new Map(),
    entries: [],
  };
  await services.settings.updateSettings(user.id, { timezone: ref.zone, weekly_target_minutes: ref.targets, targets_valid_from: ref.trackingStart, tracking_start: ref.trackingStart, overtime_offset_minutes: ref.offset });
  for (const days of scenario.absences) {
    const date = plusDays(anchorDate, days);
    await services.absences.createAbsence(user.id, { date, type: 'vacation' });
    ref.absences.set(date, 'vacation');
  }

  const ids: number[] = [];
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  for (const entry of entries) {
    const accepted = refAccepts(entry, ref.entries, now);
    const created = await services.timeEntries.createEntry(user.id, { start_at: iso(entry.start)!, end_at: iso(entry.end) }).then(
      (row) => row.id,
      () => undefined,
    );
    expect(created !== undefined, `create ${iso(entry.start)} – ${iso(entry.end)}`).toBe(accepted);
    if (created !== undefined) {
      ids.push(created);
      ref.entries.push(entry);
    }
  }

  for (const edit of scenario.edits) {
    if (edit.kind === 'zone') {
      await services.settings.updateSettings(user.id, { timezone: edit.zone });
      ref.zone = edit.zone;
      continue;
    }
    if (ref.entries.length === 0) continue;
    const index = edit.index % ref.entries.length;
    const id = ids[index]!;
    if (edit.kind === 'delete') {
      await services.timeEntries.deleteEntry(user.id, id);
      ids.splice(index, 1);
      ref.entries.splice(index, 1);
      continue;
    }
    const old = ref.entries[index]!;
    const moved: RefEntry = { start: old.start + edit.shift, end: old.end === null ? null : old.end + edit.shift + edit.stretch };
    const accepted = refAccepts(moved, ref.entries.filter((_, i) => i !== index), now);
    const patched = await services.timeEntries.updateEntry(user.id, id, { start_at: iso(moved.start)!, end_at: iso(moved.end) }).then(
      () => true,
      () => false,
    );
    expect(patched, `move ${iso(old.start)} → ${iso(moved.start)} – ${iso(moved.end)}`).toBe(accepted);
    if (patched) ref.entries[index] = moved;
  }

  // Every week from the one before the first entry through this week, overtime and today.
  const firstDate = refDateOf(Math.min(anchor, ...ref.entries.map((entry) => entry.start)), ref.zone);
  const today = refDateOf(now, ref.zone);
  const mondayOf = (date: string) => plusDays(date, -WEEKDAY_KEYS.indexOf(weekdayKey(date)));
  for (let monday = mondayOf(plusDays(firstDate, -1)); monday <= today; monday = plusDays(monday, 7)) {
    expect(await services.statistics.weekOverview(user.id, monday), `week of ${monday}`).toEqual(refWeek(ref, monday, now));
  }
  expect(await services.statistics.weekOverview(user.id), 'this week').toEqual(refWeek(ref, mondayOf(today), now));
  expect(await services.statistics.overtime(user.id), 'overtime').toEqual(refOvertime(ref, now));
  expect(await services.statistics.today(user.id), 'today').toEqual(refToday(ref, now));
}

/** Runs `numRuns` random scenarios through the services of `t`. */
export async function checkTimeModel(t: TestApp, numRuns: number, seed?: number): Promise<void> {
  await fc.assert(
    fc.asyncProperty(scenarioArb, (scenario) => runScenario(t, scenario)),
    { numRuns, ...(seed !== undefined ? { seed } : {}) },
  );
}
