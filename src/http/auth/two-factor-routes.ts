// Two-factor sign-in under /api/auth (docs/api.md, "Two-factor sign-in"): set-up, enable, disable,
// new recovery codes, and the second step of sign-in. Registered inside the /api/auth plugin. Every
// route that takes a password or a code shares the per-address budget of sign-in (RATE_LIMIT_AUTH),
// and every code counts against the account's lockout.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type TSchema } from 'typebox';
import type { Services } from '../../composition-root.js';
import { securityEvent } from '../../auth/audit.js';
import { unauthorized } from '../../auth/sessions/index.js';
import { PASSWORD_MAX_LENGTH } from '../../auth/passwords/policy.js';
import { ServiceError, validationError } from '../../common/errors.js';
import { accountSessionIfSent, requireAccountSession, sessionOf, type Authenticator } from '../authentication.js';
import { BEARER } from '../openapi.js';
import type { ApiInstance } from '../api-hooks.js';
import { errorResponses, MessageSchema } from '../schemas.js';
import { EnableWithChallengeResponse, LoginResponse, RecoveryCodesResponse, TwoFactorSetupResponse, TwoFactorStatusResponse } from './schemas.js';

const Password = Type.String({ maxLength: PASSWORD_MAX_LENGTH * 4 });
const Code = Type.String({ minLength: 1, maxLength: 64, description: 'a 6-digit code of the app, or a recovery code' });
const tags = ['two-factor'];
/** Turning two-factor sign-in off and new recovery codes both ask for the password and a current code. */
const confirmedSchema = <Response extends TSchema>(response: Response) => ({
  tags,
  security: BEARER,
  body: Type.Object({ password: Password, code: Code }, { additionalProperties: false }),
  response: { 200: response, ...errorResponses(400, 401, 403, 409, 423, 429, 503) },
});
const Challenge = Type.String({ minLength: 1, maxLength: 128 });

/** Refused sign-in steps, by the code the client gets: the security event each logs (fail2ban matches them). */
const REFUSED = { INVALID_TWO_FACTOR_CODE: 'login_failed', INVALID_CHALLENGE: 'login_failed', ACCOUNT_LOCKED: 'login_locked' } as const;

export interface TwoFactorRouteOptions {
  credentials: Authenticator;
  audit: Services['audit'];
  sessions: Services['sessions'];
  twoFactor: Services['twoFactor'];
  signInNotices: Services['signInNotices'];
  /** Route config that applies the per-address rate limit (empty when RATE_LIMIT_AUTH=0). */
  rateLimited: Record<string, unknown>;
}

export const twoFactorRoutes: FastifyPluginAsyncTypebox<TwoFactorRouteOptions> = async (
  app,
  { audit, credentials, sessions, twoFactor, signInNotices, rateLimited },
) => {
  const sessionOnly = { onRequest: requireAccountSession(credentials) };
  // A request with an Authorization header is checked strictly (a bad or revoked token is 401, as on
  // every strict route); one without goes on to need a set-up challenge in its body.
  const sessionIfAny = { onRequest: accountSessionIfSent(credentials) };

  app.get(
    '/2fa',
    {
      ...sessionOnly,
      schema: { tags, security: BEARER, response: { 200: TwoFactorStatusResponse, ...errorResponses(401, 403) } },
    },
    async (request) => twoFactor.status(sessionOf(request).user.id),
  );

  app.post(
    '/2fa/setup',
    {
      ...sessionIfAny,
      config: rateLimited,
      schema: {
        tags,
        security: BEARER,
        description: 'With a session: the current password. Without one (REQUIRE_2FA): the set-up challenge that login answered.',
        body: Type.Object({ password: Type.Optional(Password), challenge: Type.Optional(Challenge) }, { additionalProperties: false }),
        response: { 200: TwoFactorSetupResponse, ...errorResponses(400, 401, 403, 409, 423, 429, 503) },
      },
    },
    async (request) => {
      if (request.session) {
        if (request.body.password === undefined) throw validationError('password is required', 'password');
        return twoFactor.setUpWithPassword(request.session.user, request.body.password, request.session.tokenHash);
      }
      if (request.body.challenge === undefined) throw unauthorized();
      return twoFactor.setUpWithChallenge(request.body.challenge);
    },
  );

  app.post(
    '/2fa/enable',
    {
      ...sessionIfAny,
      config: rateLimited,
      schema: {
        tags,
        security: BEARER,
        description: 'With a session: the code. Without one (REQUIRE_2FA): the set-up challenge and the code; the answer then also signs in.',
        body: Type.Object({ code: Code, challenge: Type.Optional(Challenge) }, { additionalProperties: false }),
        response: { 200: Type.Union([EnableWithChallengeResponse, RecoveryCodesResponse]), ...errorResponses(400, 401, 403, 409, 423, 429) },
      },
    },
    async (request) => {
      if (request.session) {
        const { user, tokenHash } = request.session;
        const { recoveryCodes, revokedSessions } = await twoFactor.enableWithSession(user, request.body.code, tokenHash);
        securityEvent(request.log, 'two_factor_enabled', { user_id: user.id, client: request.ip });
        await audit.record({
          action: 'two_factor_enabled',
          actor: `user:${user.id}`,
          user,
          detail: { client: request.ip, other_sessions_revoked: revokedSessions },
        });
        return { recovery_codes: recoveryCodes };
      }
      if (request.body.challenge === undefined) throw unauthorized();
      const { recoveryCodes, revokedSessions, session, user } = await twoFactor.enableWithChallenge(request.body.challenge, request.body.code);
      securityEvent(request.log, 'two_factor_enabled', { user_id: user.id, client: request.ip });
      await audit.record({
        action: 'two_factor_enabled',
        actor: `user:${user.id}`,
        user,
        detail: { client: request.ip, other_sessions_revoked: revokedSessions, at_sign_in: true },
      });
      await sessions.recordClient(session!.token, { clientAddress: request.ip, userAgent: request.headers['user-agent'] });
      signInNotices.noteSignIn(user, { address: request.ip, userAgent: request.headers['user-agent'] });
      return { recovery_codes: recoveryCodes, token: session!.token, token_type: 'Bearer' as const, expires_at: session!.expiresAt.toISOString(), user };
    },
  );

  confirmedAndSignInRoutes(app, { audit, credentials, sessions, twoFactor, signInNotices, rateLimited });
};

