// The session check of protected routes (docs/api.md, Authentication). Only `Authorization: Bearer <token>`
// counts; cookies, the URL and the query string are never read. Strict routes answer every failure
// with 401 UNAUTHORIZED + WWW-Authenticate: Bearer; optional routes go on without a session.
import type { FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { AuthenticatedSession, SessionService } from '../auth/sessions.js';
import { unauthorized } from '../auth/sessions.js';
import { ServiceError } from '../common/errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    session: AuthenticatedSession | null;
  }
}

// Exactly one space, the scheme as the contract writes it, and a compact JWS (three base64url parts)
// or an API token (`ttpat_` and 43 base64url characters: src/auth/api-tokens.ts).
const BEARER = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+|ttpat_[A-Za-z0-9_-]{43})$/;

function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  return typeof header === 'string' ? BEARER.exec(header)?.[1] : undefined;
}

export function requireSession(sessions: Pick<SessionService, 'authenticate'>): onRequestAsyncHookHandler {
  return async (request) => {
    const token = bearerToken(request);
    if (!token) throw unauthorized();
    request.session = await sessions.authenticate(token);
  };
}

export function optionalSession(sessions: Pick<SessionService, 'authenticate'>): onRequestAsyncHookHandler {
  return async (request) => {
    const token = bearerToken(request);
    if (!token) return;
    try {
      request.session = await sessions.authenticate(token);
    } catch (error) {
      // A bad token only means "anonymous"; a database failure is still an error.
      if (!(error instanceof ServiceError)) throw error;
    }
  };
}

/**
 * The session of an account-management route (password, two-factor sign-in, sessions, API tokens,
 * closing the account): an API token is refused with 403 FORBIDDEN_FOR_API_TOKEN.
 */
export function refuseApiTokens(request: FastifyRequest, _reply: unknown, done: (error?: Error) => void): void {
  done(request.session?.apiTokenId !== undefined ? new ServiceError('FORBIDDEN_FOR_API_TOKEN', 'An API token cannot manage the account; sign in to do this') : undefined);
}

/** The session of a request behind requireSession (which guarantees it). */
export function sessionOf(request: FastifyRequest): AuthenticatedSession {
  if (!request.session) throw unauthorized();
  return request.session;
}
