// Two-factor sign-in (docs/api.md, "Two-factor sign-in"; docs/security.md, "Two-factor sign-in"):
// the module functions of this folder, each taking the dependencies first, bound into the service
// the routes, the CLI and the other auth services use.
//
// - codes.ts: TOTP and recovery codes, checked and used once.
// - counting.ts: every factor checked under a slot of its own count.
// - code-lockout.ts: the account's count of wrong codes, its growing locks and its cap.
// - challenges.ts: the challenge between the password and the code, and the sign-in it finishes.
// - set-up.ts: a pending secret, then enabling it with a code.
// - reauthenticate.ts: the password and a code again before disabling, new recovery codes or closing the account.
// - operator.ts: `user 2fa-reset` and REQUIRE_2FA at the start of `serve`.
// - sealing.ts: the sealed secrets as a whole: counted (`check`), re-sealed (`serve`, `db copy`).
import type { Transaction } from 'kysely';
import type { Database } from '../../db/types.js';
import type { PublicUser } from '../accounts/users.js';
import type { AttemptReservation } from '../passwords/lockout.js';
import { challengeAfterPassword, completeSignIn } from './challenges.js';
import { isEnabled, status } from './codes.js';
import { createSessionPasswordCheck } from '../sessions/password-guesses.js';
import type { TwoFactorDeps } from './deps.js';
import { deleteSessionsWithoutTwoFactor, resetByOperator } from './operator.js';
import { disable, reauthenticate, regenerateRecoveryCodes, type CallingSession, type ReauthenticationOptions } from './reauthenticate.js';
import { countSealedSecrets, resealOldSecrets, sealedForCopy } from './sealing.js';
import { enableWithChallenge, enableWithSession, setUpWithChallenge, setUpWithPassword } from './set-up.js';

export { RECOVERY_CODE_COUNT, TOTP_DIGITS, TOTP_PERIOD_SECONDS, TOTP_WINDOW, invalidCode, type TwoFactorStatus } from './codes.js';
export {
  SETUP_CHALLENGE_SECONDS,
  SIGN_IN_CHALLENGE_SECONDS,
  invalidChallenge,
  passwordFingerprint,
  type CompletedSignIn,
  type SignInChallenge,
} from './challenges.js';
export type { TwoFactorDeps, TwoFactorNotices, TwoFactorOptions } from './deps.js';
export type { CallingSession, ReauthenticationOptions } from './reauthenticate.js';
export type { SealedSecretCounts } from './sealing.js';

export function createTwoFactorService(given: Omit<TwoFactorDeps, 'sessionPassword'>) {
  // The one per-session count of wrong passwords: kept in the session's row, so every service shares it.
  const deps: TwoFactorDeps = { ...given, sessionPassword: createSessionPasswordCheck(given) };
  return {
    deleteSessionsWithoutTwoFactor: () => deleteSessionsWithoutTwoFactor(deps),
    isEnabled: (userId: number) => isEnabled(deps, userId),
    status: (userId: number) => status(deps, userId),
    challengeAfterPassword: (account: { id: number; password_hash: string; status: string }, reservation: AttemptReservation) =>
      challengeAfterPassword(deps, account, reservation),
    completeSignIn: (challenge: string, code: string) => completeSignIn(deps, challenge, code),
    setUpWithPassword: (user: PublicUser, password: string, tokenHash: string) => setUpWithPassword(deps, user, password, tokenHash),
    setUpWithChallenge: (challenge: string) => setUpWithChallenge(deps, challenge),
    enableWithSession: (user: PublicUser, code: string, tokenHash: string) => enableWithSession(deps, user, code, tokenHash),
    enableWithChallenge: (challenge: string, code: string) => enableWithChallenge(deps, challenge, code),
    disable: (user: PublicUser, password: string, code: string, tokenHash: string) => disable(deps, user, password, code, tokenHash),
    regenerateRecoveryCodes: (user: PublicUser, password: string, code: string, tokenHash: string) =>
      regenerateRecoveryCodes(deps, user, password, code, tokenHash),
    resetByOperator: (userId: number) => resetByOperator(deps, userId),
    /** The sealed secrets by the key they open under (`timetrack check`). */
    countSealedSecrets: () => countSealedSecrets(deps),
    /** At the start of `serve`: the secrets sealed under the old key, re-sealed under the sealing key. */
    resealOldSecrets: () => resealOldSecrets(deps),
    /** `db copy`: a row's secret under the sealing key; SealedSecretError when it does not open. */
    sealedForCopy: (row: { user_id: number; secret_ciphertext: string }) => sealedForCopy(deps, row),
    /** The password and, when two-factor sign-in is on, a code; then `change` while the calling session still exists. */
    reauthenticate: <T>(
      session: CallingSession,
      password: string,
      code: string | undefined,
      change: (trx: Transaction<Database>) => Promise<T>,
      options?: ReauthenticationOptions,
    ) => reauthenticate(deps, session, password, code, change, options),
  };
}

export type TwoFactorService = ReturnType<typeof createTwoFactorService>;
