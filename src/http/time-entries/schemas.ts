// Schemas of the time entry and absence routes. Response schemas list every property, so nothing
// else of a row can leak. Only typebox here: the browser client reads the response types (src/http/contract.ts).
import { Type } from 'typebox';
import { AbsencePortion, AbsenceType, LocalDate } from '../schemas.js';

/** Format is checked by the service (zone designator required), which gives the precise message. */
export const Instant = Type.String({ maxLength: 64, description: 'ISO 8601 instant with a zone designator, e.g. 2026-03-02T08:00:00Z' });
const DateOrInstant = Type.String({ maxLength: 64, description: 'ISO 8601 instant, or a date YYYY-MM-DD meaning midnight in the user time zone' });

export const RangeQuery = Type.Object({ from: Type.Optional(DateOrInstant), to: Type.Optional(DateOrInstant) }, { additionalProperties: false });
export const IdParams = Type.Object({ id: Type.Integer({ minimum: 1, maximum: Number.MAX_SAFE_INTEGER }) });

export const EntrySchema = Type.Object({
  id: Type.Integer(),
  start_at: Type.String({ format: 'date-time' }),
  end_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  note: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  updated_at: Type.String({ format: 'date-time' }),
  auto_stopped: Type.Boolean({ description: 'the server stopped it at the timer limit; false once its start or end is set again' }),
});
export const EntryResponse = Type.Object({ entry: EntrySchema });

export const AbsenceSchema = Type.Object({
  id: Type.Integer(),
  date: LocalDate,
  type: AbsenceType,
  portion: AbsencePortion,
  note: Type.String(),
  request_id: Type.Integer({ description: 'the booking the day belongs to: the days of one POST (a day, a half day or a range) share it' }),
  state: Type.Union([Type.Literal('booked'), Type.Literal('requested'), Type.Literal('approved'), Type.Literal('cancel_requested')], {
    description: 'booked: needed no approval; else where its leave request stands (only approved and booked days count)',
  }),
  decided_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: "the leave request's last decision" }),
  decision_note: Type.Union([Type.String(), Type.Null()], { description: "the lead's note with that decision" }),
});
export const AbsenceResponse = Type.Object({ absence: AbsenceSchema });

export const BookingSchema = Type.Object({
  id: Type.Integer(),
  date: LocalDate,
  minutes: Type.Integer({ description: 'signed, never 0; a payout is negative' }),
  kind: Type.Union([Type.Literal('payout'), Type.Literal('correction')]),
  note: Type.String(),
});
