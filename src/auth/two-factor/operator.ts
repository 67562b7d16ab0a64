// What operators do to two-factor sign-in: `timetrack user 2fa-reset`, and the start of `serve` with REQUIRE_2FA.
import { removeTwoFactor, revokeOtherSessions, twoFactorRow } from './codes.js';
import type { TwoFactorDeps } from './deps.js';

/** `timetrack user 2fa-reset`: off, recovery codes and challenges gone, every session ended. */
export async function resetByOperator(deps: TwoFactorDeps, userId: number): Promise<{ wasEnabled: boolean; revokedSessions: number }> {
  const { database } = deps;
  return database.transact(async (trx) => {
    await database.lockUser(trx, userId);
    const wasEnabled = (await twoFactorRow(trx, userId))?.enabled_at != null;
    await removeTwoFactor(trx, userId);
    return { wasEnabled, revokedSessions: await revokeOtherSessions(trx, userId, undefined) };
  });
}

/**
 * At the start of `serve` with REQUIRE_2FA: ends the sessions of accounts without two-factor sign-in
 * (made before the setting), so that none of them goes on past what the setting allows.
 */
export async function deleteSessionsWithoutTwoFactor(deps: TwoFactorDeps): Promise<number> {
  const result = await deps.database.db
    .deleteFrom('auth_tokens')
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('two_factor')
            .select('two_factor.user_id')
            .whereRef('two_factor.user_id', '=', 'auth_tokens.user_id')
            .where('two_factor.enabled_at', 'is not', null),
        ),
      ),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
