// Administration → Invitations (docs/web-client.md; docs/teams.md, "Invitations"): invite a person into
// a team (invite-form.tsx), and the pending invitations (e-mail, name, team, role, until when the link
// works) with Resend (a new link; the earlier one stops working) and Withdraw (asked first), audited
// with the signed-in account as the actor. Admins here; a lead the same on the Team page, for its team.
import { useState } from 'preact/hooks';
import type { Routes } from '../../http/routes-table.js';
import { api } from '../api.js';
import { Confirmation } from '../confirmation.js';
import { ConfirmBar } from '../guard.js';
import { language, t } from '../i18n/index.js';
import { tl } from '../i18n/team-layer.js';
import { focusSoon, useLoad } from '../state.js';
import { Notice, useAction } from '../ui.js';
import { AdminNav } from './admin-accounts.js';
import type { TeamRole } from './admin-team-data.js';
import { InviteForm, InviteLink, issuedMessage } from './invite-form.js';

type Invitation = Routes['GET /api/invitations']['response']['invitations'][number];

const dateTime = (iso: string) => new Intl.DateTimeFormat(language.value, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

function InvitationRow(props: { invitation: Invitation; onChanged: () => Promise<void>; onWithdrawn: (message: string) => Promise<void> }) {
  const text = tl().invitations;
  const { invitation } = props;
  const { email } = invitation;
  const [asking, setAsking] = useState(false);
  const [done, setDone] = useState<{ message: string; url?: string }>();
  const act = useAction();
  const row = `#invitation-${invitation.id}`;
  const expired = new Date(invitation.expires_at).getTime() <= Date.now();
  const resend = () =>
    act.run(async () => {
      setDone(undefined);
      const issued = await api('POST /api/invitations/:id/resend', { params: { id: invitation.id }, body: { language: language.value } });
      await props.onChanged();
      setDone(issuedMessage(issued, { mailed: text.resentMailed(email), shown: text.resentShown(email), notSent: text.resentNotSent(email) }));
    });
  const withdraw = () =>
    act.run(async () => {
      await api('DELETE /api/invitations/:id', { params: { id: invitation.id } });
      await props.onWithdrawn(text.withdrawn(email));
    });
  return (
    <li id={`invitation-${invitation.id}`} class="admin-invitation">
      <h4>{email}</h4>
      <p class="facts">
        <span>{invitation.full_name}</span> · <span>{text.invitedAs(invitation.role, invitation.team_name)}</span> ·{' '}
        <span class={expired ? 'expired' : undefined}>{(expired ? text.expired : text.expires)(dateTime(invitation.expires_at))}</span>
      </p>
      <Notice error={act.error} errorRef={act.errorRef} />
      <div class="actions" role="group" aria-label={text.actionsFor(email)}>
        {asking ? (
          <ConfirmBar
            question={text.confirmWithdraw(email)}
            yes={text.yesWithdraw}
            busy={act.busy}
            onYes={() => void withdraw()}
            onKeep={() => (setAsking(false), focusSoon(`${row} .ask-withdraw`))}
          />
        ) : (
          <>
            <button type="button" class="resend" disabled={act.busy} onClick={() => void resend()}>
              {text.resend}
            </button>
            <button type="button" class="ask-withdraw" onClick={() => (setAsking(true), setDone(undefined), focusSoon(`${row} .keep`))}>
              {text.withdraw}
            </button>
          </>
        )}
        <Confirmation text={done?.message} />
      </div>
      {done?.url && <InviteLink key={done.url} url={done.url} />}
    </li>
  );
}

/**
 * The invitation form and the pending invitations below it, with Resend and Withdraw: Administration →
 * Invitations (every team), and the Team page (a lead: the team shown, `teamId`).
 */
export function Invitations(props: { teams: Array<{ id: number; name: string }>; roles: TeamRole[]; hint?: string | undefined; teamId?: number }) {
  const text = tl().invitations;
  const list = useLoad(() => api('GET /api/invitations'), []);
  const [done, setDone] = useState<string>();
  const withdrawn = async (message: string) => {
    setDone(undefined);
    await list.reload();
    setDone(message);
  };
  const invitations = (list.data?.invitations ?? []).filter((invitation) => props.teamId === undefined || invitation.team_id === props.teamId);
  return (
    <div class="invitations">
      <InviteForm teams={props.teams} roles={props.roles} hint={props.hint} onIssued={list.reload} />
      <h3 id="invitations-list-title" tabIndex={-1}>
        {text.pending}
      </h3>
      <Confirmation text={done} />
      <Notice error={list.error} />
      {list.data && invitations.length === 0 && <p>{text.none}</p>}
      <ul class="admin-invitations">
        {invitations.map((invitation) => (
          <InvitationRow key={invitation.id} invitation={invitation} onChanged={list.reload} onWithdrawn={withdrawn} />
        ))}
      </ul>
    </div>
  );
}

export function AdminInvitationsView() {
  const teams = useLoad(() => api('GET /api/teams'), []);
  return (
    <section aria-labelledby="view-title" class="admin">
      <h2 id="view-title" tabIndex={-1}>
        {t().tabs.invitations}
      </h2>
      <AdminNav />
      <Notice error={teams.error} />
      {teams.data && <Invitations teams={teams.data.teams} roles={['member', 'lead']} />}
    </section>
  );
}
