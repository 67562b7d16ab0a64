// Schemas of the account-security routes under /api/auth (sessions, API tokens, two-factor sign-in,
// closing the account). Response schemas double as filters: nothing but the listed fields leaves.
import { Type } from 'typebox';
import { UserSchema } from '../schemas.js';

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
export const RevokedResponse = Type.Object({
  revoked: Type.Integer({ description: 'other sessions ended' }),
  revoked_api_tokens: Type.Integer({ description: 'API tokens ended (0 with revoke_api_tokens: false)' }),
});
/** change-password and "sign out all other devices": whether the account's API tokens end too (default true). */
export const RevokeApiTokensOption = Type.Optional(Type.Boolean({ description: 'also end every API token of the account (default true); false keeps them' }));

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

/** A session, as login answers it. */
export const LoginResponse = Type.Object({
  token: Type.String(),
  token_type: Type.Literal('Bearer'),
  expires_at: Type.String({ format: 'date-time' }),
  user: UserSchema,
});
/** A right password of an account with two-factor sign-in: no token yet; POST /api/auth/login/2fa with the challenge and a code. */
export const TwoFactorRequiredResponse = Type.Object({
  two_factor_required: Type.Literal(true),
  challenge: Type.String({ description: 'for POST /api/auth/login/2fa; 5 minutes, once' }),
  expires_at: Type.String({ format: 'date-time' }),
});
/** REQUIRE_2FA and an account without it: only far enough to set it up (POST /api/auth/2fa/setup and /enable with the challenge). */
export const TwoFactorSetupRequiredResponse = Type.Object({
  two_factor_setup_required: Type.Literal(true),
  challenge: Type.String({ description: 'for POST /api/auth/2fa/setup and /2fa/enable; 15 minutes' }),
  expires_at: Type.String({ format: 'date-time' }),
});

/** The answer of a right password that needs a second step. */
export function challengeAnswer(challenge: { purpose: 'sign_in' | 'setup'; challenge: string; expiresAt: Date }) {
  const expires_at = challenge.expiresAt.toISOString();
  return challenge.purpose === 'sign_in'
    ? { two_factor_required: true as const, challenge: challenge.challenge, expires_at }
    : { two_factor_setup_required: true as const, challenge: challenge.challenge, expires_at };
}

export const TwoFactorStatusResponse = Type.Object({
  enabled: Type.Boolean(),
  pending: Type.Boolean(),
  recovery_codes_remaining: Type.Integer(),
  required: Type.Boolean({ description: 'the server requires two-factor sign-in of every account (REQUIRE_2FA): it cannot be turned off' }),
});
export const TwoFactorSetupResponse = Type.Object({
  secret: Type.String({ description: 'base32, for typing into an app; shown at set-up only' }),
  otpauth_uri: Type.String({ description: 'otpauth://totp/… for a QR code' }),
});
export const RecoveryCodesResponse = Type.Object({
  recovery_codes: Type.Array(Type.String(), { description: '10 codes, each works once; shown only in this answer' }),
});
export const EnableWithChallengeResponse = Type.Object({ ...RecoveryCodesResponse.properties, ...LoginResponse.properties });

/** The role of an account (docs/teams.md). */
export const RoleSchema = Type.Union([Type.Literal('admin'), Type.Literal('lead'), Type.Literal('member')]);
/** A team the account is in, with its role there. */
export const OwnTeamSchema = Type.Object({ id: Type.Integer(), name: Type.String(), role: Type.Union([Type.Literal('lead'), Type.Literal('member')]) });
/** GET /api/auth/me: the account, its role and its teams. */
export const MeResponse = Type.Object({ user: UserSchema, role: RoleSchema, teams: Type.Array(OwnTeamSchema) });
