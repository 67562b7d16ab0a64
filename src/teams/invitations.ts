// Invitations (docs/teams.md, "Invitations"; docs/api.md "Invitations"): an admin invites into any
// team, a team's lead into its team as `member` only. The rule is the one of memberships: `can`
// (access.ts) with `teams.members`, so outside the actor's reach 404, an API token 403
// FORBIDDEN_FOR_API_TOKEN. The link's token is 32 random bytes (base64url), stored only as its SHA-256,
// valid for INVITE_TTL, used once; a new one (resend) voids the old.
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Database, TeamRole } from '../db/types.js';
import { addSeconds } from '../common/clock.js';
import { ServiceError } from '../common/errors.js';
import { normalizeEmail, normalizeFullName } from '../auth/accounts/fields.js';
import { emailTaken } from '../auth/accounts/accounts.js';
import { hashToken } from '../auth/sessions/records.js';
import { can, requireAllowed, type Actor } from './access.js';
import { relationToTeam } from './members.js';
import { teamById, teamNotFound } from './teams.js';
import { acceptInvitation, previewInvitation, type AcceptDeps, type InvitationRow } from './invitation-accept.js';

export type InvitationLanguage = 'en' | 'de';

/** An invitation with its link, as it is mailed (src/mail/invitation-delivery.ts) and shown in dev mode. */
export interface IssuedInvitation {
  id: number;
  email: string;
  fullName: string;
  teamName: string;
  role: TeamRole;
  url: string;
  expiresAt: Date;
  language: InvitationLanguage;
}

/** How a link reaches the invited person: by e-mail (SMTP), on the terminal (dev mode), or not at all. */
export interface InvitationDelivery {
  mode: 'mail' | 'terminal' | 'none';
  deliver(invitation: IssuedInvitation): void;
}

export interface InvitationDeps extends AcceptDeps {
  delivery: InvitationDelivery;
  options: { ttlSeconds: number; publicUrl: string };
}

/** Who acts: the rule's actor, and how the audit trail names it (`user:<id>`, `os:<login>`). */
export interface InvitingActor {
  actor: Actor;
  label: string;
  language?: InvitationLanguage | undefined;
}

export interface NewInvitation {
  email: string;
  full_name: string;
  team_id: number;
  role: TeamRole;
}

export interface PendingInvitation {
  id: number;
  email: string;
  full_name: string;
  team_id: number;
  team_name: string;
  role: TeamRole;
  invited_by: string;
  created_at: string;
  expires_at: string;
}

function invitationNotFound(): ServiceError {
  return new ServiceError('NOT_FOUND', 'No such invitation');
}

async function allowedToInvite(db: Kysely<Database>, actor: Actor, teamId: number, role: TeamRole, notFound: () => ServiceError): Promise<void> {
  requireAllowed(actor, 'teams.members', { kind: 'membership', relation: await relationToTeam(db, actor.userId, teamId), memberRole: role }, notFound);
}

/** A fresh token for the invitation: the link, and the hash that replaces the stored one. */
function newToken(deps: InvitationDeps) {
  const token = randomBytes(32).toString('base64url');
  const now = deps.clock.now();
  return {
    token,
    tokenHash: hashToken(token),
    now,
    expiresAt: addSeconds(now, deps.options.ttlSeconds),
    url: `${deps.options.publicUrl}/accept-invite?token=${encodeURIComponent(token)}`,
  };
}

