// Schemas of the settings routes.
import { Type } from 'typebox';
import { LocalDate } from '../schemas.js';

const Minutes = Type.Integer({ minimum: 0, maximum: 24 * 60 });
const WeeklyTarget = Type.Object({ mon: Minutes, tue: Minutes, wed: Minutes, thu: Minutes, fri: Minutes, sat: Minutes, sun: Minutes });
export const BreakRule = Type.Object({
  worked_over_minutes: Type.Integer({ description: 'the rule applies to a day with more worked minutes than this' }),
  break_minutes: Type.Integer({ description: 'the break such a day needs' }),
});
export const ZoneEntrySchema = Type.Object({ valid_from: LocalDate, timezone: Type.String() });
export const SettingsSchema = Type.Object({
  timezone: Type.String({ description: 'the zone in force today' }),
  zones: Type.Array(ZoneEntrySchema, { description: 'every zone with its first day, oldest first (docs/time-model.md, Time zone history)' }),
  weekly_target_minutes: WeeklyTarget,
  targets_valid_from: LocalDate,
  holiday_region: Type.Union([Type.String(), Type.Null()]),
  overtime_offset_minutes: Type.Integer(),
  tracking_start: LocalDate,
  break_rules: Type.Array(BreakRule),
  min_break_minutes: Type.Integer(),
  vacation_days_per_year: Type.Union([Type.Number(), Type.Null()]),
  vacation_carry_over_max_days: Type.Union([Type.Number(), Type.Null()]),
  vacation_taken_before_tracking_days: Type.Union([Type.Number(), Type.Null()], { description: 'taken in the year of tracking_start before it; null: none' }),
  timer_limit_minutes: Type.Union([Type.Integer(), Type.Null()]),
  suggest_timer_limit: Type.Boolean({ description: 'Today offers once to turn the timer limit on (an account made before it was on by default)' }),
  reminders_enabled: Type.Boolean({ description: 'the missing-day reminder is on (docs/notices.md); default true' }),
});
export const HolidayRegionsResponse = Type.Object({ regions: Type.Array(Type.Object({ code: Type.String(), name: Type.String() })) });
export const ScheduleSchema = Type.Object({ id: Type.Integer(), valid_from: LocalDate, weekly_target_minutes: WeeklyTarget });
export const SchedulesResponse = Type.Object({ schedules: Type.Array(ScheduleSchema) });