/** Turning two-factor sign-in off, new recovery codes, and the second step of sign-in. */
function confirmedAndSignInRoutes(app: ApiInstance, { audit, credentials, sessions, twoFactor, signInNotices, rateLimited }: TwoFactorRouteOptions): void {
  const sessionOnly = { onRequest: requireAccountSession(credentials) };
  app.post(
    '/2fa/disable',
    {
      ...sessionOnly,
      config: rateLimited,
      schema: confirmedSchema(MessageSchema),
    },
    async (request) => {
      const { user, tokenHash } = sessionOf(request);
      const { revokedSessions } = await twoFactor.disable(user, request.body.password, request.body.code, tokenHash);
      securityEvent(request.log, 'two_factor_disabled', { user_id: user.id, client: request.ip });
      await audit.record({
        action: 'two_factor_disabled',
        actor: `user:${user.id}`,
        user,
        detail: { client: request.ip, other_sessions_revoked: revokedSessions },
      });
      return { message: 'Two-factor sign-in is off; other sessions have been signed out' };
    },
  );

  app.post(
    '/2fa/recovery-codes',
    {
      ...sessionOnly,
      config: rateLimited,
      schema: confirmedSchema(RecoveryCodesResponse),
    },
    async (request) => {
      const { user, tokenHash } = sessionOf(request);
      const codes = await twoFactor.regenerateRecoveryCodes(user, request.body.password, request.body.code, tokenHash);
      await audit.record({ action: 'recovery_codes_replaced', actor: `user:${user.id}`, user, detail: { client: request.ip } });
      return { recovery_codes: codes };
    },
  );

  app.post(
    '/login/2fa',
    {
      config: rateLimited,
      schema: {
        tags: ['auth', ...tags],
        body: Type.Object({ challenge: Challenge, code: Code }, { additionalProperties: false }),
        response: { 200: LoginResponse, ...errorResponses(400, 401, 403, 423, 429) },
      },
    },
    async (request) => {
      let result: Awaited<ReturnType<typeof twoFactor.completeSignIn>>;
      try {
        result = await twoFactor.completeSignIn(request.body.challenge, request.body.code);
      } catch (error) {
        if (error instanceof ServiceError && error.code in REFUSED) {
          securityEvent(request.log, REFUSED[error.code as keyof typeof REFUSED], { client: request.ip, second_factor: true });
        }
        throw error;
      }
      if (result.recoveryCodeUsed) {
        await audit.record({ action: 'recovery_code_used', actor: `user:${result.user.id}`, user: result.user, detail: { client: request.ip } });
      }
      await sessions.recordClient(result.token, { clientAddress: request.ip, userAgent: request.headers['user-agent'] });
      signInNotices.noteSignIn(result.user, { address: request.ip, userAgent: request.headers['user-agent'] });
      return { token: result.token, token_type: 'Bearer' as const, expires_at: result.expiresAt.toISOString(), user: result.user };
    },
  );
}
