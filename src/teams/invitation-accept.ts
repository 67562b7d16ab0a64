// Accepting an invitation (docs/teams.md, "Invitations"): the registration checks of auth/ (address,
// name, password policy), then in one transaction the invitation is claimed (an UPDATE ... WHERE
// accepted_at IS NULL: of two accepts of one token, even in two processes, exactly one claims it),
// the account is made, and it joins the team with the invited role.
import type { Kysely, Selectable } from 'kysely';
import type { TransactionalDatabase } from '../db/database.js';
import type { Database } from '../db/types.js';
import type { InvitationsTable } from '../db/types-teams.js';
import type { Clock } from '../common/clock.js';
import { ServiceError } from '../common/errors.js';
import { insertAccountIn, rethrowTaken } from '../auth/accounts/accounts.js';
import { normalizeFullName } from '../auth/accounts/fields.js';
import type { PublicUser } from '../auth/accounts/users.js';
import type { AuditEvent } from '../auth/audit.js';
import type { PasswordHasher } from '../auth/passwords/hasher.js';
import { checkNewPassword } from '../auth/passwords/policy.js';
import { hashToken } from '../auth/sessions/records.js';

export type InvitationRow = Selectable<InvitationsTable>;

export interface AcceptDeps {
  database: TransactionalDatabase;
  clock: Clock;
  hasher: PasswordHasher;
  audit: { record(event: AuditEvent, executor?: Kysely<Database>): Promise<void> };
}

/** Why a token cannot be used, each with its own code and sentence; undefined when it can. */
export function refusalOf(invitation: InvitationRow | undefined, now: Date): ServiceError | undefined {
  if (!invitation) return new ServiceError('INVALID_INVITATION', 'This invitation link is not valid');
  if (invitation.accepted_at !== null) return new ServiceError('INVITATION_USED', 'This invitation was already used; sign in with its account');
  if (invitation.withdrawn_at !== null) return new ServiceError('INVITATION_WITHDRAWN', 'This invitation was withdrawn');
  if (new Date(invitation.expires_at).getTime() <= now.getTime()) {
    return new ServiceError('INVITATION_EXPIRED', 'This invitation has expired; ask for it to be sent again');
  }
  return undefined;
}

async function invitationByToken(db: Kysely<Database>, token: string): Promise<InvitationRow | undefined> {
  return db.selectFrom('invitations').selectAll().where('token_hash', '=', hashToken(token)).executeTakeFirst();
}

/** What the page shows before the password is chosen: whom the link invites, into which team; or its refusal. */
export async function previewInvitation(deps: Pick<AcceptDeps, 'database' | 'clock'>, token: string) {
  const { db } = deps.database;
  const invitation = await invitationByToken(db, token);
  const refusal = refusalOf(invitation, deps.clock.now());
  if (refusal) throw refusal;
  const team = await db.selectFrom('teams').select('name').where('id', '=', invitation!.team_id).executeTakeFirstOrThrow();
  return { email: invitation!.email, full_name: invitation!.full_name, team_name: team.name, role: invitation!.role };
}

/** Creates the account of the invitation and puts it into the team; single use. */
export async function acceptInvitation(deps: AcceptDeps, token: string, password: string, rawFullName: string): Promise<PublicUser> {
  const { database, clock, hasher, audit } = deps;
  const fullName = normalizeFullName(rawFullName);
  // A cheap look first, so that an unusable token costs no argon2 work.
  const refusal = refusalOf(await invitationByToken(database.db, token), clock.now());
  if (refusal) throw refusal;
  await checkNewPassword(password);
  // Outside the transaction, which must never wait for argon2.
  const passwordHash = await hasher.hash(password);
  const tokenHash = hashToken(token);
  return rethrowTaken(
    database.transact(async (trx) => {
      const now = clock.now();
      const claimed = await trx
        .updateTable('invitations')
        .set({ accepted_at: now.toISOString() })
        .where('token_hash', '=', tokenHash)
        .where('accepted_at', 'is', null)
        .where('withdrawn_at', 'is', null)
        .where('expires_at', '>', now.toISOString())
        .returningAll()
        .executeTakeFirst();
      if (!claimed) throw refusalOf(await trx.selectFrom('invitations').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst(), now)!;
      const user = await insertAccountIn(trx, { email: claimed.email, full_name: fullName, username: null }, passwordHash, now.toISOString());
      // A team's lead acts as one only while the account's role is lead (docs/teams.md).
      if (claimed.role === 'lead') await trx.updateTable('users').set({ role: 'lead' }).where('id', '=', user.id).execute();
      await trx.insertInto('team_members').values({ team_id: claimed.team_id, user_id: user.id, role: claimed.role }).execute();
      await audit.record(
        {
          action: 'invitation_accepted',
          actor: `user:${user.id}`,
          user: { id: user.id, email: user.email },
          detail: { invitation_id: claimed.id, team_id: claimed.team_id, role: claimed.role, invited_by: claimed.invited_by },
        },
        trx,
      );
      return user;
    }),
  );
}
