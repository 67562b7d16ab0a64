// /api/auth (docs/api.md). Each handler parses, calls one service function, shapes the answer.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Services } from '../../composition-root.js';
import { EMAIL_MAX_LENGTH } from '../../auth/accounts/fields.js';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from '../../auth/passwords/policy.js';
import { requireAccountSession, requireSession, sessionOf } from '../authentication.js';
import { sendNotFound } from '../error-handler.js';
import { BEARER } from '../openapi.js';
import type { ApiInstance } from '../api-hooks.js';
import { securityEvent } from '../../auth/audit.js';
import { ServiceError } from '../../common/errors.js';
import { errorResponses, MessageSchema } from '../schemas.js';
import { challengeAnswer, LoginResponse, MeResponse, RevokeApiTokensOption, TwoFactorRequiredResponse, TwoFactorSetupRequiredResponse } from './schemas.js';
import { twoFactorRoutes } from './two-factor-routes.js';
import { accountRoutes } from './account-routes.js';
import { apiTokenRoutes } from './api-token-routes.js';
import { sessionRoutes } from './session-routes.js';
import { registrationRoutes } from './registration-routes.js';
import { accountBudget } from '../account-limits.js';
import { REVOCATIONS_PER_HOUR } from '../../auth/sessions/budgets.js';

const Password = Type.String({ minLength: PASSWORD_MIN_LENGTH, maxLength: PASSWORD_MAX_LENGTH });
// The login field takes any string up to this length: a wrong shape is a failed login, not a 400.
const LoginIdentifier = Type.String({ minLength: 1, maxLength: EMAIL_MAX_LENGTH });
const Email = Type.String({ minLength: 1, maxLength: EMAIL_MAX_LENGTH + 64 });
const ResetToken = Type.String({ minLength: 1, maxLength: 256 });

/** Headers a reverse proxy adds: a request carrying one did not come straight from this machine. */
const FORWARDING_HEADERS = ['x-forwarded-for', 'forwarded', 'x-real-ip', 'via', 'x-forwarded-host', 'x-forwarded-proto'];

/** The services of the /api/auth routes and of the account-security groups registered under it. */
export type AuthServices = Pick<
  Services,
  | 'accountClosing'
  | 'accounts'
  | 'apiTokens'
  | 'audit'
  | 'authentication'
  | 'credentials'
  | 'firstAdmin'
  | 'lockout'
  | 'ownSessions'
  | 'resets'
  | 'sessions'
  | 'settings'
  | 'signInNotices'
  | 'teams'
  | 'twoFactor'
>;

export interface AuthRouteOptions {
  services: AuthServices;
  /** Route config that applies the per-address rate limit (empty when RATE_LIMIT_AUTH=0). */
  rateLimited: Record<string, unknown>;
}

export const authRoutes: FastifyPluginAsyncTypebox<AuthRouteOptions> = async (app, { services, rateLimited }) => {
  const { accounts, audit, authentication, credentials, lockout, sessions, settings, signInNotices } = services;
  /** Refused logins, by the code the client gets: the security event each one logs. */
  const refusedLogin = { INVALID_CREDENTIALS: 'login_failed', ACCOUNT_LOCKED: 'login_locked', ACCOUNT_DISABLED: 'login_disabled' } as const;
  // Unknown /api/auth paths answer here, so that the group's hooks (no-store: api-hooks.ts) cover them too.
  app.setNotFoundHandler(sendNotFound);
  // The account-security routes: in plugins of their own, under this prefix and its hooks.
  // One revocation budget per account for sessions and API tokens (src/auth/sessions/budgets.ts).
  const revocationBudget = accountBudget({ name: 'revocations', max: REVOCATIONS_PER_HOUR, windowMs: 3_600_000 });
  await app.register(sessionRoutes, { credentials, audit, ownSessions: services.ownSessions, revocationBudget });
  await app.register(apiTokenRoutes, { credentials, audit, apiTokens: services.apiTokens, revocationBudget, rateLimited });
  await app.register(twoFactorRoutes, { credentials, audit, sessions, twoFactor: services.twoFactor, signInNotices, rateLimited });
  await app.register(accountRoutes, { credentials, accountClosing: services.accountClosing, rateLimited });

  await app.register(registrationRoutes, { accounts, firstAdmin: services.firstAdmin, settings, rateLimited });

  app.post(
    '/login',
    {
      config: rateLimited,
      schema: {
        tags: ['auth'],
        body: Type.Object({ email: LoginIdentifier, password: Type.String({ maxLength: PASSWORD_MAX_LENGTH * 4 }) }, { additionalProperties: false }),
        response: {
          200: Type.Union([LoginResponse, TwoFactorRequiredResponse, TwoFactorSetupRequiredResponse]),
          ...errorResponses(400, 401, 403, 423, 429, 503),
        },
      },
    },
    async (request) => {
      let result: Awaited<ReturnType<typeof authentication.login>>;
      try {
        result = await authentication.login(request.body.email, request.body.password);
      } catch (error) {
        if (error instanceof ServiceError && error.code in refusedLogin) {
          // What was typed is logged only as a keyed digest: it may be an address without an account, or a password.
          // fail2ban matches these lines (config/fail2ban): they name the client whatever path reached the route.
          securityEvent(request.log, refusedLogin[error.code as keyof typeof refusedLogin], {
            client: request.ip,
            identifier_hmac: lockout.logDigest(request.body.email),
          });
        }
        throw error;
      }
      if ('challenge' in result) return challengeAnswer(result.challenge);
      await sessions.recordClient(result.token, { clientAddress: request.ip, userAgent: request.headers['user-agent'] });
      signInNotices.noteSignIn(result.user, { address: request.ip, userAgent: request.headers['user-agent'] });
      return { token: result.token, token_type: 'Bearer' as const, expires_at: result.expiresAt.toISOString(), user: result.user };
    },
  );

  sessionCheckRoutes(app, services);
  passwordRoutes(app, services, rateLimited);
};

