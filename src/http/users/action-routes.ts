// POST /api/users/:id/{disable,enable,unlock,reset-link,two-factor-reset} (docs/api.md, "Users"): an
// admin's actions on an account, each the service function of its command (src/teams/account-actions.ts).
// Administration: a session only; `can` answers 404 outside the actor's reach and 403 inside it.
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { AccountSummary } from '../../auth/accounts/users.js';
import type { AccountActionService } from '../../teams/account-actions.js';
import { requireAccountSession, sessionOf, type Authenticator } from '../authentication.js';
import { BEARER } from '../openapi.js';
import { errorResponses } from '../schemas.js';
import { actorOf } from '../actor.js';
import { AccountStateResponse, ResetLinkResponse, UserParams } from './schemas.js';

export interface AccountActionRouteOptions {
  credentials: Authenticator;
  accountActions: AccountActionService;
}

/** The account as `timetrack user show` prints it, in the shape of the list. */
export function accountState(summary: AccountSummary) {
  return {
    ...summary.user,
    status: summary.status,
    locked_until: summary.locked_until,
    two_factor: summary.two_factor,
    last_sign_in_at: summary.last_sign_in_at,
  };
}

export const accountActionRoutes: FastifyPluginAsyncTypebox<AccountActionRouteOptions> = async (app, { credentials, accountActions }) => {
  const administration = { onRequest: requireAccountSession(credentials) };
  const action = (description: string, statuses: number[]) => ({
    ...administration,
    schema: {
      tags: ['users'],
      security: BEARER,
      description,
      params: UserParams,
      response: { 200: AccountStateResponse, ...errorResponses(400, 401, 403, 404, ...statuses) },
    },
  });

  app.post(
    '/:id/disable',
    action(
      'Disables the account and ends its sessions, API tokens and pending reset links, as `timetrack user disable` (admins only). ' +
        'Your own account: 403 FORBIDDEN; the last active admin: 409 LAST_ADMIN.',
      [409],
    ),
    async (request) => {
      const { summary, revokedSessions } = await accountActions.disable(actorOf(sessionOf(request)), request.params.id);
      return { user: accountState(summary), revoked_sessions: revokedSessions };
    },
  );

  app.post('/:id/enable', action('Makes a disabled account active again, as `timetrack user enable` (admins only).', []), async (request) => {
    const { summary } = await accountActions.enable(actorOf(sessionOf(request)), request.params.id);
    return { user: accountState(summary) };
  });

  app.post('/:id/unlock', action('Clears the failed-attempt count and the lock, as `timetrack user unlock` (admins only).', []), async (request) => {
    const { summary } = await accountActions.unlock(actorOf(sessionOf(request)), request.params.id);
    return { user: accountState(summary) };
  });

  app.post(
    '/:id/two-factor-reset',
    action('Turns two-factor sign-in off and ends every session of the account, as `timetrack user 2fa-reset` (admins only).', []),
    async (request) => {
      const { summary, wasEnabled, revokedSessions } = await accountActions.resetTwoFactor(actorOf(sessionOf(request)), request.params.id);
      return { user: accountState(summary), was_enabled: wasEnabled, revoked_sessions: revokedSessions };
    },
  );

  app.post(
    '/:id/reset-link',
    {
      ...administration,
      schema: {
        tags: ['users'],
        security: BEARER,
        description:
          'Issues a password-reset link, as `timetrack reset issue` (admins only): mailed over SMTP; in dev mode printed on the terminal and ' +
          'answered too (never in production). Without SMTP in production: 500 SERVER_MISCONFIGURED, no link issued. A disabled account: 403 ACCOUNT_DISABLED.',
        params: UserParams,
        response: { 200: ResetLinkResponse, ...errorResponses(400, 401, 403, 404, 500) },
      },
    },
    async (request) => {
      const { issued, delivery, expiresAt } = await accountActions.resetLink(actorOf(sessionOf(request)), request.params.id);
      if (delivery === 'terminal') return { delivery, expires_at: expiresAt, reset_url: issued.url, reset_token: issued.token };
      return { delivery, expires_at: expiresAt };
    },
  );
};
