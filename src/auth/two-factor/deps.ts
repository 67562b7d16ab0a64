// What the two-factor module functions work with: one dependencies object, built once by
// createTwoFactorService (./index.ts) and passed first to every function of this folder.
import type { Logger } from 'pino';
import type { TransactionalDatabase } from '../../db/database.js';
import type { Clock } from '../../common/clock.js';
import type { LockoutService } from '../passwords/lockout.js';
import type { PasswordHasher } from '../passwords/hasher.js';
import type { SecretBox } from '../secret-box.js';
import type { SessionService } from '../sessions/index.js';
import type { SessionPasswordCheck } from '../sessions/password-guesses.js';

export interface TwoFactorOptions {
  /** REQUIRE_2FA: accounts without it sign in only far enough to set it up. */
  required: boolean;
  /** TWO_FACTOR_LOCK: the first lock after wrong codes; each next one lasts twice as long (./code-lockout.ts). */
  firstCodeLockSeconds: number;
}

/** What the owner is told about (by e-mail, off the request path; nothing without SMTP). */
export interface TwoFactorNotices {
  /** The first lock of a run of wrong codes that followed a right password: someone may know the password. */
  codesLocked(user: { id: number; email: string }): void;
}

export interface TwoFactorDeps {
  database: TransactionalDatabase;
  clock: Clock;
  hasher: PasswordHasher;
  lockout: LockoutService;
  sessions: Pick<SessionService, 'signSession' | 'storeSession'>;
  /** Seals the TOTP secrets under the sealing key, SECRET_KEY (src/auth/secret-box.ts). */
  box: SecretBox;
  logger: Pick<Logger, 'error'>;
  options: TwoFactorOptions;
  /** The password a signed-in session gives again, counted against that session (src/auth/sessions/password-guesses.ts; made by createTwoFactorService). */
  sessionPassword: SessionPasswordCheck;
  notices?: TwoFactorNotices;
}
