// What a Bearer credential is (docs/api.md, Authentication): an API token (its prefix tells it apart:
// src/auth/sessions/api-tokens.ts) or a session token, checked by the session service as before. Either use is
// noted for its "last seen" in memory (src/auth/sessions/activity.ts: no write on the request's path).
import type { ActivityRecorder, CredentialKind } from './activity.js';
import { API_TOKEN_PREFIX, type ApiTokenService } from './api-tokens.js';
import type { AuthenticatedSession, SessionService } from './sessions.js';

export function createCredentialService(sessions: Pick<SessionService, 'authenticate'>, apiTokens: Pick<ApiTokenService, 'authenticate'>, activity: ActivityRecorder) {
  function noted(kind: CredentialKind, credential: AuthenticatedSession): AuthenticatedSession {
    activity.seen(kind, credential.tokenHash);
    return credential;
  }

  /**
   * The session of a bearer credential, synchronous where its check is (SQLite): no promise is made
   * for a request that needs none (docs/performance.md). Throws (or rejects with) UNAUTHORIZED.
   */
  function authenticate(token: string): AuthenticatedSession | Promise<AuthenticatedSession> {
    const kind: CredentialKind = token.startsWith(API_TOKEN_PREFIX) ? 'api_token' : 'session';
    const checked = kind === 'api_token' ? apiTokens.authenticate(token) : sessions.authenticate(token);
    return checked instanceof Promise ? checked.then((credential) => noted(kind, credential)) : noted(kind, checked);
  }

  return { authenticate };
}
