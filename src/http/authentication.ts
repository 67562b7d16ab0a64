// The session check of protected routes (docs/api.md, Authentication). Only `Authorization: Bearer <token>`
// counts; cookies, the URL and the query string are never read. Strict routes answer every failure
// with 401 UNAUTHORIZED + WWW-Authenticate: Bearer; optional routes go on without a session.
import type { FastifyRequest, onRequestAsyncHookHandler, onRequestHookHandler } from 'fastify';
import { unauthorized, type AuthenticatedSession, type CredentialService } from '../auth/sessions/index.js';
import { ServiceError } from '../common/errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    session: AuthenticatedSession | null;
  }
}

// Exactly one space, the scheme as the contract writes it, and a compact JWS (three base64url parts)
// or an API token (`ttpat_` and 43 base64url characters: src/auth/sessions/api-tokens.ts).
const BEARER = /^Bearer ([A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+|ttpat_[A-Za-z0-9_-]{43})$/;

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  return typeof header === 'string' ? BEARER.exec(header)?.[1] : undefined;
}

/** What checks a bearer credential: a session token or an API token (src/auth/sessions/credentials.ts). */
export type Authenticator = Pick<CredentialService, 'check' | 'authenticate'>;

interface SessionCheck {
  /** Account management: an API token is refused with 403 FORBIDDEN_FOR_API_TOKEN. */
  refuseApiTokens: boolean;
  /** Without an Authorization header the request goes on without a session (the route decides). */
  headerOptional: boolean;
}

function forbiddenForApiToken(): ServiceError {
  return new ServiceError('FORBIDDEN_FOR_API_TOKEN', 'An API token cannot manage the account; sign in to do this');
}

/**
 * The session check as a callback hook: with SQLite and a known token the whole check is synchronous,
 * and an async hook would still cost a promise and a microtask turn on every request. Refusing API
 * tokens is part of the same hook, so an account-management route runs one hook, not two.
 */
function sessionHook(credentials: Authenticator, check: SessionCheck): onRequestHookHandler {
  const accept = (request: FastifyRequest, session: AuthenticatedSession, done: (error?: Error) => void) => {
    if (check.refuseApiTokens && session.apiTokenId !== undefined) return done(forbiddenForApiToken());
    request.session = session;
    done();
  };
  return (request, _reply, done) => {
    if (check.headerOptional && request.headers.authorization === undefined) return done();
    const token = bearerToken(request);
    if (!token) return done(unauthorized());
    credentials.check(
      token,
      (session) => accept(request, session, done),
      (error) => done(error),
    );
  };
}

/** A session token or an API token, else 401 UNAUTHORIZED. */
export function requireSession(credentials: Authenticator): onRequestHookHandler {
  return sessionHook(credentials, { refuseApiTokens: false, headerOptional: false });
}

/**
 * The session of an account-management route (password, two-factor sign-in, sessions, API tokens,
 * closing the account): a session token; an API token is refused with 403 FORBIDDEN_FOR_API_TOKEN.
 */
export function requireAccountSession(credentials: Authenticator): onRequestHookHandler {
  return sessionHook(credentials, { refuseApiTokens: true, headerOptional: false });
}

/**
 * As requireAccountSession when the request has an Authorization header (a bad or revoked token is
 * 401, as on every strict route); without one the request goes on without a session (the two-factor
 * set-up of REQUIRE_2FA, which carries a set-up challenge in its body instead).
 */
export function accountSessionIfSent(credentials: Authenticator): onRequestHookHandler {
  return sessionHook(credentials, { refuseApiTokens: true, headerOptional: true });
}

export function optionalSession(credentials: Pick<CredentialService, 'authenticate'>): onRequestAsyncHookHandler {
  return async (request) => {
    const token = bearerToken(request);
    if (!token) return;
    try {
      request.session = await credentials.authenticate(token);
    } catch (error) {
      // A bad token only means "anonymous"; a database failure is still an error.
      if (!(error instanceof ServiceError)) throw error;
    }
  };
}

/** The session of a request behind requireSession (which guarantees it). */
export function sessionOf(request: FastifyRequest): AuthenticatedSession {
  if (!request.session) throw unauthorized();
  return request.session;
}
