// Closing one's own account (docs/api.md, "Closing your account"): the current password, and a code
// when two-factor sign-in is on, both counted against the lockout like a sign-in; then in one
// transaction the account and everything that is its own are deleted (every table of an account
// references users(id) ON DELETE CASCADE), the account's earlier audit events lose their e-mail
// address and details, and the audit trail records that account id closed itself, with nothing personal.
import type { TransactionalDatabase } from '../../db/database.js';
import { ServiceError, validationError } from '../../common/errors.js';
import type { createAuditService } from '../audit.js';
import type { AuthenticatedSession } from '../sessions/sessions.js';
import type { createTwoFactorService } from '../two-factor/two-factor.js';

type Audit = Pick<ReturnType<typeof createAuditService>, 'record'>;
type TwoFactor = Pick<ReturnType<typeof createTwoFactorService>, 'isEnabled' | 'checkPasswordCounted' | 'checkCodeCounted' | 'consume'>;

export function createAccountClosingService(database: TransactionalDatabase, twoFactor: TwoFactor, audit: Audit) {
  async function closeAccount(session: AuthenticatedSession, password: string, code: string | undefined): Promise<void> {
    const { user } = session;
    const withSecondFactor = await twoFactor.isEnabled(user.id);
    if (withSecondFactor && code === undefined) throw validationError('code is required: two-factor sign-in is on for this account', 'code');
    await twoFactor.checkPasswordCounted(user.id, password);
    const second = withSecondFactor ? await twoFactor.checkCodeCounted(user.id, user.email, code!, true) : undefined;
    await database.transact(async (trx) => {
      await database.lockUser(trx, user.id);
      // The calling session must still exist (it may have been revoked meanwhile).
      if (!(await trx.selectFrom('auth_tokens').select('id').where('token_hash', '=', session.tokenHash).executeTakeFirst())) {
        throw new ServiceError('UNAUTHORIZED', 'Authentication required: a valid session token is missing');
      }
      if (second && !(await twoFactor.consume(trx, user.id, second.checked))) {
        throw new ServiceError('INVALID_TWO_FACTOR_CODE', 'The code is wrong, expired or already used');
      }
      await trx.deleteFrom('users').where('id', '=', user.id).execute();
      // The trail keeps what happened and when, by account id; the address and details go with the account.
      await trx.updateTable('audit_events').set({ user_email: null, detail: '{}' }).where('user_id', '=', user.id).execute();
      await audit.record({ action: 'account_closed', actor: `user:${user.id}`, userId: user.id }, trx);
    });
  }

  return { closeAccount };
}
