// Settings → Security: the account's sessions (device, address, last use), "Sign out" per device,
// "Sign out this device" and "Sign out all other devices", with "Also revoke my API tokens" ticked
// unless the owner unticks it (docs/web-client.md).
import { useState } from 'preact/hooks';
import type { OwnSession } from '../../http/contract.js';
import { api } from '../api.js';
import { language, t } from '../i18n/index.js';
import { securityChanged, securityVersion, useLoad } from '../state.js';
import { Notice, useAction } from '../ui.js';
import { signOut } from '../sign-out.js';
import { Confirmation } from '../confirmation.js';

function when(iso: string): string {
  return new Intl.DateTimeFormat(language.value, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

/** "Also revoke my API tokens", ticked by default: beside "Sign out all other devices" and the password change. */
export function RevokeApiTokensCheck(props: { id: string; checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <div class="field check">
      <input id={props.id} name="revoke_api_tokens" type="checkbox" checked={props.checked} onChange={(event) => props.onChange(event.currentTarget.checked)} />
      <label for={props.id}>{t().security.alsoRevokeApiTokens}</label>
    </div>
  );
}

export function SessionList() {
  const text = t().security;
  const sessions = useLoad(() => api('GET /api/auth/sessions'), [securityVersion.value]);
  const [revokeApiTokens, setRevokeApiTokens] = useState(true);
  const action = useAction();
  const revoke = (session: OwnSession) =>
    action.run(async () => {
      await api('DELETE /api/auth/sessions/:id', { params: { id: session.id } });
      await sessions.reload();
      return text.signedOutDevice(session.device ?? text.unknownDevice);
    });
  const revokeOthers = () =>
    action.run(async () => {
      const answer = await api('POST /api/auth/sessions/revoke-others', { body: { revoke_api_tokens: revokeApiTokens } });
      // This list first, and its sentence only once it shows the one device left (as `revoke` above);
      // then the other lists keyed by the change (the API tokens) load again.
      await sessions.reload();
      securityChanged();
      return answer.revoked_api_tokens > 0
        ? `${text.signedOutOthers(answer.revoked)} ${text.revokedApiTokens(answer.revoked_api_tokens)}`
        : text.signedOutOthers(answer.revoked);
    });
  const list = sessions.data?.sessions ?? [];
  return (
    <div>
      <Notice error={action.error ?? sessions.error} errorRef={action.errorRef} />
      <ul class="sessions">
        {list.map((session) => (
          <li key={session.id}>
            <strong>{session.device ?? text.unknownDevice}</strong>
            {session.current && (
              <>
                {' '}
                · <em>{text.thisDevice}</em>
              </>
            )}
            <br />
            <small>{text.details(session.address ?? '-', when(session.last_seen_at), when(session.created_at))}</small>
            <br />
            {session.current ? (
              <button type="button" onClick={() => void signOut()}>
                {text.signOutThisDevice}
              </button>
            ) : (
              <button
                type="button"
                disabled={action.busy}
                aria-label={text.signOutNamed(session.device ?? text.unknownDevice, when(session.last_seen_at))}
                onClick={() => void revoke(session)}
              >
                {text.signOut}
              </button>
            )}
          </li>
        ))}
      </ul>
      <Confirmation id="sessions-confirmation" text={action.info} />
      {list.length > 1 && (
        <>
          <RevokeApiTokensCheck id="sessions-revoke-api-tokens" checked={revokeApiTokens} onChange={setRevokeApiTokens} />
          <button type="button" disabled={action.busy} onClick={() => void revokeOthers()}>
            {text.signOutOthers}
          </button>
        </>
      )}
    </div>
  );
}
