// Property test of the time model (docs/time-model.md): random users, settings (target schedules, break
// rules, the shortest break, a timer limit, a vacation allowance), entries (sub-minute, across midnights
// and DST days, up to 31 days, touching), whole and half absences, bookings and edits go through the
// real services on a real database; every statistic read through the API (week days and totals,
// overtime, today, the month sheet with its vacation, and for a few users the PDF's text) must equal
// what a small reference model computes. The reference shares no code with src/: it finds where a
// local day starts by scanning forward until luxon shows that date, and adds up milliseconds per day
// by plain interval overlap, then floors each day.
import fc from 'fast-check';
import { DateTime } from 'luxon';
import { expect } from 'vitest';
import type { TestApp } from './app.js';
import { login, request } from './requests.js';
import { expectPdfShowsSheet } from './timesheet.js';

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

/** The zone a user's day counts in: the latest change on or before it, the earliest before them all. */
function refZoneOn(user: RefUser, date: string): string {
  let zone = user.zones[0]!.zone;
  for (const change of user.zones) if (change.from <= date) zone = change.zone;
  return zone;
}

/**
 * Where a user's day starts: where the day before ends, at the next midnight of the day before's zone;
 * after a day whose zone differs from the one before it (a change), never before that day started.
 */
function refStart(user: RefUser, date: string): number {
  const before = plusDays(date, -1);
  const start = refDayStart(date, refZoneOn(user, before));
  return refZoneOn(user, before) === refZoneOn(user, plusDays(before, -1)) ? start : Math.max(start, refStart(user, before));
}

function refDateOf(ms: number, user: RefUser): string {
  let date = shownDate(ms, 'UTC');
  while (refStart(user, date) > ms) date = plusDays(date, -1);
  while (refStart(user, plusDays(date, 1)) <= ms) date = plusDays(date, 1);
  return date;
}

interface RefEntry {
  start: number;
  end: number | null;
}

type Targets = Record<(typeof WEEKDAY_KEYS)[number], number>;

interface RefUser {
  /** Zones by first day, oldest first: the latest on or before a day is its zone, the earliest before them all. */
  zones: Array<{ from: string; zone: string }>;
  /** Schedules by valid_from, oldest first: the latest on or before a day is in force, the earliest before them all. */
  schedules: Array<{ from: string; targets: Targets }>;
  trackingStart: string;
  offset: number;
  absences: Map<string, { type: string; portion: 'full' | 'half' }>;
  bookings: Array<{ date: string; minutes: number }>;
  rules: Array<{ over: number; minutes: number }>;
  minBreak: number;
  timerLimit: number | null;
  vacationPerYear: number | null;
  /** Vacation days taken in the year of the tracking start before it. */
  takenBefore: number | null;
  carryCap: number | null;
  entries: RefEntry[];
}

function refScheduled(user: RefUser, date: string): number {
  const sorted = [...user.schedules].sort((a, b) => a.from.localeCompare(b.from));
  let current = sorted[0]!;
  for (const schedule of sorted) if (schedule.from <= date) current = schedule;
  return current.targets[weekdayKey(date)];
}

/** Where an entry ends for the figures: its end, or now, but never past a timer limit. */
function refEnd(user: RefUser, entry: RefEntry, now: number): number {
  if (entry.end !== null) return entry.end;
  return user.timerLimit === null ? now : Math.min(now, entry.start + user.timerLimit * MINUTE);
}

/** The pieces of entries inside a local day, in order. */
function refPieces(user: RefUser, date: string, now: number): Array<[number, number]> {
  const from = refStart(user, date);
  const to = refStart(user, plusDays(date, 1));
  // A running entry that starts now is a piece of no length yet: the day has begun (its first start,
  // no last end), though nothing is worked.
  return user.entries
    .map((entry) => [entry, Math.max(entry.start, from), Math.min(refEnd(user, entry, now), to)] as const)
    .filter(([entry, start, end]) => end > start || (entry.end === null && start === entry.start && end === start && start < to))
    .map(([, start, end]) => [start, end] as [number, number])
    .sort((a, b) => a[0] - b[0]);
}

