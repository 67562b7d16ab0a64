// One account of Administration → Accounts: who it is and how it stands (role, status, lock, two-factor,
// last sign-in), and what an admin does to it: change its role (granting or removing admin asks for the
// admin's own password), disable or enable it and reset its two-factor sign-in (each asks first, in place
// of its button; Escape or "Keep it" keeps), unlock it, issue a reset link (shown in dev mode, else mailed).
import { useState } from 'preact/hooks';
import type { Routes } from '../../http/routes-table.js';
import { api } from '../api.js';
import { Confirmation } from '../confirmation.js';
import { ConfirmBar } from '../guard.js';
import { language } from '../i18n/index.js';
import { tl } from '../i18n/team-layer.js';
import { focusSoon } from '../state.js';
import { Field, Notice, useAction } from '../ui.js';

type Account = Routes['GET /api/users']['response']['users'][number];
type Role = Account['role'];
type Question = 'disable' | 'enable' | 'two-factor-reset';

const ROLES: Role[] = ['member', 'lead', 'admin'];
const dateTime = (iso: string) => new Intl.DateTimeFormat(language.value, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));

type Teams = Array<{ name: string; role: 'lead' | 'member' }> | undefined;

/** The account's teams ("Kitchen (lead), Bar"), once they are read. */
function TeamsLine(props: { teams: Teams }) {
  const text = tl().admin;
  const { teams } = props;
  if (!teams) return null;
  const names = teams.map((team) => (team.role === 'lead' ? text.teamLed(team.name) : team.name));
  return <p class="teams">{names.length ? text.teamsOf(names.join(', ')) : text.noTeams}</p>;
}

function Facts(props: { user: Account }) {
  const text = tl().admin;
  const { user } = props;
  return (
    <p class="facts">
      <span>{text.roles[user.role]}</span> · <span>{text.status[user.status]}</span>
      {user.locked_until && (
        <>
          {' '}
          · <span>{text.locked}</span>
        </>
      )}{' '}
      · <span>{user.two_factor ? text.twoFactorOn : text.twoFactorOff}</span> ·{' '}
      <span>{user.last_sign_in_at ? text.lastSignIn(dateTime(user.last_sign_in_at)) : text.neverSignedIn}</span>
    </p>
  );
}

/** The role select and, when admin is granted or removed, the admin's own password. */
function RoleForm(props: { user: Account; onChanged: (message: string) => Promise<void> }) {
  const text = tl().admin;
  const { user } = props;
  const [role, setRole] = useState<Role>(user.role);
  const [password, setPassword] = useState('');
  const change = useAction();
  const needsPassword = (role === 'admin') !== (user.role === 'admin');
  const submit = (event: Event) => {
    event.preventDefault();
    void change.run(async () => {
      await api('PATCH /api/users/:id', { params: { id: user.id }, body: needsPassword ? { role, password } : { role } });
      setPassword('');
      await props.onChanged(text.roleChanged(user.full_name, text.roles[role]));
    });
  };
  return (
    <form ref={change.formRef} class="role-form" onSubmit={submit}>
      <Notice error={change.error} errorRef={change.errorRef} />
      <div class="field">
        <label for={`role-${user.id}`}>{text.roleFor(user.full_name)}</label>
        <select id={`role-${user.id}`} name="role" value={role} onChange={(event) => setRole(event.currentTarget.value as Role)}>
          {ROLES.map((name) => (
            <option key={name} value={name}>
              {text.roles[name]}
            </option>
          ))}
        </select>
      </div>
      {needsPassword && (
        <Field
          label={text.yourPassword}
          name="password"
          type="password"
          value={password}
          onInput={setPassword}
          autocomplete="current-password"
          required
          error={change.fieldErrors.password}
        />
      )}
      <button type="submit" class="change-role" disabled={change.busy || role === user.role}>
        {text.changeRole}
      </button>
    </form>
  );
}

type Run = (route: 'disable' | 'enable' | 'unlock' | 'two-factor-reset', message: string) => Promise<boolean>;

/** The question asked before disabling, enabling or resetting two-factor sign-in, and what "yes" does. */
function questionOf(asking: Question, name: string, run: Run) {
  const text = tl().admin;
  return {
    disable: { question: text.confirmDisable(name), yes: text.yesDisable, onYes: () => void run('disable', text.disabled(name)) },
    enable: { question: text.confirmEnable(name), yes: text.yesEnable, onYes: () => void run('enable', text.enabled(name)) },
    'two-factor-reset': {
      question: text.confirmResetTwoFactor(name),
      yes: text.yesReset,
      onYes: () => void run('two-factor-reset', text.twoFactorReset(name)),
    },
  }[asking];
}

/** One account; `self` is the admin's own, which the server will not let the admin disable (403): no Disable there. */
export function AccountRow(props: { user: Account; teams: Teams; self: boolean; onChanged: () => Promise<void> }) {
  const text = tl().admin;
  const { user } = props;
  const name = user.full_name;
  const [asking, setAsking] = useState<Question>();
  const [done, setDone] = useState<string>();
  const [link, setLink] = useState<string>();
  const act = useAction();
  const row = `#account-${user.id}`;

  const finish = async (message: string) => {
    await props.onChanged();
    setDone(message);
  };
  const ask = (question: Question) => (setAsking(question), setDone(undefined), focusSoon(`${row} .keep`));
  const keep = (question: Question) => (setAsking(undefined), focusSoon(`${row} .ask-${question}`));
  const run: Run = (route, message) =>
    act.run(async () => {
      setDone(undefined);
      await api(`POST /api/users/:id/${route}`, { params: { id: user.id } });
      setAsking(undefined);
      await finish(message);
    });
  const issueLink = () =>
    act.run(async () => {
      setDone(undefined);
      const answer = await api('POST /api/users/:id/reset-link', { params: { id: user.id } });
      setLink(answer.reset_url);
      setDone(answer.reset_url ? text.linkShown(name) : text.linkMailed(name));
    });
  const question = asking && questionOf(asking, name, run);
  const statusQuestion: Question = user.status === 'active' ? 'disable' : 'enable';

  return (
    <li id={`account-${user.id}`} class="admin-account">
      <h4>{name}</h4>
      <p class="email">{user.email}</p>
      <Facts user={user} />
      <TeamsLine teams={props.teams} />
      {props.self && <p class="facts">{text.yourself}</p>}
      <RoleForm key={user.role} user={user} onChanged={finish} />
      <Notice error={act.error} errorRef={act.errorRef} />
      <div class="actions" role="group" aria-label={text.actionsFor(name)}>
        {question ? (
          <ConfirmBar question={question.question} yes={question.yes} busy={act.busy} onYes={question.onYes} onKeep={() => keep(asking!)} />
        ) : (
          <>
            {!(props.self && statusQuestion === 'disable') && (
              <button type="button" class={`ask-${statusQuestion}`} onClick={() => ask(statusQuestion)}>
                {user.status === 'active' ? text.disable : text.enable}
              </button>
            )}
            {user.locked_until && (
              <button type="button" disabled={act.busy} onClick={() => void run('unlock', text.unlocked(name))}>
                {text.unlock}
              </button>
            )}
            <button type="button" disabled={act.busy || user.status !== 'active'} onClick={() => void issueLink()}>
              {text.resetLink}
            </button>
            {user.two_factor && (
              <button type="button" class="ask-two-factor-reset" onClick={() => ask('two-factor-reset')}>
                {text.resetTwoFactor}
              </button>
            )}
          </>
        )}
        <Confirmation text={done} />
      </div>
      {link && done && (
        <p>
          <code class="token">{link}</code>
        </p>
      )}
    </li>
  );
}