/** Signing out, and what a client asks of its token: whose it is, until when. */
function sessionCheckRoutes(app: ApiInstance, { credentials, sessions, teams }: AuthServices): void {
  const authenticated = { onRequest: requireSession(credentials) };
  const accountManagement = { onRequest: requireAccountSession(credentials) };
  app.post(
    '/logout',
    {
      ...accountManagement,
      schema: { tags: ['auth'], security: BEARER, response: { 200: MessageSchema, ...errorResponses(401, 403) } },
    },
    async (request) => {
      await sessions.revokeSession(sessionOf(request).tokenHash);
      return { message: 'Signed out' };
    },
  );

  app.get(
    '/me',
    {
      ...authenticated,
      schema: { tags: ['auth'], security: BEARER, response: { 200: MeResponse, ...errorResponses(401) } },
    },
    async (request) => {
      const { user, role } = sessionOf(request);
      return { user, role, teams: await teams.teamsOf(user.id) };
    },
  );

  app.get(
    '/validate',
    {
      ...authenticated,
      schema: {
        tags: ['auth'],
        security: BEARER,
        response: {
          200: Type.Object({ valid: Type.Literal(true), user_id: Type.Integer(), expires_at: Type.String({ format: 'date-time' }) }),
          ...errorResponses(401),
        },
      },
    },
    async (request) => {
      const session = sessionOf(request);
      return { valid: true as const, user_id: session.user.id, expires_at: session.expiresAt.toISOString() };
    },
  );
}

/** The password: a reset link asked for and used, and a change by the signed-in owner. */
function passwordRoutes(app: ApiInstance, { audit, authentication, credentials, resets }: AuthServices, rateLimited: Record<string, unknown>): void {
  // Account management: a session only, never an API token (403 FORBIDDEN_FOR_API_TOKEN).
  const accountManagement = { onRequest: requireAccountSession(credentials) };
  app.post(
    '/request-reset',
    {
      config: rateLimited,
      schema: {
        tags: ['auth'],
        body: Type.Object({ email: Email }, { additionalProperties: false }),
        response: {
          200: Type.Object({
            message: Type.String(),
            // The same for every address: how a link would travel. 'none': no mail can be sent, ask the administrator.
            delivery: Type.Union([Type.Literal('mail'), Type.Literal('terminal'), Type.Literal('none')]),
            reset_token: Type.Optional(Type.String()),
            reset_url: Type.Optional(Type.String()),
          }),
          ...errorResponses(400, 429),
        },
      },
    },
    async (request) => {
      const issued = await resets.requestReset(request.body.email);
      const delivery = resets.deliveryMode();
      const message =
        delivery === 'none'
          ? 'This server cannot send e-mail; ask the administrator to reset the password'
          : 'If an account with this e-mail address exists, a reset link has been sent to it';
      // Dev mode answers the token only to a client on this machine: a request that came through a
      // proxy (forwarding headers) could come from anywhere; its link is shown on the terminal only.
      if (issued && FORWARDING_HEADERS.some((name) => request.headers[name] !== undefined)) {
        request.log.warn({ client: request.ip }, 'dev mode: a reset request came through a proxy; its token is shown on the terminal only');
        return { message, delivery };
      }
      return issued ? { message, delivery, reset_token: issued.token, reset_url: issued.url } : { message, delivery };
    },
  );

  app.post(
    '/reset-password',
    {
      config: rateLimited,
      schema: {
        tags: ['auth'],
        body: Type.Object({ token: ResetToken, new_password: Password }, { additionalProperties: false }),
        response: { 200: MessageSchema, ...errorResponses(400, 429, 503) },
      },
    },
    async (request) => {
      const account = await resets.resetPassword(request.body.token, request.body.new_password);
      securityEvent(request.log, 'password_reset', { user_id: account.id, client: request.ip });
      await audit.record({ action: 'password_reset', actor: 'reset link', user: account, detail: { client: request.ip } });
      return { message: 'Password changed; sign in with the new password' };
    },
  );

  app.post(
    '/change-password',
    {
      ...accountManagement,
      // Also the per-address budget of sign-in: a stolen token must not turn this into a free hashing queue.
      config: rateLimited,
      schema: {
        tags: ['auth'],
        security: BEARER,
        body: Type.Object(
          { old_password: Type.String({ maxLength: PASSWORD_MAX_LENGTH * 4 }), new_password: Password, revoke_api_tokens: RevokeApiTokensOption },
          { additionalProperties: false },
        ),
        response: { 200: MessageSchema, ...errorResponses(400, 401, 403, 423, 429, 503) },
      },
    },
    async (request) => {
      const session = sessionOf(request);
      const { user } = session;
      const revokeApiTokens = request.body.revoke_api_tokens ?? true;
      const { body } = request;
      const { revokedApiTokens } = await authentication.changePassword(session, body.old_password, body.new_password, { revokeApiTokens });
      securityEvent(request.log, 'password_changed', { user_id: user.id, client: request.ip });
      const detail = { client: request.ip, other_sessions: 'revoked', api_tokens: revokeApiTokens ? revokedApiTokens : 'kept' };
      await audit.record({ action: 'password_changed', actor: `user:${user.id}`, user, detail });
      return { message: `Password changed; other sessions ${revokeApiTokens ? 'and API tokens ' : ''}have been signed out` };
    },
  );
}
