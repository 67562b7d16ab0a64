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

export const ApiTokenSchema = Type.Object({
  id: Type.Integer(),
  name: Type.String(),
  created_at: Type.String({ format: 'date-time' }),
  expires_at: Type.String({ format: 'date-time' }),
  last_used_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], { description: 'to 5 minutes; null: never used' }),
});
export const ApiTokenListResponse = Type.Object({ api_tokens: Type.Array(ApiTokenSchema) });
export const NewApiTokenResponse = Type.Object({
  token: Type.String({ description: 'the token, shown only in this answer: `ttpat_` and 43 base64url characters' }),
  ...ApiTokenSchema.properties,
});
