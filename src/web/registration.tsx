// Whether this server offers sign-up (GET /api/auth/registration, the REGISTRATION setting), asked
// once per page load. Until the answer is in, sign-up is offered as before: the server still refuses
// a registration it does not take.
import { signal } from '@preact/signals';
import { api } from './api.js';
import { t } from './i18n/index.js';
import { navigate } from './router.js';
import { AuthFrame, Link, Notice } from './ui.js';

export const registration = signal<'open' | 'closed' | undefined>(undefined);
let asked = false;

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
export function RegistrationClosed() {
  const text = t().auth;
  return (
    <AuthFrame title={text.registerTitle}>
      <Notice info={t().errors.REGISTRATION_CLOSED} />
      <p>
        <Link href="/login" onNavigate={(href) => navigate(href)}>
          {text.signIn}
        </Link>
      </p>
    </AuthFrame>
  );
}
