// The pages before sign-in: login, register, password-forgot, password-reset.
import { useState } from 'preact/hooks';
import { api, currentUser, describe, keepToken, type User } from './api.js';
import { flashMessage, navigate } from './router.js';
import { AuthFrame, Field, Link, Notice } from './ui.js';

const go = (href: string) => navigate(href);

function useSubmit() {
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const run = async (event: Event, action: () => Promise<void>) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      await action();
    } catch (failure) {
      setError(describe(failure));
    } finally {
      setBusy(false);
    }
  };
  return { error, setError, busy, run };
}

export function LoginPage() {
  const [identifier, setIdentifier] = useState('');
  const [password, setPassword] = useState('');
  const { error, busy, run } = useSubmit();
  const submit = (event: Event) =>
    run(event, async () => {
      const answer = await api<{ token: string; user: User }>('POST', '/api/auth/login', { email: identifier, password });
      keepToken(answer.token);
      currentUser.value = answer.user;
      navigate('/', { replace: true });
    });
  return (
    <AuthFrame title="Sign in">
      <Notice error={error} info={flashMessage.value} />
      <form onSubmit={submit}>
        <Field label="E-mail or username" value={identifier} onInput={setIdentifier} autocomplete="username" required />
        <Field label="Password" type="password" value={password} onInput={setPassword} autocomplete="current-password" required />
        <button type="submit" class="primary" disabled={busy}>Sign in</button>
      </form>
      <p>
        <Link href="/register" onNavigate={go}>Create an account</Link> · <Link href="/password-forgot" onNavigate={go}>Forgot your password?</Link>
      </p>
    </AuthFrame>
  );
}

export function RegisterPage() {
  const [fullName, setFullName] = useState('');
  const [email, setEmail] = useState('');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const { error, busy, run } = useSubmit();
  const submit = (event: Event) =>
    run(event, async () => {
      const body: Record<string, string> = { full_name: fullName, email, password };
      if (username.trim()) body.username = username.trim();
      await api('POST', '/api/auth/register', body);
      navigate('/login', { message: 'Your account is ready. Sign in.' });
    });
  return (
    <AuthFrame title="Create account">
      <Notice error={error} />
      <form onSubmit={submit}>
        <Field label="Full name" value={fullName} onInput={setFullName} autocomplete="name" required />
        <Field label="E-mail" type="email" value={email} onInput={setEmail} autocomplete="email" required />
        <Field label="Username (optional)" value={username} onInput={setUsername} autocomplete="username" />
        <Field label="Password" type="password" value={password} onInput={setPassword} autocomplete="new-password" required minLength={8} hint="At least 8 characters." />
        <button type="submit" class="primary" disabled={busy}>Create account</button>
      </form>
      <p>
        Already registered? <Link href="/login" onNavigate={go}>Sign in instead</Link>
      </p>
    </AuthFrame>
  );
}

export function PasswordForgotPage() {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState<{ message: string; token?: string }>();
  const { error, busy, run } = useSubmit();
  const submit = (event: Event) =>
    run(event, async () => {
      const answer = await api<{ message: string; reset_token?: string }>('POST', '/api/auth/request-reset', { email });
      setSent({ message: 'If an account has this address, a reset link is on its way.', token: answer.reset_token });
    });
  const resetPath = sent?.token ? `/password-reset?token=${encodeURIComponent(sent.token)}` : undefined;
  return (
    <AuthFrame title="Reset your password">
      <Notice error={error} info={sent?.message} />
      {resetPath && (
        <div class="dev">
          <p>Development mode: the server answered the reset token.</p>
          <p>
            <Link href={resetPath} onNavigate={go}>Open the reset page</Link>
          </p>
          <p class="token">Token: <code>{sent?.token}</code></p>
        </div>
      )}
      <form onSubmit={submit}>
        <Field label="E-mail" type="email" value={email} onInput={setEmail} autocomplete="email" required />
        <button type="submit" class="primary" disabled={busy}>Send reset link</button>
      </form>
      <p>
        <Link href="/login" onNavigate={go}>Back to sign in</Link>
      </p>
    </AuthFrame>
  );
}

/** Read once and then removed from the address bar, so that it is not left in history or a screenshot. */
function takeResetToken(): string {
  const token = new URLSearchParams(location.search).get('token') ?? '';
  if (location.search) history.replaceState(null, '', '/password-reset');
  return token;
}

export function PasswordResetPage() {
  const [token] = useState(takeResetToken);
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const { error, setError, busy, run } = useSubmit();
  const submit = (event: Event) => {
    if (password !== repeat) {
      event.preventDefault();
      setError('The two passwords are not the same.');
      return;
    }
    return run(event, async () => {
      await api('POST', '/api/auth/reset-password', { token, new_password: password });
      navigate('/login', { replace: true, message: 'Your password is changed. Sign in with the new one.' });
    });
  };
  if (!token) {
    return (
      <AuthFrame title="Set a new password">
        <Notice error="This page needs the link from the reset e-mail. Request a new one." />
        <p>
          <Link href="/password-forgot" onNavigate={go}>Request a reset link</Link>
        </p>
      </AuthFrame>
    );
  }
  return (
    <AuthFrame title="Set a new password">
      <Notice error={error} />
      <form onSubmit={submit}>
        <Field label="New password" type="password" value={password} onInput={setPassword} autocomplete="new-password" required minLength={8} hint="At least 8 characters." />
        <Field label="New password again" type="password" value={repeat} onInput={setRepeat} autocomplete="new-password" required minLength={8} />
        <button type="submit" class="primary" disabled={busy}>Set new password</button>
      </form>
      <p>
        <Link href="/password-forgot" onNavigate={go}>Request a new link</Link> · <Link href="/login" onNavigate={go}>Back to sign in</Link>
      </p>
    </AuthFrame>
  );
}