async function createInvitation(deps: InvitationDeps, by: InvitingActor, input: NewInvitation): Promise<IssuedInvitation> {
  const { db } = deps.database;
  const email = normalizeEmail(input.email);
  const fullName = normalizeFullName(input.full_name);
  await allowedToInvite(db, by.actor, input.team_id, input.role, teamNotFound);
  const team = await teamById(db, input.team_id);
  if (!team) throw teamNotFound();
  if (await db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst()) throw emailTaken();
  const issued = newToken(deps);
  const id = await deps.database.transact(async (trx) => {
    const row = await trx
      .insertInto('invitations')
      .values({
        email,
        full_name: fullName,
        team_id: team.id,
        role: input.role,
        token_hash: issued.tokenHash,
        invited_by: by.label,
        created_at: issued.now.toISOString(),
        expires_at: issued.expiresAt.toISOString(),
        accepted_at: null,
        withdrawn_at: null,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const detail = { invitation_id: row.id, email, team_id: team.id, role: input.role };
    await deps.audit.record({ action: 'invitation_created', actor: by.label, detail }, trx);
    return row.id;
  });
  return deliver(deps, by, { id, email, fullName, teamName: team.name, role: input.role }, issued);
}

/** The invitation with its new link, handed to the delivery (mail, terminal or nothing) and answered. */
function deliver(
  deps: InvitationDeps,
  by: InvitingActor,
  invitation: Pick<IssuedInvitation, 'id' | 'email' | 'fullName' | 'teamName' | 'role'>,
  issued: { url: string; expiresAt: Date },
): IssuedInvitation {
  const sent: IssuedInvitation = { ...invitation, url: issued.url, expiresAt: issued.expiresAt, language: by.language ?? 'en' };
  deps.delivery.deliver(sent);
  return sent;
}

/** The invitation, if it is in the actor's reach (404 otherwise, 403 for what the role may not do). */
async function invitationInReach(deps: InvitationDeps, actor: Actor, id: number): Promise<InvitationRow> {
  const invitation = await deps.database.db.selectFrom('invitations').selectAll().where('id', '=', id).executeTakeFirst();
  if (!invitation) throw invitationNotFound();
  await allowedToInvite(deps.database.db, actor, invitation.team_id, invitation.role, invitationNotFound);
  if (invitation.accepted_at !== null) throw new ServiceError('INVITATION_USED', 'This invitation was already used');
  if (invitation.withdrawn_at !== null) throw new ServiceError('INVITATION_WITHDRAWN', 'This invitation was withdrawn');
  return invitation;
}

/** A new link and a new INVITE_TTL for a pending invitation; the old link stops working. */
async function resendInvitation(deps: InvitationDeps, by: InvitingActor, id: number): Promise<IssuedInvitation> {
  const invitation = await invitationInReach(deps, by.actor, id);
  const issued = newToken(deps);
  await deps.database.transact(async (trx) => {
    const changed = await trx
      .updateTable('invitations')
      .set({ token_hash: issued.tokenHash, expires_at: issued.expiresAt.toISOString() })
      .where('id', '=', id)
      .where('accepted_at', 'is', null)
      .where('withdrawn_at', 'is', null)
      .executeTakeFirst();
    if (Number(changed.numUpdatedRows) === 0) throw new ServiceError('INVITATION_USED', 'This invitation was used or withdrawn meanwhile');
    await deps.audit.record({ action: 'invitation_resent', actor: by.label, detail: { invitation_id: id, email: invitation.email } }, trx);
  });
  const team = await teamById(deps.database.db, invitation.team_id);
  const resent = { id, email: invitation.email, fullName: invitation.full_name, teamName: team?.name ?? '', role: invitation.role };
  return deliver(deps, by, resent, issued);
}

async function withdrawInvitation(deps: InvitationDeps, by: InvitingActor, id: number): Promise<void> {
  const invitation = await invitationInReach(deps, by.actor, id);
  await deps.database.transact(async (trx) => {
    const changed = await trx
      .updateTable('invitations')
      .set({ withdrawn_at: deps.clock.now().toISOString() })
      .where('id', '=', id)
      .where('accepted_at', 'is', null)
      .where('withdrawn_at', 'is', null)
      .executeTakeFirst();
    if (Number(changed.numUpdatedRows) === 0) throw new ServiceError('INVITATION_USED', 'This invitation was used or withdrawn meanwhile');
    await deps.audit.record({ action: 'invitation_withdrawn', actor: by.label, detail: { invitation_id: id, email: invitation.email } }, trx);
  });
}

/** The pending invitations (neither accepted nor withdrawn) the actor may administer, newest first. */
async function listInvitations(deps: InvitationDeps, actor: Actor): Promise<PendingInvitation[]> {
  if (actor.viaApiToken) throw new ServiceError('FORBIDDEN_FOR_API_TOKEN', 'An API token cannot administer accounts or teams; sign in to do this');
  const { db } = deps.database;
  let query = db
    .selectFrom('invitations')
    .innerJoin('teams', 'teams.id', 'invitations.team_id')
    .select(['invitations.id', 'email', 'full_name', 'team_id', 'teams.name as team_name', 'role', 'invited_by', 'invitations.created_at', 'expires_at'])
    .where('accepted_at', 'is', null)
    .where('withdrawn_at', 'is', null)
    .orderBy('invitations.id', 'desc');
  if (actor.role !== 'admin') {
    query = query.where((eb) =>
      eb.exists(
        eb
          .selectFrom('team_members')
          .select('team_members.team_id')
          .whereRef('team_members.team_id', '=', 'invitations.team_id')
          .where('team_members.user_id', '=', actor.userId)
          .where('team_members.role', '=', 'lead'),
      ),
    );
  }
  const rows = await query.execute();
  // What `can` allows of each (a lead: the `member` invitations of the teams it leads, while its role is lead).
  return rows.filter((row) => can(actor, 'teams.members', { kind: 'membership', relation: 'lead', memberRole: row.role }) === 'allow');
}

export function createInvitationService(deps: InvitationDeps) {
  return {
    create: (by: InvitingActor, input: NewInvitation) => createInvitation(deps, by, input),
    list: (actor: Actor) => listInvitations(deps, actor),
    resend: (by: InvitingActor, id: number) => resendInvitation(deps, by, id),
    withdraw: (by: InvitingActor, id: number) => withdrawInvitation(deps, by, id),
    preview: (token: string) => previewInvitation(deps, token),
    accept: (token: string, password: string, fullName: string) => acceptInvitation(deps, token, password, fullName),
    /** How links reach the invited (dev mode: also in the answer). */
    deliveryMode: () => deps.delivery.mode,
  };
}

export type InvitationService = ReturnType<typeof createInvitationService>;
