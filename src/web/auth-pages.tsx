// The pages before sign-in: login, register, password-forgot, password-reset.
import { useRef, useState } from 'preact/hooks';
import type { User } from '../http/contract.js';
import { api } from './api.js';
import { t } from './i18n/index.js';
import { flashMessage, navigate } from './router.js';
import { AuthFrame, Field, Link, Notice, useAction } from './ui.js';
import { signedIn, signIn, type SecondStep } from './sign-in.js';
import { CodeStep, TwoFactorSetup } from './two-factor.js';
import { askRegistration, registration } from './registration.js';
import { NewPasswordFields, useNewPassword } from './password-fields.js';

const go = (href: string) => navigate(href);
const RESET_TOKEN_KEY = 'timetrack.reset-token';

export function LoginPage() {
  const [identifier, setIdentifier] = useState('');
  const [password, setPassword] = useState('');
  const [step, setStep] = useState<SecondStep>();
  const session = useRef<{ token: string; user: User } | undefined>(undefined);
  const action = useAction();
  const text = t().auth;
  askRegistration();
  if (step?.kind === 'code') {
    return (
      <AuthFrame title={t().twoFactor.codeTitle}>
        <CodeStep
          back={() => (setStep(undefined), setPassword(''))}
          submit={async (code) => {
            const answer = await api('POST /api/auth/login/2fa', { body: { challenge: step.challenge, code } });
            signedIn(answer.token, answer.user);
          }}
        />
      </AuthFrame>
    );
  }
  if (step?.kind === 'setup' && step.setup) {
    return (
      <AuthFrame title={t().twoFactor.requiredTitle}>
        <p>{t().twoFactor.requiredNote}</p>
        <TwoFactorSetup
          setup={step.setup}
          email={identifier}
          finish={async (code) => {
            const answer = await api('POST /api/auth/2fa/enable', { body: { challenge: step.challenge, code } });
            if ('token' in answer) session.current = answer;
            return answer.recovery_codes;
          }}
          onDone={() => session.current && signedIn(session.current.token, session.current.user)}
        />
      </AuthFrame>
    );
  }
  return (
    <AuthFrame title={text.signInTitle}>
      <Notice error={action.error} info={flashMessage.value} errorRef={action.errorRef} />
      <form ref={action.formRef} onSubmit={(event) => (event.preventDefault(), action.run(async () => setStep(await signIn(identifier, password))))}>
        <Field label={text.identifier} name="email" value={identifier} onInput={setIdentifier} autocomplete="username" required />
        <Field label={text.password} name="password" type="password" value={password} onInput={setPassword} autocomplete="current-password" required />
        <button type="submit" class="primary" disabled={action.busy}>
          {text.signIn}
        </button>
      </form>
      <p>
        {registration.value !== 'closed' && (
          <>
            <Link href="/register" onNavigate={go}>
              {text.createAnAccount}
            </Link>{' '}
            ·{' '}
          </>
        )}
        <Link href="/password-forgot" onNavigate={go}>
          {text.forgot}
        </Link>
      </p>
    </AuthFrame>
  );
}

export function PasswordForgotPage() {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState<{ delivery: string; token?: string | undefined }>();
  const action = useAction();
  const text = t().auth;
  const submit = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      const answer = await api('POST /api/auth/request-reset', { body: { email } });
      setSent({ delivery: answer.delivery, token: answer.reset_token });
    });
  };
  const resetPath = sent?.token ? `/password-reset?token=${encodeURIComponent(sent.token)}` : undefined;
  const info = sent ? (sent.delivery === 'none' ? text.noMail : text.linkOnItsWay) : undefined;
  return (
    <AuthFrame title={text.forgotTitle}>
      <Notice error={action.error} info={info} errorRef={action.errorRef} />
      {resetPath && (
        <div class="dev">
          <p>{text.devMode}</p>
          <p>
            <Link href={resetPath} onNavigate={go}>
              {text.openResetPage}
            </Link>
          </p>
          <p class="token">
            {text.token} <code>{sent?.token}</code>
          </p>
        </div>
      )}
      {sent?.delivery !== 'none' && (
        <form ref={action.formRef} onSubmit={submit}>
          <Field label={text.email} name="email" type="email" value={email} onInput={setEmail} autocomplete="email" required />
          <button type="submit" class="primary" disabled={action.busy}>
            {text.sendLink}
          </button>
        </form>
      )}
      <p>
        <Link href="/login" onNavigate={go}>
          {text.backToSignIn}
        </Link>
      </p>
    </AuthFrame>
  );
}

/**
 * Read once from the address and then removed from it, so that it is not left in history or a
 * screenshot; kept in this tab's session storage until it is used, so that a reload keeps the page working.
 */
function takeResetToken(): string {
  const fromAddress = new URLSearchParams(location.search).get('token');
  if (fromAddress) sessionStorage.setItem(RESET_TOKEN_KEY, fromAddress);
  if (location.search) history.replaceState(null, '', '/password-reset');
  return fromAddress ?? sessionStorage.getItem(RESET_TOKEN_KEY) ?? '';
}

export function PasswordResetPage() {
  const [token] = useState(takeResetToken);
  const newPassword = useNewPassword();
  const action = useAction();
  const text = t().auth;
  const submit = (event: Event) => {
    event.preventDefault();
    if (!newPassword.matches()) return action.fail(text.notSame, 'repeat');
    void action.run(async () => {
      try {
        await api('POST /api/auth/reset-password', { body: { token, new_password: newPassword.password } });
      } catch (error) {
        if (error instanceof Error && 'failure' in error && (error as { failure: { code: string } }).failure.code === 'INVALID_RESET_TOKEN')
          sessionStorage.removeItem(RESET_TOKEN_KEY);
        throw error;
      }
      sessionStorage.removeItem(RESET_TOKEN_KEY);
      navigate('/login', { replace: true, message: text.passwordChanged });
    });
  };
  if (!token) {
    return (
      <AuthFrame title={text.resetTitle}>
        <Notice error={text.needsLink} />
        <p>
          <Link href="/password-forgot" onNavigate={go}>
            {text.requestLink}
          </Link>
        </p>
      </AuthFrame>
    );
  }
  return (
    <AuthFrame title={text.resetTitle}>
      <Notice error={action.error} errorRef={action.errorRef} />
      <form ref={action.formRef} onSubmit={submit}>
        <NewPasswordFields state={newPassword} errors={action.fieldErrors} />
        <button type="submit" class="primary" disabled={action.busy}>
          {text.setNewPassword}
        </button>
      </form>
      <p>
        <Link href="/password-forgot" onNavigate={go}>
          {text.requestNewLink}
        </Link>{' '}
        ·{' '}
        <Link href="/login" onNavigate={go}>
          {text.backToSignIn}
        </Link>
      </p>
    </AuthFrame>
  );
}
