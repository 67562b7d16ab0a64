// Administration → Teams (docs/web-client.md; docs/teams.md): every team with its leads and how many
// are in it; create one, rename it, delete it (asked first, naming the team and its members, whose
// accounts stay), and open it to manage its members and leads (admin-team-members.tsx). Each action is
// the route of its `timetrack team` command, audited with the admin as the actor. Admins only.
import { useEffect, useState } from 'preact/hooks';
import { api, ApiError } from '../api.js';
import { Confirmation } from '../confirmation.js';
import { ConfirmBar } from '../guard.js';
import { t } from '../i18n/index.js';
import { tl } from '../i18n/team-layer.js';
import { focusSoon, ledTeams, useLoad } from '../state.js';
import { Field, Notice, useAction, useEscape } from '../ui.js';
import { AdminNav } from './admin-accounts.js';
import { TeamMembers } from './admin-team-members.js';
import { loadTeamDetails, type TeamDetail } from './admin-team-data.js';

/** A taken name belongs to the name field: said beside it, in words that name it. */
export const nameTaken = (failure: unknown) =>
  failure instanceof ApiError && failure.failure.code === 'TEAM_NAME_TAKEN' ? { field: 'name', message: tl().teams.nameTaken } : undefined;

function CreateTeam(props: { onCreated: (message: string) => Promise<void> }) {
  const text = tl().teams;
  const [name, setName] = useState('');
  const create = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    void create.run(
      async () => {
        const { team } = await api('POST /api/teams', { body: { name } });
        setName('');
        await props.onCreated(text.created(team.name));
      },
      { fieldFailure: nameTaken },
    );
  };
  return (
    <form ref={create.formRef} class="team-create" onSubmit={submit} aria-labelledby="team-create-title">
      <h3 id="team-create-title">{text.create}</h3>
      <Notice error={create.error} errorRef={create.errorRef} />
      <Field label={text.name} name="name" value={name} onInput={setName} autocomplete="off" required error={create.fieldErrors.name} />
      <button type="submit" class="primary" disabled={create.busy}>
        {text.createButton}
      </button>
    </form>
  );
}

function RenameForm(props: { detail: TeamDetail; onDone: (message: string | undefined) => Promise<void> }) {
  const text = tl().teams;
  const { team } = props.detail;
  const [name, setName] = useState(team.name);
  const rename = useAction();
  useEscape(true, () => void props.onDone(undefined));
  const submit = (event: Event) => {
    event.preventDefault();
    void rename.run(
      async () => {
        const answer = await api('PATCH /api/teams/:id', { params: { id: team.id }, body: { name } });
        await props.onDone(text.renamed(team.name, answer.team.name));
      },
      { fieldFailure: nameTaken },
    );
  };
  return (
    <form ref={rename.formRef} class="team-rename" onSubmit={submit}>
      <Notice error={rename.error} errorRef={rename.errorRef} />
      <Field label={text.newName(team.name)} name="name" value={name} onInput={setName} autocomplete="off" required error={rename.fieldErrors.name} />
      <p class="actions">
        <button type="submit" class="primary" disabled={rename.busy}>
          {text.saveName}
        </button>
        <button type="button" onClick={() => void props.onDone(undefined)}>
          {text.cancel}
        </button>
      </p>
    </form>
  );
}

function TeamRow(props: { detail: TeamDetail; open: boolean; onOpen: () => void; onChanged: (message: string) => Promise<void> }) {
  const text = tl().teams;
  const { team, members } = props.detail;
  const [mode, setMode] = useState<'rename' | 'delete'>();
  const remove = useAction();
  const row = `#team-${team.id}`;
  const leads = members.filter((member) => member.role === 'lead').map((member) => member.user.full_name);
  const back = (selector: string) => (setMode(undefined), focusSoon(`${row} ${selector}`));
  const renamed = async (message: string | undefined) => {
    if (message === undefined) return back('.ask-rename');
    setMode(undefined);
    await props.onChanged(message);
  };
  const confirmDelete = () =>
    remove.run(async () => {
      await api('DELETE /api/teams/:id', { params: { id: team.id } });
      await props.onChanged(text.deleted(team.name));
    });
  return (
    <li id={`team-${team.id}`} class="admin-team">
      <h4>{team.name}</h4>
      <p class="facts">
        <span>{leads.length ? text.leads(leads.join(', ')) : text.noLead}</span> · <span>{text.memberCount(members.length)}</span>
      </p>
      <Notice error={remove.error} errorRef={remove.errorRef} />
      {mode === 'rename' && <RenameForm detail={props.detail} onDone={renamed} />}
      <div class="actions" role="group" aria-label={text.actionsFor(team.name)}>
        {mode === 'delete' ? (
          <ConfirmBar
            question={text.confirmDelete(team.name, members.length)}
            yes={text.yesDelete}
            busy={remove.busy}
            onYes={() => void confirmDelete()}
            onKeep={() => back('.ask-delete')}
          />
        ) : (
          <>
            <button type="button" class="open-team" aria-expanded={props.open} onClick={props.onOpen}>
              {text.members}
            </button>
            <button type="button" class="ask-rename" onClick={() => (setMode('rename'), focusSoon(`${row} .team-rename input`))}>
              {text.rename}
            </button>
            <button type="button" class="ask-delete" onClick={() => (setMode('delete'), focusSoon(`${row} .keep`))}>
              {text.delete}
            </button>
          </>
        )}
      </div>
    </li>
  );
}

export function AdminTeamsView() {
  const text = tl().teams;
  const list = useLoad(loadTeamDetails, []);
  const [openId, setOpenId] = useState<number>();
  const [done, setDone] = useState<string>();
  // An admin's Team section lists every team: it follows what is created, renamed and deleted here.
  useEffect(() => {
    if (list.data) ledTeams.value = list.data.map((detail) => ({ id: detail.team.id, name: detail.team.name }));
  }, [list.data]);
  const changed = async (message: string) => {
    setDone(undefined);
    await list.reload();
    setDone(message);
  };
  const teams = list.data ?? [];
  const open = teams.find((detail) => detail.team.id === openId);
  return (
    <section aria-labelledby="view-title" class="admin">
      <h2 id="view-title" tabIndex={-1}>
        {t().tabs.teams}
      </h2>
      <AdminNav />
      <CreateTeam onCreated={changed} />
      <h3 id="teams-list-title" tabIndex={-1}>
        {text.list}
      </h3>
      <Confirmation text={done} />
      <Notice error={list.error} />
      {list.data && teams.length === 0 && <p>{text.none}</p>}
      <ul class="admin-teams">
        {teams.map((detail) => (
          <TeamRow
            key={detail.team.id}
            detail={detail}
            open={detail.team.id === openId}
            onOpen={() => {
              setOpenId(detail.team.id === openId ? undefined : detail.team.id);
              focusSoon('#team-members-title');
            }}
            onChanged={changed}
          />
        ))}
      </ul>
      {open && (
        <TeamMembers
          key={open.team.id}
          detail={open}
          onChanged={list.reload}
          onClose={() => {
            setOpenId(undefined);
            focusSoon(`#team-${open.team.id} .open-team`);
          }}
        />
      )}
    </section>
  );
}
