// Schemas of the statistics routes. Only typebox here: the browser client reads the response types (src/http/contract.ts).
import { Type, type TSchema } from 'typebox';
import { AbsencePortion, AbsenceType, LocalDate } from '../schemas.js';

const orNull = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);
const Minutes = orNull(Type.Integer());
export const Anonymous = Type.Object({ authenticated: Type.Literal(false) });

const DayRow = {
  date: LocalDate,
  weekday: Type.String(),
  target_minutes: Minutes,
  worked_minutes: Minutes,
  break_minutes: Minutes,
  break_deducted_minutes: Minutes,
  absence: orNull(AbsenceType),
  absence_portion: orNull(AbsencePortion),
  public_holiday: orNull(Type.String()),
  booked_minutes: Minutes,
  complete: Type.Boolean({
    description: "the day is over in the account's zone (before today) and on or after tracking_start: only complete days count in a balance",
  }),
  balance_minutes: orNull(
    Type.Integer({ description: 'worked − target + booked; null on a day that is not complete (today, later days, before tracking_start)' }),
  ),
};
/** The sums of the complete days only (worked − target + booked = balance), and the whole period's target apart. */
const TotalsSchema = Type.Object(
  {
    target_minutes: Minutes,
    worked_minutes: Minutes,
    break_minutes: Minutes,
    break_deducted_minutes: Minutes,
    booked_minutes: Minutes,
    balance_minutes: Minutes,
    target_period_minutes: orNull(Type.Integer({ description: 'the target of every day of the period, complete or not; in no balance' })),
  },
  { description: 'sums of the complete days only' },
);

export const WeekResponse = Type.Object({
  week_start: LocalDate,
  week_end: LocalDate,
  days: Type.Array(Type.Object(DayRow)),
  totals: TotalsSchema,
});
export const OvertimeResponse = Type.Object({ balance_minutes: Type.Integer(), offset_minutes: Type.Integer(), since: LocalDate, through: LocalDate });
export const TodayResponse = Type.Object({
  date: LocalDate,
  target_minutes: Type.Integer(),
  worked_minutes: Type.Integer(),
  break_minutes: Type.Integer(),
  break_deducted_minutes: Type.Integer(),
  booked_minutes: Type.Integer(),
  remaining_minutes: Type.Integer(),
  running: Type.Boolean(),
  end_of_work: Type.String({ format: 'date-time' }),
  adjusted_end_of_work: Type.String({ format: 'date-time' }),
});
const Days = orNull(Type.Number({ description: 'days; a half day is 0.5' }));
export const VacationResponse = Type.Object({
  year: Type.Integer(),
  allowance_days: Days,
  carried_over_days: Days,
  taken_days: Type.Number(),
  planned_days: Type.Number(),
  remaining_days: Days,
  full_year_days: orNull(Type.Number({ description: 'vacation_days_per_year: the allowance of a whole year; null: not tracked' })),
  months_counted: Type.Integer({ description: 'the months of the year the allowance counts: 12, fewer in the year of tracking_start, 0 before it' }),
  prorated_from: orNull(Type.String({ description: 'YYYY-MM-DD: tracking_start, in its own year (the allowance is pro rata from its month); else null' })),
  taken_before_tracking_days: Type.Number({ description: 'in the year of tracking_start: vacation_taken_before_tracking_days; else 0' }),
  requested_days: Type.Number({ description: 'vacation requested and not yet approved (leave requests): in no target, but subtracted from remaining_days' }),
  booking_days: Type.Optional(Type.Number({ description: 'with from: the days of the booking asked about that would count in this year' })),
  exceeds_allowance: Type.Optional(Type.Boolean({ description: 'with from: true when that booking would leave less than nothing' })),
});
const SealPersonSchema = Type.Union([Type.Object({ id: Type.Integer(), name: Type.String(), email: Type.String() }), Type.Null()], {
  description: 'the account; null: the operator at the shell',
});
/** An approved month's seal (docs/teams.md, "The seal"): what `timetrack report verify` checks a saved answer with. */
const SealSchema = Type.Object(
  {
    account_id: Type.Integer({ description: 'whose month' }),
    email: Type.String(),
    lang: Type.Union([Type.Literal('en'), Type.Literal('de')], { description: "the language of this answer's holiday names" }),
    digest: Type.String({ description: "SHA-256 (hex) of the month's canonical JSON at approval" }),
    submitted_at: orNull(Type.String({ format: 'date-time' })),
    submitted_by: SealPersonSchema,
    approved_at: Type.String({ format: 'date-time' }),
    approved_by: SealPersonSchema,
  },
  { description: 'only while the month is approved' },
);
export const MonthResponse = Type.Object({
  month: Type.String({ description: 'YYYY-MM' }),
  timezone: Type.String({ description: "the zone of the month's first day" }),
  zones: Type.Array(Type.Object({ valid_from: Type.String({ format: 'date' }), timezone: Type.String() }), {
    description: "the zone of every day of the month, each from its first day (the first from the month's first day)",
  }),
  days: Type.Array(
    Type.Object({
      ...DayRow,
      first_start: orNull(Type.String({ format: 'date-time' })),
      last_end: orNull(Type.String({ format: 'date-time', description: "null while the day's last entry runs" })),
    }),
  ),
  totals: TotalsSchema,
  balance_before_minutes: Type.Integer(),
  balance_after_minutes: Type.Integer({ description: 'balance_before_minutes + totals.balance_minutes: the balance through balance_through' }),
  balance_through: Type.String({ maxLength: 10, description: "YYYY-MM-DD: the last day counted, the month's last day or yesterday if that is earlier" }),
  vacation: VacationResponse,
  seal: Type.Optional(SealSchema),
});