function refWorkedMs(user: RefUser, date: string, now: number): number {
  return refPieces(user, date, now).reduce((sum, [start, end]) => sum + end - start, 0);
}

/** The longest break: a longer gap splits the shift (docs/time-model.md, Break rules). */
const MAX_BREAK = 180;

/** The breaks taken on a day: the gaps of at least min_break and at most MAX_BREAK between the day's pieces of entries. */
function refBreakMs(user: RefUser, date: string, now: number): number {
  const pieces = refPieces(user, date, now);
  let ms = 0;
  for (let i = 1; i < pieces.length; i++) {
    const gap = pieces[i]![0] - pieces[i - 1]![1];
    if (gap >= user.minBreak * MINUTE && gap <= MAX_BREAK * MINUTE) ms += gap;
  }
  return ms;
}

/** The deduction, by the words of the rule: the highest threshold exceeded; the shortfall, not below that threshold. */
function refDeduction(user: RefUser, raw: number, taken: number): number {
  const exceeded = user.rules.filter((rule) => raw > rule.over).sort((a, b) => b.over - a.over)[0];
  if (!exceeded || exceeded.minutes <= taken) return 0;
  return Math.min(exceeded.minutes - taken, raw - exceeded.over);
}

function refDay(user: RefUser, date: string, now: number) {
  const absence = user.absences.get(date) ?? null;
  const scheduled = date >= user.trackingStart ? refScheduled(user, date) : 0;
  const target = absence === null ? scheduled : absence.portion === 'half' ? Math.floor(scheduled / 2) : 0;
  const raw = Math.floor(refWorkedMs(user, date, now) / MINUTE);
  const taken = Math.floor(refBreakMs(user, date, now) / MINUTE);
  const deducted = refDeduction(user, raw, taken);
  const booked = user.bookings.filter((booking) => booking.date === date).reduce((sum, booking) => sum + booking.minutes, 0);
  // A balance counts complete days only: over (before today in the zone) and tracked.
  const complete = date < refDateOf(now, user) && date >= user.trackingStart;
  return {
    date,
    weekday: weekdayKey(date),
    target_minutes: target,
    worked_minutes: raw - deducted,
    break_minutes: taken,
    break_deducted_minutes: deducted,
    absence: absence?.type ?? null,
    absence_portion: absence?.portion ?? null,
    public_holiday: null,
    booked_minutes: booked,
    complete,
    balance_minutes: complete ? raw - deducted - target + booked : null,
  };
}

type RefDay = ReturnType<typeof refDay>;
const TOTAL_KEYS = ['target_minutes', 'worked_minutes', 'break_minutes', 'break_deducted_minutes', 'booked_minutes', 'balance_minutes'] as const;
function refTotals(days: RefDay[]) {
  const complete = days.filter((day) => day.complete);
  return {
    ...Object.fromEntries(TOTAL_KEYS.map((key) => [key, complete.reduce((total, day) => total + (day[key] ?? 0), 0)])),
    target_period_minutes: days.reduce((total, day) => total + day.target_minutes, 0),
  };
}

function refWeek(user: RefUser, monday: string, now: number) {
  const days = [0, 1, 2, 3, 4, 5, 6].map((i) => refDay(user, plusDays(monday, i), now));
  return { week_start: monday, week_end: plusDays(monday, 6), days, totals: refTotals(days) };
}

function refBalanceThrough(user: RefUser, through: string, now: number): number {
  let balance = user.offset;
  for (let date = user.trackingStart; date <= through; date = plusDays(date, 1)) balance += refDay(user, date, now).balance_minutes ?? 0;
  return balance;
}

function refOvertime(user: RefUser, now: number) {
  const through = plusDays(refDateOf(now, user), -1);
  return { balance_minutes: refBalanceThrough(user, through, now), offset_minutes: user.offset, since: user.trackingStart, through };
}

