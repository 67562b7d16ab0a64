// Entry of the browser client: restores the session, then shows the page of the path. The signed-in
// part (and luxon with it) is a separate chunk, so the sign-in page loads little.
import './styles.css';
import { h, render } from 'preact';
import { signal } from '@preact/signals';
import { useEffect } from 'preact/hooks';
import { api, currentUser, describe, storedToken, type User } from './api.js';
import { LoginPage, PasswordForgotPage, PasswordResetPage, RegisterPage } from './auth-pages.js';
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
};
const SIGNED_OUT_ONLY: Record<string, () => preact.JSX.Element> = { '/login': LoginPage, '/register': RegisterPage };

let restoreError: string | undefined;

async function restoreSession(): Promise<void> {
  if (!storedToken()) {
    currentUser.value = null;
    return;
  }
  try {
    currentUser.value = (await api<{ user: User }>('GET', '/api/auth/me')).user;
  } catch (error) {
    // A 401 already signed out; anything else leaves the token for a later try.
    if (currentUser.value === undefined) {
      restoreError = describe(error);
      currentUser.value = null;
    }
  }
}

function App() {
  const path = currentPath.value;
  const user = currentUser.value;
  const publicPage = PUBLIC_PAGES[path];
  const signedOutPage = SIGNED_OUT_ONLY[path];
  const target =
    user && (signedOutPage || (!publicPage && path !== '/')) ? '/' : user === null && !publicPage && !signedOutPage ? '/login' : undefined;
  useEffect(() => {
    if (target) navigate(target, { replace: true, message: target === '/login' ? restoreError : undefined });
  }, [target]);
  useEffect(() => {
    const title = publicPage || signedOutPage ? { '/login': 'Sign in', '/register': 'Create account', '/password-forgot': 'Reset your password', '/password-reset': 'Set a new password' }[path] : 'Time tracker';
    document.title = `${title ?? 'timetrack'} · timetrack`;
  }, [path]);
  // Pages render as components (not called), so each keeps its own hooks.
  if (publicPage) return h(publicPage, null);
  if (user === undefined || target) return <Notice info="Loading…" />;
  if (signedOutPage) return h(signedOutPage, null);
  if (!user) return <Notice info="Loading…" />;
  loadTracker();
  const Tracker = tracker.value?.Tracker;
  return Tracker ? <Tracker userName={user.full_name} /> : <Notice info="Loading…" />;
}

void restoreSession();
render(<App />, document.getElementById('app') as HTMLElement);
