// What a Bearer credential is (docs/api.md, Authentication): a session token, checked by the session
// service as before, and noted for its "last seen" in memory (src/auth/activity.ts: no write on the
// request's path).
import type { ActivityRecorder } from './activity.js';
import type { AuthenticatedSession, SessionService } from './sessions.js';

export function createCredentialService(sessions: Pick<SessionService, 'authenticate'>, activity: ActivityRecorder) {
  async function authenticate(token: string): Promise<AuthenticatedSession> {
    const session = await sessions.authenticate(token);
    activity.seen('session', session.tokenHash);
    return session;
  }

  return { authenticate };
}

