// The vacation allowance of a year (docs/time-model.md, Vacation allowance): days per year (the year
// of tracking_start pro rata by month), carried over from the year before (its remaining days, never
// below 0, capped by the setting), taken (through today) and planned (after today). A vacation day
// counts 1, a half day 0.5, and only on a day with a target (the schedule in force has minutes for its
// weekday, it is no public holiday, and it is not before tracking_start). Counted in half days.
// The answer says how the allowance was worked out (the full year's days, the months counted, from
// when), and what a booking asked about would leave (docs/time-model.md).
import type { Kysely } from 'kysely';
import type { Database, LocalDate } from '../../db/types.js';
import type { Clock } from '../../common/clock.js';
import { validationError } from '../../common/errors.js';
import { datesFromThrough, localDateOf, parseDate, weekdayOf } from '../calendar/dates.js';
import { publicHolidays } from '../calendar/holidays.js';
import { scheduleTimeline, type ScheduleTimeline } from '../schedules.js';
import type { Settings, SettingsService } from '../settings/settings.js';

export interface VacationYear {
  year: number;
  /** null when the allowance is not tracked (vacation_days_per_year null). */
  allowance_days: number | null;
  carried_over_days: number | null;
  taken_days: number;
  planned_days: number;
  remaining_days: number | null;
  /** vacation_days_per_year (null: not tracked): the allowance of a whole year. */
  full_year_days: number | null;
  /** The months of this year the allowance counts: 12, fewer in the year of tracking_start, 0 before it. */
  months_counted: number;
  /** tracking_start in its own year (the allowance is pro rata from its month on); else null. */
  prorated_from: LocalDate | null;
  /** vacation_taken_before_tracking_days in the year of tracking_start (already taken that year before it); else 0. */
  taken_before_tracking_days: number;
  /** Vacation requested and not yet approved (docs/teams.md, "Leave requests"): counts in no target, but is subtracted from remaining_days. */
  requested_days: number;
  /** With a booking asked about (`from`): the days of it that would count in this year. */
  booking_days?: number;
  /** With a booking asked about: true when it would leave less than nothing (allowance tracked). */
  exceeds_allowance?: boolean;
}

/** A vacation booking asked about before it is made: one day, or `from` through `to`. */
export interface VacationRequest {
  from: string;
  to?: string;
  portion?: 'full' | 'half';
}

/** The months of `year` that the allowance counts, from the month of tracking_start on. */
function monthsCounted(year: number, trackingStart: LocalDate): number {
  const startYear = Number(trackingStart.slice(0, 4));
  if (year < startYear) return 0;
  return year > startYear ? 12 : 13 - Number(trackingStart.slice(5, 7));
}

/** The allowance of `year` in half days: whole before the year of tracking_start, none; in it, one twelfth per month from its month on, to the nearest half day (halves up). */
export function allowanceHalfDays(perYearHalfDays: number, year: number, trackingStart: LocalDate): number {
  const months = monthsCounted(year, trackingStart);
  return months === 12 ? perYearHalfDays : Math.floor((perYearHalfDays * months) / 12 + 0.5);
}

/** The half days of `request` in `year` that would count: days with a target, from tracking_start on, with no absence yet. */
async function requestedHalfDays(
  db: Kysely<Database>,
  userId: number,
  settings: Settings,
  timeline: ScheduleTimeline,
  year: number,
  request: VacationRequest,
): Promise<number> {
  const from = parseDate(request.from, 'from');
  const to = request.to === undefined ? from : parseDate(request.to, 'to');
  if (to < from) throw validationError('to must not be before from', 'to');
  const first = from > `${year}-01-01` ? from : `${year}-01-01`;
  const last = to < `${year}-12-31` ? to : `${year}-12-31`;
  if (last < first) return 0;
  const holidays = await publicHolidays(settings.holiday_region, first, last);
  const booked = await db.selectFrom('absences').select('date').where('user_id', '=', userId).where('date', '>=', first).where('date', '<=', last).execute();
  const taken = new Set(booked.map((row) => row.date));
  const counted = datesFromThrough(first, last).filter(
    (date) => date >= settings.tracking_start && !holidays.has(date) && !taken.has(date) && timeline.targetOn(date, weekdayOf(date)) > 0,
  );
  return counted.length * (request.portion === 'half' ? 1 : 2);
}

interface YearCounts {
  taken: number;
  planned: number;
  /** Requested and not yet approved, whatever the date. */
  requested: number;
}

/** A vacation day as the figures count it. */
interface VacationRow {
  user_id: number;
  date: LocalDate;
  portion: 'full' | 'half';
  state: string;
}

