// Settings → Security: the account's sessions (device, address, last use), "Sign out" per device,
// "Sign out this device" and "Sign out all other devices" (docs/web-client.md).
import type { OwnSession } from '../../http/contract.js';
import { api } from '../api.js';
import { language, t } from '../i18n/index.js';
import { securityVersion, useLoad } from '../state.js';
import { Notice, useAction } from '../ui.js';
import { signOut } from '../sign-out.js';
import { Confirmation } from '../confirmation.js';

function when(iso: string): string {
  return new Intl.DateTimeFormat(language.value, { dateStyle: 'medium', timeStyle: 'short' }).format(new Date(iso));
}

export function SessionList() {
  const text = t().security;
  const sessions = useLoad(() => api('GET /api/auth/sessions'), [securityVersion.value]);
  const action = useAction();
  const revoke = (session: OwnSession) =>
    action.run(async () => {
      await api('DELETE /api/auth/sessions/:id', { params: { id: session.id } });
      await sessions.reload();
      return text.signedOutDevice(session.device ?? text.unknownDevice);
    });
  const revokeOthers = () =>
    action.run(async () => {
      const { revoked } = await api('POST /api/auth/sessions/revoke-others');
      await sessions.reload();
      return text.signedOutOthers(revoked);
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
        <button type="button" disabled={action.busy} onClick={() => void revokeOthers()}>
          {text.signOutOthers}
        </button>
      )}
    </div>
  );
}
