// Schemas of the time-tracking routes (time entries, absences, settings, statistics). Response
// schemas list every property, so nothing else of a row can leak.
import { Type, type TSchema } from 'typebox';
import { NOTE_MAX_LENGTH } from '../../time/entries.js';

/**
 * A body field that may be null. Null comes first: Fastify's Ajv coerces types, and with the string
 * branch first it would turn null into "" before the null branch is tried.
 */
export const nullable = <T extends TSchema>(schema: T) => Type.Union([Type.Null(), schema]);

/** Format is checked by the service (zone designator required), which gives the precise message. */
export const Instant = Type.String({ maxLength: 64, description: 'ISO 8601 instant with a zone designator, e.g. 2026-03-02T08:00:00Z' });
export const DateOrInstant = Type.String({ maxLength: 64, description: 'ISO 8601 instant, or a date YYYY-MM-DD meaning midnight in the user time zone' });
export const LocalDate = Type.String({ maxLength: 10, description: 'YYYY-MM-DD' });
export const Note = Type.String({ maxLength: NOTE_MAX_LENGTH });

export const RangeQuery = Type.Object(
  { from: Type.Optional(DateOrInstant), to: Type.Optional(DateOrInstant) },
  { additionalProperties: false },
);
export const IdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) });

export const EntrySchema = Type.Object({
  id: Type.Integer(),
  start_at: Type.String({ format: 'date-time' }),
  end_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  note: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
});
export const EntryResponse = Type.Object({ entry: EntrySchema });

export const AbsenceType = Type.Union([Type.Literal('vacation'), Type.Literal('sick'), Type.Literal('holiday')]);
export const AbsenceSchema = Type.Object({ id: Type.Integer(), date: LocalDate, type: AbsenceType, note: Type.String() });
export const AbsenceResponse = Type.Object({ absence: AbsenceSchema });

const Minutes = Type.Integer({ minimum: 0, maximum: 24 * 60 });
export const WeeklyTargetSchema = Type.Object({ mon: Minutes, tue: Minutes, wed: Minutes, thu: Minutes, fri: Minutes, sat: Minutes, sun: Minutes });
export const SettingsSchema = Type.Object({
  timezone: Type.String(),
  weekly_target_minutes: WeeklyTargetSchema,
  holiday_region: Type.Union([Type.String(), Type.Null()]),
  overtime_offset_minutes: Type.Integer(),
  tracking_start: LocalDate,
});
