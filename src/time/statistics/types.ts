// The figures the statistics answer (docs/time-model.md, docs/api.md): a day, a week, a month, the
// balance and today.
import type { Kysely } from 'kysely';
import type { Clock } from '../../common/clock.js';
import type { AbsencePortion, AbsenceType, Database, LocalDate } from '../../db/types.js';
import type { Weekday, ZoneEntry } from '../calendar/dates.js';

export interface DayFigures {
  date: LocalDate;
  weekday: Weekday;
  target_minutes: number;
  /** After the deduction of the break rules. */
  worked_minutes: number;
  /** Breaks taken: the gaps of at least min_break_minutes between the day's entries. */
  break_minutes: number;
  break_deducted_minutes: number;
  absence: AbsenceType | null;
  absence_portion: AbsencePortion | null;
  public_holiday: string | null;
  /** Bookings dated that day (docs/time-model.md, Bookings): part of the balance. */
  booked_minutes: number;
  /** The day is over in the account's zone (before today) and on or after tracking_start: it counts in a balance. */
  complete: boolean;
  /** worked − target + booked on a complete day; null on a day that is not complete (today, later days, before tracking_start). */
  balance_minutes: number | null;
}

/** A day of the week overview without a user: only the calendar and the holidays of ?region=. */
export interface AnonymousDay {
  date: LocalDate;
  weekday: Weekday;
  target_minutes: null;
  worked_minutes: null;
  break_minutes: null;
  break_deducted_minutes: null;
  absence: null;
  absence_portion: null;
  public_holiday: string | null;
  booked_minutes: null;
  complete: false;
  balance_minutes: null;
}

/** The sums of the period's complete days only, so that worked − target + booked = balance. */
export interface Totals<T extends number | null> {
  target_minutes: T;
  worked_minutes: T;
  break_minutes: T;
  break_deducted_minutes: T;
  booked_minutes: T;
  balance_minutes: T;
  /** The target of every day of the period, complete or not (the plan); in no balance. */
  target_period_minutes: T;
}

export interface WeekOverview {
  week_start: LocalDate;
  week_end: LocalDate;
  days: DayFigures[];
  totals: Totals<number>;
}

export interface AnonymousWeekOverview {
  week_start: LocalDate;
  week_end: LocalDate;
  days: AnonymousDay[];
  totals: Totals<null>;
}

export interface OvertimeBalance {
  balance_minutes: number;
  offset_minutes: number;
  since: LocalDate;
  through: LocalDate;
}

/** A day of the monthly timesheet: the day row, and its first start and last end (null while it runs). */
export interface MonthDay extends DayFigures {
  first_start: string | null;
  last_end: string | null;
}

export interface MonthFigures {
  month: string;
  /** The zone of the month's first day. */
  timezone: string;
  /** The zone of every day of the month, each from its first day (the first from the month's first day; docs/time-model.md, Time zone history). */
  zones: ZoneEntry[];
  days: MonthDay[];
  totals: Totals<number>;
  /** The balance through the day before the month (offset included; complete days only). */
  balance_before_minutes: number;
  /** That plus totals.balance_minutes: the balance at the month's end, or through yesterday in this month. */
  balance_after_minutes: number;
  /** The last day balance_after_minutes counts: the month's last day, or yesterday if that is earlier. */
  balance_through: LocalDate;
}

export interface PeriodFigures {
  target_minutes: number;
  worked_minutes: number;
  booked_minutes: number;
  balance_minutes: number;
}

export interface MonthlyBalances {
  year: number;
  since: LocalDate;
  through: LocalDate;
  offset_minutes: number;
  /** The balance at the end of the year before (offset included). */
  balance_before_minutes: number;
  months: Array<PeriodFigures & { month: string; balance_end_minutes: number }>;
}

export interface TodayFigures {
  date: LocalDate;
  target_minutes: number;
  worked_minutes: number;
  break_minutes: number;
  break_deducted_minutes: number;
  booked_minutes: number;
  remaining_minutes: number;
  running: boolean;
  end_of_work: string;
  adjusted_end_of_work: string;
}

/**
 * What the statistics read: the database and the clock (each request reads the account's settings,
 * schedules and running entry once: ./context.ts).
 */
export interface StatisticsDeps {
  db: Kysely<Database>;
  clock: Clock;
}