/** The vacation rows from `from` through `through` of each of `userIds`, in one statement (a lead's overview reads ten members' at once). */
async function vacationRowsOf(db: Kysely<Database>, userIds: readonly number[], from: LocalDate, through: LocalDate): Promise<Map<number, VacationRow[]>> {
  const rows = await db
    .selectFrom('absences')
    .select(['user_id', 'date', 'portion', 'state'])
    .where('user_id', 'in', userIds)
    .where('type', '=', 'vacation')
    .where('date', '>=', from)
    .where('date', '<=', through)
    .execute();
  const byUser = new Map<number, VacationRow[]>(userIds.map((userId) => [userId, []]));
  for (const row of rows) byUser.get(row.user_id)?.push(row);
  return byUser;
}

/** The year shown and the first and last day whose vacation counts in its figures (from tracking_start, through the years before `shown` it carries over from). */
interface VacationSpan {
  shown: number;
  startYear: number;
  from: LocalDate;
  through: LocalDate;
}

/** The span of `shown` for an account with these settings. */
function vacationSpan(settings: Settings, shown: number): VacationSpan {
  const startYear = Math.min(shown, Number(settings.tracking_start.slice(0, 4)));
  const first = `${startYear}-01-01`;
  return { shown, startYear, from: first < settings.tracking_start ? settings.tracking_start : first, through: `${shown}-12-31` };
}

/** Vacation half days per year of `rows` (within the span): approved ones split at `today` (taken: on or before it), requested ones apart. */
async function countedHalfDays(
  rows: readonly VacationRow[],
  settings: Settings,
  timeline: ScheduleTimeline,
  from: LocalDate,
  through: LocalDate,
  today: LocalDate,
) {
  const holidays = await publicHolidays(settings.holiday_region, from, through);
  const byYear = new Map<number, YearCounts>();
  for (const row of rows) {
    if (row.date < from || row.date > through) continue;
    if (holidays.has(row.date) || timeline.targetOn(row.date, weekdayOf(row.date)) === 0) continue;
    const year = Number(row.date.slice(0, 4));
    const counts = byYear.get(year) ?? { taken: 0, planned: 0, requested: 0 };
    const halves = row.portion === 'half' ? 1 : 2;
    if (row.state === 'requested') counts.requested += halves;
    else if (row.date <= today) counts.taken += halves;
    else counts.planned += halves;
    byYear.set(year, counts);
  }
  return byYear;
}

export interface VacationDeps {
  db: Kysely<Database>;
  clock: Clock;
  settings: Pick<SettingsService, 'getSettings'>;
}

/**
 * The vacation figures of `year` of an account whose settings and schedules are read, through `db`
 * (the database, or a transaction that has just written absences: src/time/absences/approval.ts).
 */
export async function vacationFigures(
  db: Kysely<Database>,
  today: LocalDate,
  userId: number,
  settings: Settings,
  timeline: ScheduleTimeline,
  year?: number,
  request?: VacationRequest,
): Promise<VacationYear> {
  const span = vacationSpan(settings, shownYear(today, year, request));
  const rows = (await vacationRowsOf(db, [userId], span.from, span.through)).get(userId)!;
  return figuresOf(db, today, userId, settings, timeline, span, rows, request);
}

/** The year shown: `year`, else that of the booking asked about, else today's; 1970-2099. */
function shownYear(today: LocalDate, year?: number, request?: VacationRequest): number {
  return checkedYear(year ?? Number((request?.from ?? today).slice(0, 4)));
}

/** `year` if it is one the figures are worked out for (1970-2099); a validation error naming `year` otherwise. */
function checkedYear(year: number): number {
  if (!Number.isInteger(year) || year < 1970 || year > 2099) throw validationError('year must be a year from 1970 to 2099', 'year');
  return year;
}

