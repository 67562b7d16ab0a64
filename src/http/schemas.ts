// Schemas shared by several route groups. Response schemas double as a filter: fast-json-stringify
// writes only the listed properties, so a row with extra columns can never leak them.
import { Type, type TSchema } from 'typebox';

export const UserSchema = Type.Object({
  id: Type.Integer(),
  email: Type.String(),
  full_name: Type.String(),
  username: Type.Union([Type.String(), Type.Null()]),
  created_at: Type.String({ format: 'date-time' }),
});

export const ErrorSchema = Type.Object({
  statusCode: Type.Integer(),
  error: Type.String(),
  code: Type.String(),
  message: Type.String(),
  // VALIDATION_ERROR: the fields at fault, as dotted paths of the body or query (docs/api.md, Errors).
  details: Type.Optional(Type.Array(Type.Object({ field: Type.String(), message: Type.String() }))),
  // OVERLAP and ALREADY_RUNNING: the user's entry in the way; ENTRY_CHANGED: the whole entry as it is stored now.
  entry: Type.Optional(
    Type.Object({
      id: Type.Integer(),
      start_at: Type.String({ format: 'date-time' }),
      end_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
      note: Type.Optional(Type.String()),
      created_at: Type.Optional(Type.String({ format: 'date-time' })),
      updated_at: Type.Optional(Type.String({ format: 'date-time' })),
      auto_stopped: Type.Optional(Type.Boolean()),
    }),
  ),
  // MONTH_LOCKED: the closed month the change would touch (docs/teams.md, "Closed months").
  month: Type.Optional(Type.String({ description: 'YYYY-MM' })),
});

export const MessageSchema = Type.Object({ message: Type.String() });

/** Error responses of a route, for the OpenAPI document. */
export function errorResponses(...statuses: number[]): Record<number, typeof ErrorSchema> {
  return Object.fromEntries(statuses.map((status) => [status, ErrorSchema]));
}

/**
 * A body field that may be null. Null comes first: Fastify's Ajv coerces types, and with the string
 * branch first it would turn null into "" before the null branch is tried.
 */
export const nullable = <T extends TSchema>(schema: T) => Type.Union([Type.Null(), schema]);

/**
 * A number field that may be null, as one schema with `nullable` (which Ajv reads as "number or null"):
 * a union would let Fastify's type coercion turn 0 into null (null first) or null into 0 (number first).
 */
export const nullableNumber = <T extends TSchema>(schema: T) => Type.Unsafe<number | null>({ ...schema, nullable: true });

export const LocalDate = Type.String({ maxLength: 10, description: 'YYYY-MM-DD' });
export const AbsenceType = Type.Union([Type.Literal('vacation'), Type.Literal('sick'), Type.Literal('holiday')]);
export const AbsencePortion = Type.Union([Type.Literal('full'), Type.Literal('half')]);
