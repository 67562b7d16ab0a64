// Schemas of the account-security routes under /api/auth (sessions, API tokens, two-factor sign-in,
// closing the account). Response schemas double as filters: nothing but the listed fields leaves.
import { Type } from 'typebox';

export const SessionSchema = Type.Object({
  id: Type.Integer(),
  created_at: Type.String({ format: 'date-time' }),
  last_seen_at: Type.String({ format: 'date-time', description: 'to 5 minutes' }),
  expires_at: Type.String({ format: 'date-time' }),
  device: Type.Union([Type.String(), Type.Null()], { description: 'a readable name from the User-Agent at sign-in, e.g. "Firefox on Linux"' }),
  address: Type.Union([Type.String(), Type.Null()], { description: 'the client address at sign-in' }),
  current: Type.Boolean({ description: 'the session of this request' }),
});
export const SessionListResponse = Type.Object({ sessions: Type.Array(SessionSchema) });
export const RevokedResponse = Type.Object({ revoked: Type.Integer() });
