// Sign-up: /register, and whether this server offers it (GET /api/auth/registration, the REGISTRATION
// setting), asked once per page load. Until the answer is in, sign-up is offered as before: the server
// still refuses a registration it does not take.
// /register?setup=… is the first admin's one-time setup link that `serve` prints while no account is an
// admin (docs/teams.md, "The first admin"): the page checks it, says what it does, and sends it with the
// registration, which then makes an admin even where sign-up is closed. Like the reset and invitation
// tokens it is read once from the address, removed from it, and kept in this tab until it is used.
import { signal } from '@preact/signals';
import { useEffect, useState } from 'preact/hooks';
import type { Routes } from '../http/routes-table.js';
import { api } from './api.js';
import { t } from './i18n/index.js';
import { navigate } from './router.js';
import { signIn } from './sign-in.js';
import { AuthFrame, Field, Link, Notice, useAction } from './ui.js';

export const registration = signal<'open' | 'closed' | undefined>(undefined);
let asked = false;
const SETUP_TOKEN_KEY = 'timetrack.setup-token';
const go = (href: string) => navigate(href);

export function askRegistration(): void {
  if (asked) return;
  asked = true;
  api('GET /api/auth/registration').then(
    (answer) => {
      registration.value = answer.registration;
    },
    () => {
      asked = false; // asked again on the next sign-in page
    },
  );
}

/** /register on a server that takes no registration (REGISTRATION=closed): why, and the way back. */
function RegistrationClosed(props: { error?: string | undefined }) {
  const text = t().auth;
  return (
    <AuthFrame title={text.registerTitle}>
      <Notice error={props.error} info={props.error ? undefined : t().errors.REGISTRATION_CLOSED} />
      <p>
        <Link href="/login" onNavigate={go}>
          {text.signIn}
        </Link>
      </p>
    </AuthFrame>
  );
}

function takeSetupToken(): string | undefined {
  const fromAddress = new URLSearchParams(location.search).get('setup');
  if (fromAddress) sessionStorage.setItem(SETUP_TOKEN_KEY, fromAddress);
  if (location.search) history.replaceState(null, '', '/register');
  return fromAddress ?? sessionStorage.getItem(SETUP_TOKEN_KEY) ?? undefined;
}

/** The setup link of this page, once the server said whether it works: undefined while there is none or it is being checked. */
function useSetupLink() {
  const [token] = useState(takeSetupToken);
  const [usable, setUsable] = useState<boolean | undefined>(token === undefined ? false : undefined);
  const check = useAction();
  useEffect(() => {
    if (token === undefined) return;
    void check.run(async () => {
      try {
        await api('GET /api/auth/setup-link', { query: { token } });
        setUsable(true);
      } catch (error) {
        sessionStorage.removeItem(SETUP_TOKEN_KEY);
        setUsable(false);
        throw error;
      }
    });
    // Once per page: the token does not change.
  }, [token]);
  return { token: usable ? token : undefined, checking: usable === undefined, error: check.error };
}

export function RegisterPage() {
  const [fullName, setFullName] = useState('');
  const [email, setEmail] = useState('');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const setup = useSetupLink();
  const action = useAction();
  const text = t().auth;
  askRegistration();
  const submit = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      // The account starts in this browser's zone: its days and its tracking start are counted there.
      const body: Routes['POST /api/auth/register']['body'] = {
        full_name: fullName,
        email,
        password,
        timezone: Intl.DateTimeFormat().resolvedOptions().timeZone,
      };
      if (username.trim()) body.username = username.trim();
      if (setup.token !== undefined) body.setup_token = setup.token;
      await api('POST /api/auth/register', { body });
      sessionStorage.removeItem(SETUP_TOKEN_KEY);
      // REQUIRE_2FA: the sign-in page takes it from the password on.
      if (await signIn(email, password)) navigate('/login', { replace: true });
    });
  };
  if (setup.checking) {
    return (
      <AuthFrame title={text.registerTitle}>
        <Notice info={text.setupChecking} />
      </AuthFrame>
    );
  }
  // A link kept from elsewhere: no form where the server takes no registration (a working setup link aside).
  if (registration.value === 'closed' && setup.token === undefined) return <RegistrationClosed error={setup.error} />;
  return (
    <AuthFrame title={setup.token === undefined ? text.registerTitle : text.setupTitle}>
      {setup.token !== undefined && <p>{text.setupExplained}</p>}
      <Notice error={action.error ?? setup.error} errorRef={action.errorRef} />
      <form ref={action.formRef} onSubmit={submit}>
        <Field
          label={text.fullName}
          name="full_name"
          error={action.fieldErrors.full_name}
          value={fullName}
          onInput={setFullName}
          autocomplete="name"
          required
        />
        <Field label={text.email} name="email" error={action.fieldErrors.email} type="email" value={email} onInput={setEmail} autocomplete="email" required />
        <Field
          label={text.usernameOptional}
          name="username"
          error={action.fieldErrors.username}
          value={username}
          onInput={setUsername}
          autocomplete="username"
        />
        <Field
          label={text.password}
          name="password"
          error={action.fieldErrors.password}
          type="password"
          value={password}
          onInput={setPassword}
          autocomplete="new-password"
          required
          minLength={8}
          hint={text.passwordHint}
        />
        <button type="submit" class="primary" disabled={action.busy}>
          {setup.token === undefined ? text.createAccount : text.setupCreate}
        </button>
      </form>
      <SignInInstead />
    </AuthFrame>
  );
}

function SignInInstead() {
  const text = t().auth;
  return (
    <p>
      {text.alreadyRegistered}{' '}
      <Link href="/login" onNavigate={go}>
        {text.signInInstead}
      </Link>
    </p>
  );
}
