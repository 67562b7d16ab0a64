// What a Bearer credential is (docs/api.md, Authentication): an API token (its prefix tells it apart:
// src/auth/api-tokens.ts) or a session token, checked by the session service as before. Either use is
// noted for its "last seen" in memory (src/auth/activity.ts: no write on the request's path).
import type { ActivityRecorder } from './activity.js';
import { API_TOKEN_PREFIX, type ApiTokenService } from './api-tokens.js';
import type { AuthenticatedSession, SessionService } from './sessions.js';

export function createCredentialService(sessions: Pick<SessionService, 'authenticate'>, apiTokens: Pick<ApiTokenService, 'authenticate'>, activity: ActivityRecorder) {
  async function authenticate(token: string): Promise<AuthenticatedSession> {
    if (token.startsWith(API_TOKEN_PREFIX)) {
      const credential = await apiTokens.authenticate(token);
      activity.seen('api_token', credential.tokenHash);
      return credential;
    }
    const session = await sessions.authenticate(token);
    activity.seen('session', session.tokenHash);
    return session;
  }

  return { authenticate };
}