function refToday(user: RefUser, now: number) {
  const date = refDateOf(now, user);
  const day = refDay(user, date, now);
  const running = user.entries.some((entry) => entry.end === null);
  // The break taken so far, and, without a running timer, the gap from the day's last end to now.
  let breakMs = refBreakMs(user, date, now);
  const pieces = refPieces(user, date, now).filter(([, end]) => end <= now);
  if (!running && pieces.length > 0) {
    const lastEnd = Math.max(...pieces.map(([, end]) => end));
    if (now - lastEnd >= user.minBreak * MINUTE && now - lastEnd <= MAX_BREAK * MINUTE) breakMs += now - lastEnd;
  }
  const taken = Math.floor(breakMs / MINUTE);
  // The raw minutes the day needs, counted up one at a time (obviously right, if slow).
  let needed = day.target_minutes;
  while (needed - refDeduction(user, needed, taken) < day.target_minutes) needed += 1;
  const endOfWork = now + needed * MINUTE - refWorkedMs(user, date, now);
  return {
    date,
    target_minutes: day.target_minutes,
    worked_minutes: day.worked_minutes,
    break_minutes: day.break_minutes,
    break_deducted_minutes: day.break_deducted_minutes,
    booked_minutes: day.booked_minutes,
    remaining_minutes: Math.max(0, day.target_minutes - day.worked_minutes),
    running,
    end_of_work: new Date(endOfWork).toISOString(),
    // Before tracking_start a booking counts nowhere, like the day itself (docs/time-model.md, Bookings).
    adjusted_end_of_work: new Date(
      endOfWork - (refOvertime(user, now).balance_minutes + (date >= user.trackingStart ? day.booked_minutes : 0)) * MINUTE,
    ).toISOString(),
  };
}

function refMonth(user: RefUser, month: string, now: number) {
  const first = `${month}-01`;
  const days: Array<RefDay & { first_start: string | null; last_end: string | null }> = [];
  for (let date = first; date.startsWith(month); date = plusDays(date, 1)) {
    const pieces = refPieces(user, date, now);
    // The day whose last piece is the running entry's (up to now, or its limit) has no last end yet.
    const openEnded = user.entries.some(
      (entry) => entry.end === null && pieces.some(([start, end]) => end === refEnd(user, entry, now) && start >= entry.start),
    );
    days.push({
      ...refDay(user, date, now),
      first_start: pieces.length > 0 ? new Date(pieces[0]![0]).toISOString() : null,
      last_end: pieces.length > 0 && !openEnded ? new Date(Math.max(...pieces.map(([, end]) => end))).toISOString() : null,
    });
  }
  const yesterday = plusDays(refDateOf(now, user), -1);
  const beforeThrough = plusDays(first, -1) < yesterday ? plusDays(first, -1) : yesterday;
  const before = refBalanceThrough(user, beforeThrough, now);
  const counted = days.filter((day) => day.date >= user.trackingStart && day.date <= yesterday).reduce((sum, day) => sum + (day.balance_minutes ?? 0), 0);
  const last = days[days.length - 1]!.date;
  return {
    month,
    days,
    totals: refTotals(days),
    balance_before_minutes: before,
    balance_after_minutes: before + counted,
    balance_through: last < yesterday ? last : yesterday,
  };
}