/** The figures of the span's year from the account's vacation `rows` of that span. */
async function figuresOf(
  db: Kysely<Database>,
  today: LocalDate,
  userId: number,
  settings: Settings,
  timeline: ScheduleTimeline,
  { shown, startYear, from, through }: VacationSpan,
  rows: readonly VacationRow[],
  request?: VacationRequest,
): Promise<VacationYear> {
  const counted = await countedHalfDays(rows, settings, timeline, from, through, today);
  const days = (halves: number) => halves / 2;
  const { taken, planned, requested: pending } = counted.get(shown) ?? { taken: 0, planned: 0, requested: 0 };
  const trackingYear = Number(settings.tracking_start.slice(0, 4));
  // Taken before the tracking start: counts in the year of tracking_start only.
  const before = (y: number) => (y === trackingYear ? (settings.vacation_taken_before_tracking_days ?? 0) * 2 : 0);
  const asked = request === undefined ? undefined : await requestedHalfDays(db, userId, settings, timeline, shown, request);
  const explained = {
    full_year_days: settings.vacation_days_per_year,
    months_counted: monthsCounted(shown, settings.tracking_start),
    prorated_from: shown === trackingYear ? settings.tracking_start : null,
    taken_before_tracking_days: days(before(shown)),
    ...(asked === undefined ? {} : { booking_days: days(asked) }),
  };
  const figures = { year: shown, taken_days: days(taken), planned_days: days(planned), requested_days: days(pending) };
  if (settings.vacation_days_per_year === null) {
    const exceeds = asked === undefined ? {} : { exceeds_allowance: false };
    return { ...figures, allowance_days: null, carried_over_days: null, remaining_days: null, ...explained, ...exceeds };
  }
  const perYear = settings.vacation_days_per_year * 2;
  const cap = settings.vacation_carry_over_max_days === null ? Infinity : settings.vacation_carry_over_max_days * 2;
  // Year by year from the year of tracking_start: what is left carries into the next (never below 0, capped).
  let carried = 0;
  for (let y = startYear; y < shown; y++) {
    const used = counted.get(y) ?? { taken: 0, planned: 0, requested: 0 };
    const remaining = allowanceHalfDays(perYear, y, settings.tracking_start) + carried - used.taken - used.planned - used.requested - before(y);
    carried = Math.min(Math.max(0, remaining), cap);
  }
  const allowance = allowanceHalfDays(perYear, shown, settings.tracking_start);
  const remaining = allowance + carried - taken - planned - pending - before(shown);
  return {
    ...figures,
    allowance_days: days(allowance),
    carried_over_days: days(carried),
    remaining_days: days(remaining),
    ...explained,
    ...(asked === undefined ? {} : { exceeds_allowance: remaining - asked < 0 }),
  };
}

export function createVacationService({ db, clock, settings: settingsService }: VacationDeps) {
  /** The vacation figures of `year` (default: the year of `request.from`, else this year in the user's zone). */
  async function vacationYear(userId: number, year?: number, request?: VacationRequest): Promise<VacationYear> {
    return vacationYearOf(userId, await settingsService.getSettings(userId), () => scheduleTimeline(db, userId), year, request);
  }

  /** The same, of an account whose settings (and schedules, or how to read them) are read already. */
  async function vacationYearOf(
    userId: number,
    settings: Settings,
    schedules: ScheduleTimeline | (() => Promise<ScheduleTimeline>),
    year?: number,
    request?: VacationRequest,
  ): Promise<VacationYear> {
    const today = localDateOf(clock.now().getTime(), settings.zones);
    const timeline = typeof schedules === 'function' ? await schedules() : schedules;
    return vacationFigures(db, today, userId, settings, timeline, year, request);
  }

  /**
   * The figures of `year` of several accounts whose settings and schedules are read already (a lead's
   * overview, ten members at a time): their vacation days in one statement, each member's figures
   * then worked out as vacationYearOf works them out.
   */
  async function vacationYearsOf(
    members: ReadonlyArray<{ userId: number; settings: Settings; timeline: ScheduleTimeline }>,
    year: number,
  ): Promise<VacationYear[]> {
    if (members.length === 0) return [];
    const nowMs = clock.now().getTime();
    const shown = checkedYear(year);
    const spans = members.map(({ settings }) => vacationSpan(settings, shown));
    const from = spans.reduce((first, span) => (span.from < first ? span.from : first), spans[0]!.from);
    const rows = await vacationRowsOf(
      db,
      members.map(({ userId }) => userId),
      from,
      `${shown}-12-31`,
    );
    const years: VacationYear[] = [];
    for (const [index, { userId, settings, timeline }] of members.entries()) {
      years.push(await figuresOf(db, localDateOf(nowMs, settings.zones), userId, settings, timeline, spans[index]!, rows.get(userId)!));
    }
    return years;
  }

  /** After vacation on `dates` was booked: whether a year it falls in has less than nothing left. */
  async function exceedsAllowance(userId: number, dates: LocalDate[]): Promise<boolean> {
    for (const year of new Set(dates.map((date) => Number(date.slice(0, 4))))) {
      const { remaining_days } = await vacationYear(userId, year);
      if (remaining_days !== null && remaining_days < 0) return true;
    }
    return false;
  }

  return { vacationYear, vacationYearOf, vacationYearsOf, exceedsAllowance };
}
