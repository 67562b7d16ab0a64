// Entry of the browser client: restores the session, then shows the page of the path. The signed-in
// part (and luxon with it) is a separate chunk, so the sign-in page loads little; with a stored token
// that chunk, the settings and today's figures load alongside /api/auth/me, not after it.
import './styles.css';
import { h, render } from 'preact';
import { signal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { currentUser, followStoredSession, sessionVersion, storedToken, takeRestoreError } from './api.js';
import { LoginPage, PasswordForgotPage, PasswordResetPage } from './auth-pages.js';
import { RegisterPage } from './registration.js';
import { AcceptInvitePage } from './accept-invite.js';
import { t } from './i18n/index.js';
import { prefetch, recentEntriesQuery } from './prefetch.js';
import { currentPath, navigate } from './router.js';
import { Notice } from './ui.js';

/** The signed-in page, loaded on first need. */
const tracker = signal<typeof import('./tracker.js') | undefined>(undefined);
let trackerLoading: Promise<void> | undefined;
function loadTracker(): void {
  trackerLoading ??= import('./tracker.js').then((module) => void (tracker.value = module));
}

const PUBLIC_PAGES: Record<string, () => preact.JSX.Element> = {
  '/password-forgot': PasswordForgotPage,
  '/password-reset': PasswordResetPage,
  '/accept-invite': AcceptInvitePage,
};
const SIGNED_OUT_ONLY: Record<string, () => preact.JSX.Element> = { '/login': LoginPage, '/register': RegisterPage };

function App() {
  const path = currentPath.value;
  const user = currentUser.value;
  const text = t();
  const publicPage = PUBLIC_PAGES[path];
  const signedOutPage = SIGNED_OUT_ONLY[path];
  const target = user && (signedOutPage || (!publicPage && path !== '/')) ? '/' : user === null && !publicPage && !signedOutPage ? '/login' : undefined;
  useEffect(() => {
    if (target) navigate(target, { replace: true, message: target === '/login' ? takeRestoreError() : undefined });
  }, [target]);
  useEffect(() => {
    const titles: Record<string, string> = {
      '/login': text.auth.signInTitle,
      '/register': text.auth.registerTitle,
      '/password-forgot': text.auth.forgotTitle,
      '/password-reset': text.auth.resetTitle,
      '/accept-invite': text.invite.title,
    };
    if (titles[path]) document.title = `${titles[path]} · timetrack`;
  }, [path, text]);
  // Pages render as components (not called), so each keeps its own hooks.
  if (publicPage) return h(publicPage, null);
  if (user === undefined || target)
    return (
      <main id="content">
        <Notice info={text.loading} />
      </main>
    );
  if (signedOutPage) return h(signedOutPage, null);
  if (!user)
    return (
      <main id="content">
        <Notice info={text.loading} />
      </main>
    );
  loadTracker();
  const Tracker = tracker.value?.Tracker;
  // Keyed by the session: another account never sees this one's data.
  return Tracker ? (
    <Tracker key={sessionVersion.value} user={user} />
  ) : (
    <main id="content">
      <Notice info={text.loading} />
    </main>
  );
}

void followStoredSession();
if (storedToken() && currentPath.value === '/') {
  loadTracker();
  prefetch('GET /api/settings');
  if (location.hash === '' || location.hash === '#today') {
    prefetch('GET /api/stats/today');
    prefetch('GET /api/time-entries/current');
    prefetch('GET /api/stats/overtime');
    prefetch('GET /api/time-entries', recentEntriesQuery());
  }
}
render(<App />, document.getElementById('app') as HTMLElement);