function refVacation(user: RefUser, year: number, now: number) {
  const today = refDateOf(now, user);
  const halves = (y: number, when: (date: string) => boolean) =>
    [...user.absences]
      .filter(
        ([date, absence]) =>
          absence.type === 'vacation' && date.startsWith(`${y}-`) && date >= user.trackingStart && refScheduled(user, date) > 0 && when(date),
      )
      .reduce((sum, [, absence]) => sum + (absence.portion === 'half' ? 1 : 2), 0);
  const taken = halves(year, (date) => date <= today);
  const planned = halves(year, (date) => date > today);
  const startYear = Number(user.trackingStart.slice(0, 4));
  const months = (y: number) => (y < startYear ? 0 : y > startYear ? 12 : 13 - Number(user.trackingStart.slice(5, 7)));
  const before = (y: number) => (y === startYear ? (user.takenBefore ?? 0) * 2 : 0);
  const explained = {
    full_year_days: user.vacationPerYear,
    months_counted: months(year),
    prorated_from: year === startYear ? user.trackingStart : null,
    taken_before_tracking_days: before(year) / 2,
  };
  if (user.vacationPerYear === null)
    return {
      year,
      allowance_days: null,
      carried_over_days: null,
      taken_days: taken / 2,
      planned_days: planned / 2,
      // These users are in no team: nothing of theirs waits for approval (docs/teams.md, "Leave requests").
      requested_days: 0,
      remaining_days: null,
      ...explained,
    };
  const allowance = (y: number) => Math.round((user.vacationPerYear! * 2 * months(y)) / 12 + 1e-9);
  let carried = 0;
  for (let y = Math.min(startYear, year); y < year; y++) {
    const left = allowance(y) + carried - halves(y, () => true) - before(y);
    carried = Math.min(Math.max(0, left), user.carryCap === null ? Infinity : user.carryCap * 2);
  }
  return {
    year,
    allowance_days: allowance(year) / 2,
    carried_over_days: carried / 2,
    taken_days: taken / 2,
    planned_days: planned / 2,
    requested_days: 0,
    remaining_days: (allowance(year) + carried - taken - planned - before(year)) / 2,
    ...explained,
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
  fc.record({
    kind: fc.constant('move' as const),
    index: fc.nat(),
    shift: fc.integer({ min: -3 * HOUR, max: 3 * HOUR }),
    stretch: fc.integer({ min: -2 * HOUR, max: 2 * HOUR }),
  }),
  // A change of zone from today (undefined), from a day around the first entry (across its DST change), or of every day.
  fc.record({
    kind: fc.constant('zone' as const),
    zone: fc.constantFrom(...ZONES),
    day: fc.option(fc.oneof(fc.integer({ min: -3, max: 4 }), fc.constant(-400)), { nil: undefined }),
  }),
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
  absences: fc.uniqueArray(fc.record({ day: fc.integer({ min: -3, max: 8 }), half: fc.boolean(), type: fc.constantFrom('vacation', 'vacation', 'sick') }), {
    selector: (absence) => absence.day,
    maxLength: 3,
  }),
  edits: fc.array(editArb, { maxLength: 3 }),
  // The schedule list read before the first setup (a read stores the defaults from the tracking start).
  readFirst: fc.boolean(),
  // Target schedules from days around the anchor (on or before the tracking start too).
  schedules: fc.array(fc.record({ day: fc.integer({ min: -25, max: 12 }), targets: fc.tuple(...WEEKDAY_KEYS.map(() => fc.integer({ min: 0, max: 900 }))) }), {
    maxLength: 2,
  }),
  bookings: fc.array(
    fc.record({ day: fc.integer({ min: -25, max: 10 }), minutes: fc.integer({ min: -900, max: 900 }).filter((m) => m !== 0), payout: fc.boolean() }),
    { maxLength: 3 },
  ),
  rules: fc.option(
    fc.uniqueArray(fc.record({ over: fc.integer({ min: 0, max: 720 }), minutes: fc.integer({ min: 1, max: 90 }) }), {
      selector: (rule) => rule.over,
      maxLength: 3,
    }),
    { nil: undefined },
  ),
  minBreak: fc.oneof(fc.constant(15), fc.integer({ min: 1, max: 120 })),
  timerLimit: fc.option(fc.integer({ min: 1, max: (3 * DAY) / MINUTE }), { nil: null }),
  vacationPerYear: fc.option(
    fc.integer({ min: 0, max: 60 }).map((halves) => halves / 2),
    { nil: null },
  ),
  takenBefore: fc.option(
    fc.integer({ min: 0, max: 20 }).map((halves) => halves / 2),
    { nil: null },
  ),
  carryCap: fc.option(
    fc.integer({ min: 0, max: 20 }).map((halves) => halves / 2),
    { nil: null },
  ),
});

export type Scenario = typeof scenarioArb extends fc.Arbitrary<infer T> ? T : never;

let userCount = 0;

