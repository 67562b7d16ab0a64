// Schemas of GET /api/audit (docs/api.md, "Audit trail"): the rows of `timetrack audit list`.
import { Type } from 'typebox';

export const AuditQuery = Type.Object(
  {
    user: Type.Optional(Type.String({ minLength: 1, maxLength: 320, description: 'the account: its id, e-mail address or username, or closed-account:<id>' })),
    actor: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'who acted, exactly: user:<id>, os:<login> or server' })),
    action: Type.Optional(Type.String({ pattern: '^[a-z0-9_]{1,40}$', description: 'e.g. account_disabled' })),
    from: Type.Optional(Type.String({ format: 'date', description: 'YYYY-MM-DD (UTC), inclusive' })),
    to: Type.Optional(Type.String({ format: 'date', description: 'YYYY-MM-DD (UTC), inclusive' })),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
    cursor: Type.Optional(Type.String({ maxLength: 80, pattern: '^[0-9TZ:.+-]+_[0-9]{1,15}$', description: 'next_cursor of the page before' })),
  },
  { additionalProperties: false },
);

export const AuditEventSchema = Type.Object({
  id: Type.Integer(),
  at: Type.String(),
  actor: Type.String({ description: 'user:<id> (an account in the browser or the API), os:<login> (a command), or server' }),
  action: Type.String(),
  user_id: Type.Union([Type.Integer(), Type.Null()]),
  user_email: Type.Union([Type.String(), Type.Null()]),
  detail: Type.Record(Type.String(), Type.Unknown()),
});

export const AuditResponse = Type.Object({
  events: Type.Array(AuditEventSchema),
  next_cursor: Type.Union([Type.String(), Type.Null()], { description: 'null on the last page' }),
});
