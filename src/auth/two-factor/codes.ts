// The codes of two-factor sign-in (docs/api.md, "Two-factor sign-in"; docs/security.md, "Two-factor
// sign-in"): TOTP (RFC 6238: SHA-1, 6 digits, 30-second steps, by otpauth) and recovery codes.
//
// - The secret is sealed with a key that is not in the database (src/auth/secret-box.ts).
// - A code is accepted once: the step of the last accepted code is stored, and only a later step is
//   accepted (one step of clock drift either way); the store is a conditional UPDATE in the
//   transaction that signs in, so two parallel uses of one code give one session.
// - Recovery codes: 10 of 80 random bits, shown once, stored as SHA-256, each used once (a
//   conditional UPDATE … WHERE used_at IS NULL).
import { createHash, randomInt } from 'node:crypto';
import type { Kysely, Transaction } from 'kysely';
import { Secret, TOTP } from 'otpauth';
import type { Database } from '../../db/types.js';
import { ServiceError } from '../../common/errors.js';
import { SealedSecretError } from '../secret-box.js';
import type { TwoFactorDeps } from './deps.js';

export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Steps of clock drift accepted either way. */
export const TOTP_WINDOW = 1;
export const RECOVERY_CODE_COUNT = 10;
const ISSUER = 'timetrack';
/** Crockford's base32 alphabet: no i, l, o, u to misread. */
const RECOVERY_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const RECOVERY_CODE_LENGTH = 16;

export interface TwoFactorStatus {
  enabled: boolean;
  /** Set up (a secret made) but not yet confirmed with a code. */
  pending: boolean;
  recovery_codes_remaining: number;
  /** REQUIRE_2FA: the server asks it of every account, so it cannot be turned off. */
  required: boolean;
}

export interface CheckedCode {
  kind: 'totp' | 'recovery';
  /** The TOTP step, or the recovery code's row id. */
  value: number;
}

export function invalidCode(): ServiceError {
  return new ServiceError('INVALID_TWO_FACTOR_CODE', 'The code is wrong, expired or already used');
}

/** Digits and letters only, lower-case, with Crockford's look-alikes folded (o → 0, i and l → 1). */
function normalizeCode(code: string): string {
  return code.replace(/[\s-]/g, '').toLowerCase().replace(/o/g, '0').replace(/[il]/g, '1');
}

/** Written like a recovery code (16 letters and digits once normalised), not like a 6-digit code. */
export function looksLikeRecoveryCode(code: string): boolean {
  return /^[0-9a-z]{16}$/.test(normalizeCode(code));
}

function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < RECOVERY_CODE_LENGTH; i += 1) code += RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)];
  return code.match(/.{4}/g)!.join('-');
}

/**
 * SHA-256 of a normalised recovery code, hex. 80 random bits need no slow or keyed hash (2^80 guesses
 * per code offline), and an unkeyed one keeps the codes working when the server secret changes, which
 * is when they are needed most (the sealed TOTP secrets then no longer open).
 */
function recoveryCodeHash(normalized: string): string {
  return createHash('sha256').update(normalized).digest('hex');
}

export function totpOf(secretBase32: string, label: string): TOTP {
  return new TOTP({ issuer: ISSUER, label, algorithm: 'SHA1', digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS, secret: Secret.fromBase32(secretBase32) });
}

/** The account's two_factor row (a pending or an enabled secret), if any. */
export async function twoFactorRow(executor: Kysely<Database>, userId: number) {
  return executor.selectFrom('two_factor').selectAll().where('user_id', '=', userId).executeTakeFirst();
}

export async function isEnabled(deps: TwoFactorDeps, userId: number): Promise<boolean> {
  return (await twoFactorRow(deps.database.db, userId))?.enabled_at != null;
}

export async function status(deps: TwoFactorDeps, userId: number): Promise<TwoFactorStatus> {
  const current = await twoFactorRow(deps.database.db, userId);
  const { count } = await deps.database.db
    .selectFrom('two_factor_recovery_codes')
    .select((eb) => eb.fn.countAll<number>().as('count'))
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return {
    enabled: current?.enabled_at != null,
    pending: current !== undefined && current.enabled_at === null,
    recovery_codes_remaining: current?.enabled_at != null ? Number(count) : 0,
    required: deps.options.required,
  };
}

/**
 * The server cannot check TOTP codes: a sealed secret opens under none of its keys (SECRET_KEY not
 * carried over to this install, or changed). Not the person's fault: not counted as a failed attempt.
 */
export function serverMisconfigured(): ServiceError {
  return new ServiceError(
    'SERVER_MISCONFIGURED',
    "The server cannot check two-factor codes: its secret key (SECRET_KEY) is not the one the secrets were sealed with; ask the server's operator (a recovery code still signs in)",
  );
}