export async function runScenario(t: TestApp, scenario: Scenario): Promise<void> {
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

  const email = `user${++userCount}@example.com`;
  const user = await services.accounts.createAccount({ email, password: 'correct horse battery staple', full_name: 'Property' });
  const asTargets = (minutes: readonly number[]) => Object.fromEntries(WEEKDAY_KEYS.map((key, i) => [key, minutes[i]!])) as Targets;
  const ref: RefUser = {
    zones: [],
    schedules: [],
    trackingStart: plusDays(anchorDate, scenario.trackingShift),
    offset: scenario.offset,
    absences: new Map(),
    bookings: [],
    rules: scenario.rules ?? [],
    minBreak: scenario.minBreak,
    timerLimit: scenario.timerLimit,
    vacationPerYear: scenario.vacationPerYear,
    takenBefore: scenario.takenBefore,
    carryCap: scenario.carryCap,
    entries: [],
  };
  ref.schedules.push({ from: ref.trackingStart, targets: asTargets(scenario.targets) });
  ref.zones.push({ from: ref.trackingStart, zone: scenario.zone });
  if (scenario.readFirst) await services.schedules.listSchedules(user.id);
  await services.settings.updateSettings(user.id, {
    timezone: scenario.zone,
    timezone_valid_from: '1970-01-01',
    weekly_target_minutes: asTargets(scenario.targets),
    targets_valid_from: ref.trackingStart,
    tracking_start: ref.trackingStart,
    overtime_offset_minutes: ref.offset,
    break_rules: ref.rules.map((rule) => ({ worked_over_minutes: rule.over, break_minutes: rule.minutes })),
    min_break_minutes: ref.minBreak,
    timer_limit_minutes: ref.timerLimit,
    vacation_days_per_year: ref.vacationPerYear,
    vacation_carry_over_max_days: ref.carryCap,
    vacation_taken_before_tracking_days: ref.takenBefore,
  });
  for (const schedule of scenario.schedules) {
    const from = plusDays(anchorDate, schedule.day);
    const taken = ref.schedules.some((existing) => existing.from === from);
    const created = await services.schedules.createSchedule(user.id, { valid_from: from, weekly_target_minutes: asTargets(schedule.targets) }).then(
      () => true,
      () => false,
    );
    expect(created, `schedule from ${from}`).toBe(!taken);
    // Targets from a day on or before the tracking start become the earliest schedule: those stored from then go.
    if (created && from <= ref.trackingStart) ref.schedules = ref.schedules.filter((existing) => existing.from > ref.trackingStart);
    if (created) ref.schedules.push({ from, targets: asTargets(schedule.targets) });
  }
  for (const absence of scenario.absences) {
    const date = plusDays(anchorDate, absence.day);
    await services.absences.createAbsence(user.id, { date, type: absence.type, portion: absence.half ? 'half' : 'full' });
    ref.absences.set(date, { type: absence.type, portion: absence.half ? 'half' : 'full' });
  }
  for (const booking of scenario.bookings) {
    const date = plusDays(anchorDate, booking.day);
    await services.bookings.createBooking(user.id, { date, minutes: booking.minutes, kind: booking.payout && booking.minutes < 0 ? 'payout' : 'correction' });
    ref.bookings.push({ date, minutes: booking.minutes });
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
      await changeZone(ref, edit, anchorDate, now, (patch) => services.settings.updateSettings(user.id, patch));
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
    const accepted = refAccepts(
      moved,
      ref.entries.filter((_, i) => i !== index),
      now,
    );
    const patched = await services.timeEntries.updateEntry(user.id, id, { start_at: iso(moved.start)!, end_at: iso(moved.end) }).then(
      () => true,
      () => false,
    );
    expect(patched, `move ${iso(old.start)} → ${iso(moved.start)} – ${iso(moved.end)}`).toBe(accepted);
    if (patched) ref.entries[index] = moved;
  }

  // Through the API: every week from the one before the first entry through this week, overtime,
  // today, every month from the first entry's through this one, and the vacation of their years.
  const token = await login(t.app, email, 'correct horse battery staple');
  const read = async (url: string) => {
    const response = await request(t.app, 'GET', url, { token });
    expect(response.statusCode, `${url}: ${response.body}`).toBe(200);
    return response.json();
  };
  const firstDate = refDateOf(Math.min(anchor, ...ref.entries.map((entry) => entry.start)), ref);
  const today = refDateOf(now, ref);
  const mondayOf = (date: string) => plusDays(date, -WEEKDAY_KEYS.indexOf(weekdayKey(date)));
  for (let monday = mondayOf(plusDays(firstDate, -1)); monday <= today; monday = plusDays(monday, 7)) {
    expect(await read(`/api/stats/week?date=${monday}`), `week of ${monday}`).toEqual(refWeek(ref, monday, now));
  }
  expect(await read('/api/stats/week'), 'this week').toEqual(refWeek(ref, mondayOf(today), now));
  expect(await read('/api/stats/overtime'), 'overtime').toEqual(refOvertime(ref, now));
  expect(await read('/api/stats/today'), 'today').toEqual(refToday(ref, now));
  for (let month = firstDate.slice(0, 7); month <= today.slice(0, 7); month = plusDays(`${month}-28`, 7).slice(0, 7)) {
    const sheet = await read(`/api/stats/month?month=${month}`);
    const { vacation, timezone, zones, ...figures } = sheet;
    expect(figures, `month ${month}`).toEqual(refMonth(ref, month, now));
    // The zones of the month's days by their first days (the server names a zone canonically, e.g. Asia/Katmandu).
    expect(
      zones.map((zone: { valid_from: string }) => zone.valid_from),
      `zones of ${month}`,
    ).toEqual(refMonthZoneDays(ref, month));
    expect(typeof timezone).toBe('string');
    expect(vacation, `vacation of ${month}`).toEqual(refVacation(ref, Number(month.slice(0, 4)), now));
    // The PDF is written from that JSON: for a few users, its text layer shows every figure.
    if (pdfChecks > 0) {
      pdfChecks -= 1;
      const pdf = await t.app.inject({ method: 'GET', url: `/api/stats/month.pdf?month=${month}`, headers: { authorization: `Bearer ${token}` } });
      expectPdfShowsSheet(pdf.rawPayload, sheet);
    }
  }
}

