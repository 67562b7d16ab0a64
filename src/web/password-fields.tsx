// The two pairs of password fields the client asks in several places, each one state and one pair of
// fields so that every place asks the same way and sends the same body (docs/web-client.md):
// - the current password and, with two-factor sign-in on, a code: what the server asks again before
//   an act that a stolen session must not do alone (docs/security.md): creating an API token, turning
//   two-factor sign-in off, new recovery codes, closing the account;
// - a new password twice, with the rule beside it: a reset by link and a change in Settings.
import { useState } from 'preact/hooks';
import { t } from './i18n/index.js';
import { Field } from './ui.js';

export interface Reauthentication {
  password: string;
  setPassword: (value: string) => void;
  code: string;
  setCode: (value: string) => void;
  /** Whether the code field is shown and sent. */
  withCode: boolean;
  /** The body's part: `{password}`, or `{password, code}` with the code's spaces taken out. */
  proof: () => { password: string; code?: string };
  /** Empties both fields (after a success). */
  clear: () => void;
}

export function useReauthentication(withCode: boolean): Reauthentication {
  const [password, setPassword] = useState('');
  const [code, setCode] = useState('');
  return {
    password,
    setPassword,
    code,
    setCode,
    withCode,
    proof: () => (withCode ? { password, code: code.replace(/\s/g, '') } : { password }),
    clear: () => {
      setPassword('');
      setCode('');
    },
  };
}

/** The two fields, named `password` and `code` so that a failed action focuses the one it names. */
export function ReauthenticationFields(props: { state: Reauthentication; errors: Record<string, string | undefined> }) {
  const { state, errors } = props;
  return (
    <>
      <Field
        label={t().settings.currentPassword}
        name="password"
        type="password"
        value={state.password}
        onInput={state.setPassword}
        autocomplete="current-password"
        required
        error={errors.password}
      />
      {state.withCode && (
        <Field
          label={t().twoFactor.codeOrRecovery}
          name="code"
          value={state.code}
          onInput={state.setCode}
          autocomplete="one-time-code"
          required
          error={errors.code}
        />
      )}
    </>
  );
}

export interface NewPassword {
  password: string;
  setPassword: (value: string) => void;
  repeat: string;
  setRepeat: (value: string) => void;
  /** Whether the two fields hold the same password. */
  matches: () => boolean;
  clear: () => void;
}

export function useNewPassword(): NewPassword {
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  return {
    password,
    setPassword,
    repeat,
    setRepeat,
    matches: () => password === repeat,
    clear: () => {
      setPassword('');
      setRepeat('');
    },
  };
}

/** The new password (named `new_password`, as the API's field) and its repetition (`repeat`). */
export function NewPasswordFields(props: { state: NewPassword; errors: Record<string, string | undefined> }) {
  const { state, errors } = props;
  const text = t().auth;
  return (
    <>
      <Field
        label={text.newPassword}
        name="new_password"
        error={errors.new_password}
        type="password"
        value={state.password}
        onInput={state.setPassword}
        autocomplete="new-password"
        required
        minLength={8}
        hint={text.passwordHint}
      />
      <Field
        label={text.newPasswordAgain}
        name="repeat"
        error={errors.repeat}
        type="password"
        value={state.repeat}
        onInput={state.setRepeat}
        autocomplete="new-password"
        required
        minLength={8}
      />
    </>
  );
}
