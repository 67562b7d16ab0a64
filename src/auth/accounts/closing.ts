// Closing one's own account (docs/api.md, "Closing your account"): the owner proves it again (the
// current password, and a code when two-factor sign-in is on, both counted against the lockout like
// a sign-in: src/auth/two-factor/reauthenticate.ts); then in one transaction the account and
// everything that is its own are deleted (every table of an account references users(id) ON DELETE
// CASCADE), the account's earlier audit events keep their actions and client addresses under the
// account's label instead of its e-mail address (src/auth/audit.ts), and the audit trail records that
// account id closed itself, with nothing personal.
import { closedAccountLabel, keepTrailOfClosedAccount, type AuditService } from '../audit.js';
import type { AuthenticatedSession } from '../sessions/index.js';
import type { TwoFactorService } from '../two-factor/index.js';
import type { TransactionalDatabase } from '../../db/database.js';
import { refuseLastAdmin } from './roles.js';

export interface AccountClosingDeps {
  database: Pick<TransactionalDatabase, 'lockUser'>;
  twoFactor: Pick<TwoFactorService, 'reauthenticate'>;
  audit: Pick<AuditService, 'record'>;
}

export function createAccountClosingService({ database, twoFactor, audit }: AccountClosingDeps) {
  async function closeAccount(session: AuthenticatedSession, password: string, code: string | undefined): Promise<void> {
    const { user } = session;
    await twoFactor.reauthenticate(session, password, code, async (trx) => {
      // The last active admin cannot leave (docs/teams.md).
      await refuseLastAdmin(database, trx, user.id);
      await trx.deleteFrom('users').where('id', '=', user.id).execute();
      // The trail keeps what happened, when and from where, under the account's label; the e-mail address goes with the account.
      await keepTrailOfClosedAccount(trx, user.id);
      await audit.record({ action: 'account_closed', actor: `user:${user.id}`, user: { id: user.id, email: closedAccountLabel(user.id) } }, trx);
    });
  }

  return { closeAccount };
}