/** The first days of a month on which its days' zone changes: its first day, then each change inside it. */
function refMonthZoneDays(user: RefUser, month: string): string[] {
  const days = [`${month}-01`];
  for (let date = plusDays(`${month}-01`, 1); date.startsWith(month); date = plusDays(date, 1)) {
    if (refZoneOn(user, date) !== refZoneOn(user, plusDays(date, -1))) days.push(date);
  }
  return days;
}

/**
 * A change of zone through the settings, and in the model: from today in the new zone (no day), from a
 * day after the anchor, or of every day (a day on or before the tracking start). A first day after today
 * in the new zone is refused. The days before it keep their zones.
 */
async function changeZone(
  ref: RefUser,
  edit: { zone: string; day: number | undefined },
  anchorDate: string,
  now: number,
  update: (patch: { timezone: string; timezone_valid_from?: string }) => Promise<unknown>,
): Promise<void> {
  const todayThere = shownDate(now, edit.zone);
  const from = edit.day === undefined ? todayThere : plusDays(anchorDate, edit.day);
  const accepted = from <= todayThere;
  const done = await update({ timezone: edit.zone, ...(edit.day === undefined ? {} : { timezone_valid_from: from }) }).then(
    () => true,
    () => false,
  );
  expect(done, `zone ${edit.zone} from ${from}`).toBe(accepted);
  if (!done) return;
  if (from <= ref.trackingStart) {
    ref.zones = [{ from: ref.trackingStart, zone: edit.zone }];
    return;
  }
  const kept = ref.zones.filter((change) => change.from < from);
  ref.zones = [...(kept.length > 0 ? kept : [{ from: ref.trackingStart, zone: ref.zones[0]!.zone }]), { from, zone: edit.zone }];
}

/** How many more month sheets of this process are also read as PDF (pdftotext costs tens of milliseconds). */
let pdfChecks = 8;

/** Runs `numRuns` random scenarios through the services of `t`. */
export async function checkTimeModel(t: TestApp, numRuns: number, seed?: number): Promise<void> {
  await fc.assert(
    fc.asyncProperty(scenarioArb, (scenario) => runScenario(t, scenario)),
    { numRuns, ...(seed !== undefined ? { seed } : {}) },
  );
}