/** The TOTP step a code of the account's secret stands for, or undefined (wrong or replayed); SERVER_MISCONFIGURED when the secret does not open. */
function totpStep(deps: TwoFactorDeps, userId: number, email: string, sealed: string, lastUsedStep: number | null, normalized: string): number | undefined {
  let secret: string;
  try {
    secret = deps.box.open(sealed, `two-factor:${userId}`);
  } catch (error) {
    if (!(error instanceof SealedSecretError)) throw error;
    // The sealing key is not the one of this secret (docs/operations.md, "Moving to PostgreSQL"): recovery codes still work.
    deps.logger.error(
      { user_id: userId },
      'a two-factor secret does not open with this server\'s keys: set SECRET_KEY to the key it was sealed with (a SQLite install\'s <db>.secret-key file; docs/operations.md, "Moving to PostgreSQL"); until then codes are refused as a server misconfiguration and recovery codes still sign in',
    );
    throw serverMisconfigured();
  }
  const timestamp = deps.clock.now().getTime();
  const delta = totpOf(secret, email).validate({ token: normalized, timestamp, window: TOTP_WINDOW });
  if (delta === null) return undefined;
  const step = Math.floor(timestamp / 1000 / TOTP_PERIOD_SECONDS) + delta;
  return lastUsedStep !== null && step <= lastUsedStep ? undefined : step;
}

/**
 * Checks a code against the account's secret (TOTP, with TOTP_WINDOW steps of drift and never a
 * step at or before the last one used) or, once enabled, its unused recovery codes. Does not store
 * the use: `consume` does that in the caller's transaction. A 6-digit code of a secret that does not
 * open is SERVER_MISCONFIGURED (a recovery code is still checked).
 */
export async function checkCode(deps: TwoFactorDeps, userId: number, email: string, code: string, allowRecovery: boolean): Promise<CheckedCode | undefined> {
  const current = await twoFactorRow(deps.database.db, userId);
  if (!current) return undefined;
  const normalized = normalizeCode(code);
  if (/^\d{6}$/.test(normalized)) {
    const step = totpStep(deps, userId, email, current.secret_ciphertext, current.last_used_step, normalized);
    return step === undefined ? undefined : { kind: 'totp', value: step };
  }
  if (!allowRecovery || current.enabled_at === null || normalized.length !== RECOVERY_CODE_LENGTH) return undefined;
  const found = await deps.database.db
    .selectFrom('two_factor_recovery_codes')
    .select('id')
    .where('user_id', '=', userId)
    .where('code_hash', '=', recoveryCodeHash(normalized))
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return found ? { kind: 'recovery', value: found.id } : undefined;
}

/** Stores the use of a checked code; false when a parallel request used it (or a later step) first. */
export async function consume(deps: TwoFactorDeps, trx: Transaction<Database>, userId: number, checked: CheckedCode): Promise<boolean> {
  const nowIso = deps.clock.now().toISOString();
  if (checked.kind === 'totp') {
    const updated = await trx
      .updateTable('two_factor')
      .set({ last_used_step: checked.value, updated_at: nowIso })
      .where('user_id', '=', userId)
      .where((eb) => eb.or([eb('last_used_step', 'is', null), eb('last_used_step', '<', checked.value)]))
      .returning('user_id')
      .executeTakeFirst();
    return updated !== undefined;
  }
  const used = await trx
    .updateTable('two_factor_recovery_codes')
    .set({ used_at: nowIso })
    .where('id', '=', checked.value)
    .where('user_id', '=', userId)
    .where('used_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
  return used !== undefined;
}

export function newRecoveryCodes(): { codes: string[]; hashes: string[] } {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
  return { codes, hashes: codes.map((code) => recoveryCodeHash(normalizeCode(code))) };
}

export async function replaceRecoveryCodes(deps: TwoFactorDeps, trx: Transaction<Database>, userId: number, hashes: string[]): Promise<void> {
  const nowIso = deps.clock.now().toISOString();
  await trx.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
  await trx
    .insertInto('two_factor_recovery_codes')
    .values(hashes.map((code_hash) => ({ user_id: userId, code_hash, created_at: nowIso, used_at: null })))
    .execute();
}

/** Two-factor sign-in off: the secret, the recovery codes and the pending challenges of the account go. */
export async function removeTwoFactor(trx: Transaction<Database>, userId: number): Promise<void> {
  await trx.deleteFrom('two_factor_recovery_codes').where('user_id', '=', userId).execute();
  await trx.deleteFrom('two_factor').where('user_id', '=', userId).execute();
  await trx.deleteFrom('login_challenges').where('user_id', '=', userId).execute();
  // Turned off by the owner (with a right code) or by `user 2fa-reset`: the run of wrong codes ends too.
  await trx.deleteFrom('two_factor_failures').where('user_id', '=', userId).execute();
}

/** Deletes every session of the account but `keepTokenHash` (all when undefined). */
export async function revokeOtherSessions(trx: Transaction<Database>, userId: number, keepTokenHash: string | undefined): Promise<number> {
  let query = trx.deleteFrom('auth_tokens').where('user_id', '=', userId);
  if (keepTokenHash !== undefined) query = query.where('token_hash', '!=', keepTokenHash);
  return Number((await query.executeTakeFirst()).numDeletedRows);
}
