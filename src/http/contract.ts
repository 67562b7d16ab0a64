// The API's answers as TypeScript types, derived from the TypeBox schemas the routes use: the browser
// client imports them with `import type` (src/web/api.ts), so it keeps no copies that could drift.
// Only typebox and schema modules are reachable from here (they compile for the browser too).
import type { Static } from 'typebox';
import type { ServiceErrorCode } from '../common/errors.js';
import type { UserSchema } from './schemas.js';
import type {
  ApiTokenSchema,
  NewApiTokenResponse,
  RecoveryCodesResponse,
  SessionSchema,
  TwoFactorSetupResponse,
  TwoFactorStatusResponse,
} from './auth/schemas.js';
import type { HolidayRegionsResponse, ScheduleSchema, SettingsSchema } from './settings/schemas.js';
import type { MonthResponse, OvertimeResponse, TodayResponse, VacationResponse, WeekResponse } from './stats/schemas.js';
import type { AbsenceSchema, BookingSchema, EntrySchema } from './time-entries/schemas.js';
import type { LeaveRequestSchema } from './requests/schemas.js';

export type User = Static<typeof UserSchema>;
export type OwnSession = Static<typeof SessionSchema>;
export type ApiToken = Static<typeof ApiTokenSchema>;
export type NewApiToken = Static<typeof NewApiTokenResponse>;
export type TwoFactorStatus = Static<typeof TwoFactorStatusResponse>;
export type TwoFactorSetup = Static<typeof TwoFactorSetupResponse>;
export type RecoveryCodes = Static<typeof RecoveryCodesResponse>;
export type Settings = Static<typeof SettingsSchema>;
export type HolidayRegions = Static<typeof HolidayRegionsResponse>;
export type Weekday = keyof Settings['weekly_target_minutes'];
export type Entry = Static<typeof EntrySchema>;
export type Absence = Static<typeof AbsenceSchema>;
export type WeekStats = Static<typeof WeekResponse>;
export type TodayStats = Static<typeof TodayResponse>;
export type OvertimeStats = Static<typeof OvertimeResponse>;
export type VacationStats = Static<typeof VacationResponse>;
export type MonthStats = Static<typeof MonthResponse>;
export type Schedule = Static<typeof ScheduleSchema>;
export type Booking = Static<typeof BookingSchema>;
export type LeaveRequest = Static<typeof LeaveRequestSchema>;
/** Every code a service error can carry: the client's catalog has a sentence for each (src/web/i18n). */
export type { ServiceErrorCode };
