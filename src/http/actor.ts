// The actor of a request, as the team layer's rule takes it (src/teams/access.ts; docs/teams.md).
import type { AuthenticatedSession } from '../auth/sessions/index.js';
import type { Actor } from '../teams/index.js';

/** Its account, its role (read with the session), and whether it came with an API token. */
export function actorOf(session: AuthenticatedSession): Actor {
  return { userId: session.user.id, role: session.role, viaApiToken: session.apiTokenId !== undefined };
}
