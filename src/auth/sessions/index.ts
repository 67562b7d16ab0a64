// Sessions and the credentials of a request (docs/api.md, Authentication): the module functions of
// this folder, each taking its dependencies first, bound into the services the rest of the code uses.
//
// - records.ts: what a session is, its hash, and the per-request record lookup with its row mapper.
// - signing.ts: signing and verifying session tokens (HS256 JWTs).
// - sessions.ts: storing, listing and revoking session records.
// - credentials.ts: the check of every protected request (a session token or an API token).
// - api-tokens.ts (bound with the owner's way to a token in api-token-service.ts), budgets.ts,
//   own-sessions.ts, activity.ts, authentication.ts (login, password change), new-device.ts and
//   devices.ts: the rest of what a signed-in client is.
import type { Transaction } from 'kysely';
import type { Database } from '../../db/types.js';
import type { SessionClient, SignedSession } from './records.js';
import {
  deleteSessionsOfRetiredSecrets,
  listSessionsOfUser,
  recordClient,
  revokeAllSessions,
  revokeSession,
  revokeSessionByHash,
  revokeSessionById,
  revokeSessionsOfUser,
  storeSession,
} from './sessions.js';
import { isVerified, newSigningState, signSession, verifySignature, warmUp, type SessionContext, type SessionDeps } from './signing.js';

export {
  hashToken,
  requireLiveSession,
  unauthorized,
  type AuthenticatedSession,
  type IssuedSession,
  type SessionClient,
  type SessionRecord,
  type SignedSession,
} from './records.js';
export { MAX_SESSIONS_PER_USER } from './sessions.js';
export type { SessionDeps, SessionOptions } from './signing.js';
export { createActivityRecorder, type ActivityRecorder, type ActivityDeps } from './activity.js';
export { API_TOKEN_MAX_DAYS, API_TOKEN_NAME_MAX_LENGTH, API_TOKENS_PER_ACCOUNT, type ApiTokenDeps } from './api-tokens.js';
export { createApiTokenService, type ApiTokenServiceDeps } from './api-token-service.js';
export { createAuthenticationService, type AuthenticationDeps } from './authentication.js';
export { createCredentialService, type CredentialDeps, type CredentialService } from './credentials.js';
export { createNewDeviceNotices, newDeviceText, type NewDeviceDeps, type SignInClient } from './new-device.js';
export { createOwnSessionService, type OwnSessionDeps } from './own-sessions.js';

export function createSessionService(deps: SessionDeps) {
  const context: SessionContext = { ...deps, signing: newSigningState() };
  return {
    signSession: (userId: number) => signSession(context, userId),
    storeSession: (signed: SignedSession, trx: Transaction<Database>) => storeSession(signed, trx),
    /** Whether a token's signature was verified before in this process (the per-request check skips it then). */
    isVerified: (tokenHash: string) => isVerified(context, tokenHash),
    verifySignature: (token: string, tokenHash: string, userId: number, now: Date) => verifySignature(context, token, tokenHash, userId, now),
    revokeSession: (tokenHash: string) => revokeSession(context, tokenHash),
    revokeSessionsOfUser: (userId: number) => revokeSessionsOfUser(context, userId),
    revokeSessionById: (id: number) => revokeSessionById(context, id),
    revokeSessionByHash: (tokenHash: string) => revokeSessionByHash(context, tokenHash),
    revokeAllSessions: () => revokeAllSessions(context),
    deleteSessionsOfRetiredSecrets: () => deleteSessionsOfRetiredSecrets(context),
    recordClient: (token: string, client: SessionClient) => recordClient(context, token, client),
    listSessionsOfUser: (userId: number) => listSessionsOfUser(context, userId),
    warmUp: () => warmUp(context),
  };
}

export type SessionService = ReturnType<typeof createSessionService>;
