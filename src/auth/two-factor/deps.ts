// What the two-factor module functions work with: one dependencies object, built once by
// createTwoFactorService (./index.ts) and passed first to every function of this folder.
import type { Logger } from 'pino';
import type { TransactionalDatabase } from '../../db/database.js';
import type { Clock } from '../../common/clock.js';
import type { LockoutService } from '../passwords/lockout.js';
import type { PasswordHasher } from '../passwords/hasher.js';
import type { SecretBox } from '../secret-box.js';
import type { SessionService } from '../sessions/index.js';

export interface TwoFactorOptions {
  /** REQUIRE_2FA: accounts without it sign in only far enough to set it up. */
  required: boolean;
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
}
