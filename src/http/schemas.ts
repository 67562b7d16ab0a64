// Schemas shared by several route groups. Response schemas double as a filter: fast-json-stringify
// writes only the listed properties, so a row with extra columns can never leak them.
import { Type } from 'typebox';

export const UserSchema = Type.Object(
  {
    id: Type.Integer(),
    email: Type.String(),
    full_name: Type.String(),
    username: Type.Union([Type.String(), Type.Null()]),
    created_at: Type.String({ format: 'date-time' }),
  },
);

export const ErrorSchema = Type.Object(
  {
    statusCode: Type.Integer(),
    error: Type.String(),
    code: Type.String(),
    message: Type.String(),
  },
);

export const MessageSchema = Type.Object({ message: Type.String() });

/** Error responses of a route, for the OpenAPI document. */
export function errorResponses(...statuses: number[]): Record<number, typeof ErrorSchema> {
  return Object.fromEntries(statuses.map((status) => [status, ErrorSchema]));
}
