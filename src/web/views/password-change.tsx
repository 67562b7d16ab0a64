// Settings → changing the password (the current one, the new one twice); other sessions are signed out,
// and the API tokens too unless "Also revoke my API tokens" is unticked.
import { useState } from 'preact/hooks';
import { api } from '../api.js';
import { t } from '../i18n/index.js';
import { securityChanged } from '../state.js';
import { NewPasswordFields, useNewPassword } from '../password-fields.js';
import { Field, Notice, useAction } from '../ui.js';
import { RevokeApiTokensCheck } from './security.js';

export function PasswordChange() {
  const text = t().settings;
  const [oldPassword, setOldPassword] = useState('');
  const newPassword = useNewPassword();
  const [revokeApiTokens, setRevokeApiTokens] = useState(true);
  const action = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    if (!newPassword.matches()) return action.fail(text.notSame, 'repeat');
    void action.run(async () => {
      await api('POST /api/auth/change-password', {
        body: { old_password: oldPassword, new_password: newPassword.password, revoke_api_tokens: revokeApiTokens },
      });
      setOldPassword('');
      newPassword.clear();
      securityChanged(); // the sessions, and the API tokens' list, load again
      return text.passwordChanged;
    });
  };
  return (
    <form ref={action.formRef} onSubmit={submit}>
      <Notice error={action.error} info={action.info} errorRef={action.errorRef} />
      <Field
        label={text.currentPassword}
        name="old_password"
        type="password"
        value={oldPassword}
        onInput={setOldPassword}
        autocomplete="current-password"
        required
      />
      <NewPasswordFields state={newPassword} errors={action.fieldErrors} />
      <RevokeApiTokensCheck id="password-revoke-api-tokens" checked={revokeApiTokens} onChange={setRevokeApiTokens} />
      <button type="submit" class="primary" disabled={action.busy}>
        {text.changePassword}
      </button>
    </form>
  );
}
