// Inviting a person into a team (docs/teams.md, "Invitations"): the form of Administration →
// Invitations (an admin: any team, member or lead) and of the Team page (a lead: the teams it leads, as
// member), and the answer: mailed, not sent (no SMTP), or in dev mode the link with a Copy button.
import { useState } from 'preact/hooks';
import type { Routes } from '../../http/routes-table.js';
import { api, ApiError } from '../api.js';
import { Confirmation } from '../confirmation.js';
import { language } from '../i18n/index.js';
import { tl } from '../i18n/team-layer.js';
import { Field, Notice, useAction, useCopy } from '../ui.js';
import type { TeamRole } from './admin-team-data.js';

type Issued = Routes['POST /api/invitations']['response'];

/** What an invitation's answer says: mailed, not sent, or (dev mode) here is the link. */
export function issuedMessage(issued: Issued, sentences: { mailed: string; shown: string; notSent: string }): { message: string; url?: string } {
  if (issued.invite_url) return { message: sentences.shown, url: issued.invite_url };
  return { message: issued.delivery === 'mail' ? sentences.mailed : sentences.notSent };
}

/** An invitation's link (dev mode only) with Copy link; without a clipboard the link is selected instead. */
export function InviteLink(props: { url: string }) {
  const text = tl().invitations;
  const { value, copied, copy } = useCopy(props.url, text);
  return (
    <div class="invite-link">
      <p>
        <code class="token" ref={value} aria-label={text.link}>
          {props.url}
        </code>
      </p>
      <p class="actions">
        <button type="button" class="copy-link" onClick={() => void copy()}>
          {text.copy}
        </button>
      </p>
      <Notice error={copied && !copied.ok ? copied.message : undefined} info={copied?.ok ? copied.message : undefined} />
    </div>
  );
}

const emailTaken = (failure: unknown) =>
  failure instanceof ApiError && failure.failure.code === 'EMAIL_TAKEN' ? { field: 'email', message: tl().invitations.emailTaken } : undefined;

export function InviteForm(props: {
  teams: Array<{ id: number; name: string }>;
  roles: TeamRole[];
  hint?: string | undefined;
  onIssued?: () => Promise<void>;
}) {
  const text = tl().invitations;
  const [email, setEmail] = useState('');
  const [fullName, setFullName] = useState('');
  const [teamId, setTeamId] = useState<string>('');
  const [role, setRole] = useState<TeamRole>('member');
  const [result, setResult] = useState<{ message: string; url?: string }>();
  const invite = useAction();
  const team = props.teams.find((item) => String(item.id) === teamId) ?? props.teams[0];
  const submit = (event: Event) => {
    event.preventDefault();
    if (!team) return;
    void invite.run(
      async () => {
        setResult(undefined);
        const body = { email: email.trim(), full_name: fullName, team_id: team.id, role, language: language.value };
        const issued = await api('POST /api/invitations', { body });
        setEmail('');
        setFullName('');
        await props.onIssued?.();
        setResult(issuedMessage(issued, { mailed: text.mailed(body.email), shown: text.shown(body.email), notSent: text.notSent(body.email) }));
      },
      { fieldFailure: emailTaken },
    );
  };
  if (props.teams.length === 0) return <p>{text.noTeams}</p>;
  return (
    <form ref={invite.formRef} class="invite-form" onSubmit={submit} aria-labelledby="invite-title">
      <h3 id="invite-title">{text.invite}</h3>
      {props.hint && <p class="hint">{props.hint}</p>}
      <Notice error={invite.error} errorRef={invite.errorRef} />
      <Field label={text.email} name="email" type="email" value={email} onInput={setEmail} autocomplete="off" required error={invite.fieldErrors.email} />
      <Field label={text.fullName} name="full_name" value={fullName} onInput={setFullName} autocomplete="off" required error={invite.fieldErrors.full_name} />
      <div class="field">
        <label for="invite-team">{text.team}</label>
        <select id="invite-team" name="team_id" value={team ? String(team.id) : ''} onChange={(event) => setTeamId(event.currentTarget.value)}>
          {props.teams.map((item) => (
            <option key={item.id} value={String(item.id)}>
              {item.name}
            </option>
          ))}
        </select>
      </div>
      {props.roles.length > 1 && (
        <div class="field">
          <label for="invite-role">{text.role}</label>
          <select id="invite-role" name="role" value={role} onChange={(event) => setRole(event.currentTarget.value as TeamRole)}>
            {props.roles.map((name) => (
              <option key={name} value={name}>
                {tl().teams.roles[name]}
              </option>
            ))}
          </select>
        </div>
      )}
      <p class="actions">
        <button type="submit" class="primary" disabled={invite.busy}>
          {text.send}
        </button>
      </p>
      <Confirmation text={result?.message} />
      {result?.url && <InviteLink key={result.url} url={result.url} />}
    </form>
  );
}
