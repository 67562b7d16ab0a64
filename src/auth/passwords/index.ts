// Passwords (docs/security.md): hashing (hasher.ts), the policy of a new one (policy.ts), the lockout
// that counts every guess (lockout.ts) and resets by link (resets.ts). Each service takes one
// dependencies object.
export { PasswordHasher, type PasswordAlgorithm } from './hasher.js';
export { createLockoutService, type LockoutDeps, type LockoutService } from './lockout.js';
export { createResetService, type ResetDeps } from './resets.js';
