// The sealed TOTP secrets as a whole (docs/security.md, "Two-factor sign-in"): how many open under
// the sealing key (SECRET_KEY or `<db>.secret-key`), how many only under the key derived from the
// session secret (sealed before SECRET_KEY existed), how many under neither; and the re-seal of the
// old ones, at the start of `serve` and while `db copy` copies them.
import type { Transaction } from 'kysely';
import type { Database } from '../../db/types.js';
import { SealedSecretError } from '../secret-box.js';
import type { TwoFactorDeps } from './deps.js';

export interface SealedSecretCounts {
  /** Rows of two_factor (enabled or pending). */
  total: number;
  /** Sealed under the key derived from the session secret: re-sealed at the next start of `serve`. */
  old: number;
  /** Open under no key of this server: their accounts sign in with a recovery code only. */
  notOpening: number;
}

const associatedDataOf = (userId: number) => `two-factor:${userId}`;

type Executor = Pick<Transaction<Database>, 'selectFrom'>;

async function sealedRows(executor: Executor) {
  return executor.selectFrom('two_factor').select(['user_id', 'secret_ciphertext']).orderBy('user_id').execute();
}

/** Whether a sealed secret opens, and under which key. */
function stateOf(deps: TwoFactorDeps, row: { user_id: number; secret_ciphertext: string }): 'current' | 'old' | 'not-opening' {
  try {
    return deps.box.openDetailed(row.secret_ciphertext, associatedDataOf(row.user_id)).underSealingKey ? 'current' : 'old';
  } catch (error) {
    if (error instanceof SealedSecretError) return 'not-opening';
    throw error;
  }
}

/** `timetrack check`: the sealed secrets by the key they open under (nothing is changed). */
export async function countSealedSecrets(deps: TwoFactorDeps): Promise<SealedSecretCounts> {
  const states = (await sealedRows(deps.database.db)).map((row) => stateOf(deps, row));
  return { total: states.length, old: states.filter((s) => s === 'old').length, notOpening: states.filter((s) => s === 'not-opening').length };
}

/**
 * At the start of `serve`: one pass over two_factor, in one transaction, re-sealing every secret that
 * opens only under the old key under the sealing key. Each update is conditional on the row being
 * unchanged, so processes starting together (PostgreSQL) re-seal a row once.
 */
export async function resealOldSecrets(deps: TwoFactorDeps): Promise<SealedSecretCounts & { resealed: number }> {
  return deps.database.transact(async (trx) => {
    const rows = await sealedRows(trx);
    let resealed = 0;
    let old = 0;
    let notOpening = 0;
    for (const row of rows) {
      const state = stateOf(deps, row);
      if (state === 'not-opening') notOpening += 1;
      if (state !== 'old') continue;
      old += 1;
      const sealed = sealedForCopy(deps, row);
      const updated = await trx
        .updateTable('two_factor')
        .set({ secret_ciphertext: sealed })
        .where('user_id', '=', row.user_id)
        .where('secret_ciphertext', '=', row.secret_ciphertext)
        .returning('user_id')
        .executeTakeFirst();
      if (updated) resealed += 1;
    }
    return { total: rows.length, old, notOpening, resealed };
  });
}

/**
 * The row's secret sealed under the sealing key (re-sealed if it was under the old one);
 * SealedSecretError when it opens under no key. Used by the re-seal above and by `db copy`; the
 * plaintext never leaves this function.
 */
export function sealedForCopy(deps: TwoFactorDeps, row: { user_id: number; secret_ciphertext: string }): string {
  const ad = associatedDataOf(row.user_id);
  const opened = deps.box.openDetailed(row.secret_ciphertext, ad);
  return opened.underSealingKey ? row.secret_ciphertext : deps.box.seal(opened.plaintext, ad);
}
