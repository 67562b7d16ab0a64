// Settings → API tokens (docs/web-client.md): the account's tokens (name, created, last used, expiry;
// never the token), a new one (name, how long it is valid, the current password and, with two-factor
// sign-in on, a code; the token shown once, with a copy
// button and the sentence that it will not be shown again), revoke after a confirmation. Escape
// closes the confirmation; focus goes to the new token's heading, the row's button, or the list's heading.
import { useEffect, useRef, useState } from 'preact/hooks';
import type { ApiToken, NewApiToken } from '../../http/contract.js';
import { api } from '../api.js';
import { language, t } from '../i18n/index.js';
import { focusSoon, securityVersion, useLoad } from '../state.js';
import { ReauthenticationFields, useReauthentication } from '../password-fields.js';
import { Field, Notice, useAction, useCopy, useEscape } from '../ui.js';

/** How long a new token is valid, in days (the API takes 1 to 365); 90 is preselected. */
const VALIDITY_DAYS = [7, 30, 90, 180, 365];
const DEFAULT_DAYS = 90;

const dateTime = (iso: string) => new Intl.DateTimeFormat(language.value, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
const date = (iso: string) => new Intl.DateTimeFormat(language.value, { dateStyle: 'medium' }).format(new Date(iso));

/** The new token, once: its heading takes focus; Copy puts it on the clipboard (or selects it to copy by hand). */
function NewToken(props: { created: NewApiToken; onDone: () => void }) {
  const text = t().apiTokens;
  const heading = useRef<HTMLHeadingElement>(null);
  const { value, copied, copy } = useCopy(props.created.token, text);
  useEffect(() => heading.current?.focus(), []);
  return (
    <section class="new-token" aria-labelledby="new-token-title">
      <h4 id="new-token-title" tabIndex={-1} ref={heading}>
        {text.newTitle}
      </h4>
      <p>
        <strong>{text.newNote}</strong>
      </p>
      <p>
        <code class="token" ref={value}>
          {props.created.token}
        </code>
      </p>
      <Notice error={copied && !copied.ok ? copied.message : undefined} info={copied?.ok ? copied.message : undefined} />
      <p class="actions">
        <button type="button" class="primary" onClick={() => void copy()}>
          {text.copy}
        </button>
        <button type="button" onClick={props.onDone}>
          {text.done}
        </button>
      </p>
    </section>
  );
}

/** A token of the list: its name and dates; Revoke, or the question before revoking. */
function TokenRow(props: { token: ApiToken; confirming: boolean; busy: boolean; onRevoke: () => void; onKeep: () => void; onAsk: () => void }) {
  const text = t().apiTokens;
  const { token } = props;
  return (
    <li id={`api-token-${token.id}`}>
      <strong>{token.name}</strong>
      <br />
      <small>{text.details(dateTime(token.created_at), token.last_used_at ? dateTime(token.last_used_at) : undefined, date(token.expires_at))}</small>
      <br />
      {props.confirming ? (
        <span class="actions">
          <span>{text.confirmRevoke(token.name)}</span>
          <button type="button" class="danger" disabled={props.busy} onClick={props.onRevoke}>
            {text.yesRevoke}
          </button>
          <button type="button" class="keep" onClick={props.onKeep}>
            {text.keep}
          </button>
        </span>
      ) : (
        <button type="button" class="revoke" aria-label={text.revokeNamed(token.name)} onClick={props.onAsk}>
          {text.revoke}
        </button>
      )}
    </li>
  );
}

/** "Create a token": name, validity, the current password and (with two-factor sign-in on) a code. */
function NewTokenForm(props: { onCreated: (created: NewApiToken) => Promise<void> }) {
  const text = t().apiTokens;
  const twoFactor = useLoad(() => api('GET /api/auth/2fa'), [securityVersion.value]);
  const reauthentication = useReauthentication(twoFactor.data?.enabled === true);
  const [name, setName] = useState('');
  const [days, setDays] = useState(String(DEFAULT_DAYS));
  const create = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    void create.run(async () => {
      const body = { name: name.trim(), expires_in_days: Number(days), ...reauthentication.proof() };
      const answer = await api('POST /api/auth/api-tokens', { body });
      setName('');
      setDays(String(DEFAULT_DAYS));
      reauthentication.clear();
      await props.onCreated(answer);
    });
  };
  return (
    <form ref={create.formRef} onSubmit={submit} class="token-form">
      <Notice error={create.error ?? twoFactor.error} errorRef={create.errorRef} />
      <Field label={text.name} name="name" value={name} onInput={setName} hint={text.nameHint} required error={create.fieldErrors.name} autocomplete="off" />
      <div class={create.fieldErrors.expires_in_days ? 'field invalid' : 'field'}>
        <label for="api-token-days">{text.validFor}</label>
        <select id="api-token-days" name="expires_in_days" value={days} onChange={(event) => setDays(event.currentTarget.value)}>
          {VALIDITY_DAYS.map((n) => (
            <option key={n} value={String(n)}>
              {text.days(n)}
            </option>
          ))}
        </select>
        {create.fieldErrors.expires_in_days && <p class="field-error">{create.fieldErrors.expires_in_days}</p>}
      </div>
      <ReauthenticationFields state={reauthentication} errors={create.fieldErrors} />
      <button type="submit" class="primary" disabled={create.busy || !twoFactor.data}>
        {text.create}
      </button>
    </form>
  );
}

export function ApiTokens() {
  const text = t().apiTokens;
  // Reloaded when a password change or "sign out all other devices" may have revoked tokens.
  const tokens = useLoad(() => api('GET /api/auth/api-tokens'), [securityVersion.value]);
  const [created, setCreated] = useState<NewApiToken>();
  const [confirming, setConfirming] = useState<ApiToken>();
  const revoke = useAction();

  useEscape(confirming !== undefined, () => (setConfirming(undefined), focusSoon(`#api-token-${confirming?.id} .revoke`)));

  const onCreated = async (answer: NewApiToken) => {
    setCreated(answer);
    await tokens.reload();
  };
  const confirmRevoke = (token: ApiToken) =>
    revoke.run(async () => {
      await api('DELETE /api/auth/api-tokens/:id', { params: { id: token.id } });
      setConfirming(undefined);
      if (created?.id === token.id) setCreated(undefined);
      await tokens.reload();
      focusSoon('#api-tokens-title');
      return text.revoked(token.name);
    });

  const list = tokens.data?.api_tokens ?? [];
  return (
    <section aria-labelledby="api-tokens-title" class="account-section">
      <h3 id="api-tokens-title" tabIndex={-1}>
        {text.title}
      </h3>
      <p class="quiet">{text.intro}</p>
      <Notice error={revoke.error ?? tokens.error} info={revoke.info} errorRef={revoke.errorRef} />
      {created && <NewToken created={created} onDone={() => (setCreated(undefined), focusSoon('#api-tokens-title'))} />}
      {tokens.data && list.length === 0 && <p>{text.none}</p>}
      <ul class="api-tokens">
        {list.map((token) => (
          <TokenRow
            key={token.id}
            token={token}
            confirming={confirming?.id === token.id}
            busy={revoke.busy}
            onRevoke={() => void confirmRevoke(token)}
            onKeep={() => (setConfirming(undefined), focusSoon(`#api-token-${token.id} .revoke`))}
            onAsk={() => (setConfirming(token), focusSoon(`#api-token-${token.id} .keep`))}
          />
        ))}
      </ul>
      <h4>{text.createTitle}</h4>
      <NewTokenForm onCreated={onCreated} />
    </section>
  );
}
