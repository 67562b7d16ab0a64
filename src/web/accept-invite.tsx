// The page of an invitation's link, /accept-invite?token=… (docs/web-client.md, docs/teams.md): it says
// who is invited into which team, asks the name and a password twice, and signs the new account in.
// The token is read once from the address and then removed from it (as the reset page does), kept in
// this tab's session storage until it is used; an expired, used or withdrawn link shows its sentence.
import { useEffect, useState } from 'preact/hooks';
import type { Routes } from '../http/routes-table.js';
import { api } from './api.js';
import { t } from './i18n/index.js';
import { NewPasswordFields, useNewPassword } from './password-fields.js';
import { navigate } from './router.js';
import { signedIn } from './sign-in.js';
import { AuthFrame, Field, Notice, useAction } from './ui.js';

const INVITE_TOKEN_KEY = 'timetrack.invite-token';

function takeInviteToken(): string {
  const fromAddress = new URLSearchParams(location.search).get('token');
  if (fromAddress) sessionStorage.setItem(INVITE_TOKEN_KEY, fromAddress);
  if (location.search) history.replaceState(null, '', '/accept-invite');
  return fromAddress ?? sessionStorage.getItem(INVITE_TOKEN_KEY) ?? '';
}

type Preview = Routes['POST /api/invitations/preview']['response'];

export function AcceptInvitePage() {
  const [token] = useState(takeInviteToken);
  const [preview, setPreview] = useState<Preview | undefined>();
  const [fullName, setFullName] = useState('');
  const newPassword = useNewPassword();
  const look = useAction();
  const action = useAction();
  const text = t().invite;

  useEffect(() => {
    if (!token) return;
    void look.run(async () => {
      const found = await api('POST /api/invitations/preview', { body: { token } });
      setPreview(found);
      setFullName(found.full_name);
    });
    // Once per page: the token does not change.
  }, [token]);

  const submit = (event: Event) => {
    event.preventDefault();
    if (!newPassword.matches()) return action.fail(t().auth.notSame, 'repeat');
    void action.run(async () => {
      // The account starts in this browser's zone, as a registration does.
      const timezone = Intl.DateTimeFormat().resolvedOptions().timeZone;
      const answer = await api('POST /api/invitations/accept', { body: { token, password: newPassword.password, full_name: fullName.trim(), timezone } });
      sessionStorage.removeItem(INVITE_TOKEN_KEY);
      if ('token' in answer) signedIn(answer.token, answer.user);
      // REQUIRE_2FA: the account exists; the sign-in page sets up the second factor.
      else navigate('/login', { replace: true, message: text.signInToFinish });
    });
  };

  if (!token)
    return (
      <AuthFrame title={text.title}>
        <Notice error={text.needsLink} />
      </AuthFrame>
    );
  if (!preview)
    return (
      <AuthFrame title={text.title}>
        <Notice error={look.error} errorRef={look.errorRef} info={look.error ? undefined : text.checking} />
      </AuthFrame>
    );
  return (
    <AuthFrame title={text.title}>
      <p>{text.invited(preview.email, preview.team_name, preview.role)}</p>
      <Notice error={action.error} errorRef={action.errorRef} />
      <form ref={action.formRef} onSubmit={submit}>
        <Field
          label={t().auth.fullName}
          name="full_name"
          error={action.fieldErrors.full_name}
          value={fullName}
          onInput={setFullName}
          autocomplete="name"
          required
        />
        <NewPasswordFields state={newPassword} errors={action.fieldErrors} />
        <button type="submit" class="primary" disabled={action.busy}>
          {text.accept}
        </button>
      </form>
    </AuthFrame>
  );
}
