// One team opened in Administration → Teams (docs/web-client.md): its leads and members, an account
// added from the accounts list (GET /api/users, searched and paged on the server) as member or lead,
// a member made lead or a lead member (PUT /api/teams/:id/members/:userId), and one taken out (asked
// first; the account stays). Every result is said in the panel's status line, focused.
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { Confirmation } from '../confirmation.js';
import { ConfirmBar } from '../guard.js';
import { tl } from '../i18n/team-layer.js';
import { focusSoon, useLoad } from '../state.js';
import { Field, Notice, useAction } from '../ui.js';
import type { TeamDetail, TeamMember, TeamRole } from './admin-team-data.js';

const ROLES: TeamRole[] = ['member', 'lead'];
const CHOICES = 20;

/** Search the accounts, pick one that is not in the team yet, give it a role, add it. */
function AddMember(props: { detail: TeamDetail; onAdded: (message: string) => Promise<void> }) {
  const text = tl().teams;
  const { team, members } = props.detail;
  const [typed, setTyped] = useState('');
  const [query, setQuery] = useState('');
  const [picked, setPicked] = useState('');
  const [role, setRole] = useState<TeamRole>('member');
  const add = useAction();
  const found = useLoad(() => api('GET /api/users', { query: { q: query || undefined, limit: CHOICES } }), [query]);
  const inTeam = new Set(members.map((member) => member.user.id));
  const choices = (found.data?.users ?? []).filter((user) => !inTeam.has(user.id));
  const chosen = choices.find((user) => String(user.id) === picked) ?? choices[0];
  const search = (event: Event) => {
    event.preventDefault();
    setPicked('');
    setQuery(typed.trim());
  };
  const submit = (event: Event) => {
    event.preventDefault();
    if (!chosen) return;
    void add.run(async () => {
      await api('PUT /api/teams/:id/members/:userId', { params: { id: team.id, userId: chosen.id }, body: { role } });
      setPicked('');
      await props.onAdded(text.added(chosen.full_name, team.name, role));
    });
  };
  return (
    <div class="add-member">
      <form role="search" class="admin-search" onSubmit={search}>
        <Field label={text.find} type="search" name="q" value={typed} onInput={setTyped} autocomplete="off" />
        <button type="submit">{text.findButton}</button>
      </form>
      <Notice error={found.error} />
      {found.data && choices.length === 0 ? (
        <p>{text.noMatch}</p>
      ) : (
        <form ref={add.formRef} class="member-form" onSubmit={submit}>
          <Notice error={add.error} errorRef={add.errorRef} />
          <div class="field">
            <label for={`add-account-${team.id}`}>{text.account}</label>
            <select
              id={`add-account-${team.id}`}
              name="account"
              value={chosen ? String(chosen.id) : ''}
              onChange={(event) => setPicked(event.currentTarget.value)}
            >
              {choices.map((user) => (
                <option key={user.id} value={String(user.id)}>
                  {user.full_name} ({user.email})
                </option>
              ))}
            </select>
          </div>
          <div class="field">
            <label for={`add-role-${team.id}`}>{text.role}</label>
            <select id={`add-role-${team.id}`} name="role" value={role} onChange={(event) => setRole(event.currentTarget.value as TeamRole)}>
              {ROLES.map((name) => (
                <option key={name} value={name}>
                  {text.roles[name]}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" class="primary" disabled={add.busy || !chosen}>
            {text.add}
          </button>
        </form>
      )}
    </div>
  );
}

function MemberRow(props: { team: TeamDetail['team']; member: TeamMember; onChanged: (message: string) => Promise<void> }) {
  const text = tl().teams;
  const { team, member } = props;
  const { user } = member;
  const [asking, setAsking] = useState(false);
  const act = useAction();
  const row = `#member-${team.id}-${user.id}`;
  const other: TeamRole = member.role === 'lead' ? 'member' : 'lead';
  const changeRole = () =>
    act.run(async () => {
      await api('PUT /api/teams/:id/members/:userId', { params: { id: team.id, userId: user.id }, body: { role: other } });
      await props.onChanged(text.added(user.full_name, team.name, other));
    });
  const remove = () =>
    act.run(async () => {
      await api('DELETE /api/teams/:id/members/:userId', { params: { id: team.id, userId: user.id } });
      await props.onChanged(text.removed(user.full_name, team.name));
    });
  return (
    <li id={`member-${team.id}-${user.id}`} class="team-member">
      <strong>{user.full_name}</strong> <span class="email">{user.email}</span> · <span class="member-role">{text.roles[member.role]}</span>
      <Notice error={act.error} errorRef={act.errorRef} />
      <div class="actions" role="group" aria-label={text.memberActions(user.full_name)}>
        {asking ? (
          <ConfirmBar
            question={text.confirmRemove(user.full_name, team.name)}
            yes={text.yesRemove}
            busy={act.busy}
            onYes={() => void remove()}
            onKeep={() => (setAsking(false), focusSoon(`${row} .ask-remove`))}
          />
        ) : (
          <>
            <button type="button" class="change-team-role" disabled={act.busy} onClick={() => void changeRole()}>
              {other === 'lead' ? text.makeLead : text.makeMember}
            </button>
            <button type="button" class="ask-remove" onClick={() => (setAsking(true), focusSoon(`${row} .keep`))}>
              {text.remove}
            </button>
          </>
        )}
      </div>
    </li>
  );
}

export function TeamMembers(props: { detail: TeamDetail; onChanged: () => Promise<void>; onClose: () => void }) {
  const text = tl().teams;
  const { team, members } = props.detail;
  const [done, setDone] = useState<string>();
  const changed = async (message: string) => {
    setDone(undefined);
    await props.onChanged();
    setDone(message);
  };
  return (
    <section class="team-members" aria-labelledby="team-members-title">
      <h3 id="team-members-title" tabIndex={-1}>
        {text.membersOf(team.name)}
      </h3>
      <AddMember detail={props.detail} onAdded={changed} />
      <Confirmation text={done} />
      {members.length === 0 && <p>{text.noMembers}</p>}
      <ul class="team-member-list">
        {members.map((member) => (
          <MemberRow key={member.user.id} team={team} member={member} onChanged={changed} />
        ))}
      </ul>
      <button type="button" onClick={props.onClose}>
        {text.close}
      </button>
    </section>
  );
}
