// Settings → Close account (docs/web-client.md): says what goes, offers the account export first (the
// JSON document of GET /api/settings/export), then asks the password, a code when two-factor sign-in is
// on, and a tick that this is meant. Closed, the tab signs out and the sign-in page says the account is
// closed (other tabs follow the sign-out).
import { useState } from 'preact/hooks';
import { api, downloadAccountData, endSession } from '../api.js';
import { t } from '../i18n/index.js';
import { focusSoon, useLoad } from '../state.js';
import { ReauthenticationFields, useReauthentication } from '../password-fields.js';
import { Notice, useAction, useDownload } from '../ui.js';

/** The tick that closing the account is meant; its sentence beside it when missing. */
function UnderstoodCheck(props: { checked: boolean; onChange: (checked: boolean) => void; error: string | undefined }) {
  const text = t().closeAccount;
  return (
    <div class={props.error ? 'field check invalid' : 'field check'}>
      <input
        id="close-account-understood"
        name="understood"
        type="checkbox"
        checked={props.checked}
        aria-invalid={props.error ? 'true' : undefined}
        aria-describedby={props.error ? 'close-account-understood-error' : undefined}
        onChange={(event) => props.onChange(event.currentTarget.checked)}
      />
      <label for="close-account-understood">{text.understand}</label>
      {props.error && (
        <p class="field-error" id="close-account-understood-error">
          {props.error}
        </p>
      )}
    </div>
  );
}

function CloseAccountForm(props: { onCancel: () => void }) {
  const text = t().closeAccount;
  const twoFactor = useLoad(() => api('GET /api/auth/2fa'), []);
  const reauthentication = useReauthentication(twoFactor.data?.enabled === true);
  const [understood, setUnderstood] = useState(false);
  const download = useDownload();
  const action = useAction();

  const submit = (event: Event) => {
    event.preventDefault();
    if (!understood) return action.fail(text.mustConfirm, 'understood');
    void action.run(async () => {
      await api('DELETE /api/auth/account', { body: reauthentication.proof() });
      // Signed out here (and so in every tab); the sign-in page says why.
      endSession(text.closed);
      focusSoon('main h1');
    });
  };
  return (
    <div class="step">
      <h4 tabIndex={-1} id="close-account-step">
        {text.stepExport}
      </h4>
      <p>{text.exportFirst}</p>
      <Notice error={download.error} info={download.file ? text.downloaded(download.file.name) : undefined} />
      <p class="actions">
        <button type="button" onClick={() => void download.fetchAndSave(downloadAccountData)}>
          {text.downloadData}
        </button>
        {download.file && (
          <a href={download.file.url} download={download.file.name}>
            {t().settings.saveAgain(download.file.name)}
          </a>
        )}
      </p>
      <h4>{text.stepClose}</h4>
      <Notice error={action.error ?? twoFactor.error} errorRef={action.errorRef} />
      <form ref={action.formRef} onSubmit={submit}>
        <ReauthenticationFields state={reauthentication} errors={action.fieldErrors} />
        <UnderstoodCheck checked={understood} onChange={setUnderstood} error={action.fieldErrors.understood} />
        <p class="actions">
          <button type="submit" class="danger" disabled={action.busy || !twoFactor.data}>
            {text.confirm}
          </button>
          <button type="button" onClick={props.onCancel}>
            {t().twoFactor.cancel}
          </button>
        </p>
      </form>
    </div>
  );
}

export function CloseAccount() {
  const text = t().closeAccount;
  const [open, setOpen] = useState(false);
  return (
    <section aria-labelledby="close-account-title" class="account-section">
      <h3 id="close-account-title" tabIndex={-1}>
        {text.title}
      </h3>
      <p>{text.intro}</p>
      {open ? (
        <CloseAccountForm onCancel={() => (setOpen(false), focusSoon('#close-account-title'))} />
      ) : (
        <button type="button" class="danger" onClick={() => (setOpen(true), focusSoon('#close-account-step'))}>
          {text.start}
        </button>
      )}
    </section>
  );
}
