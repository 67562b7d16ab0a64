// Fresh on every device (docs/web-client.md): what a page shows is loaded again when its tab gets
// focus or becomes visible again, and every minute while it is visible, so that a change made on
// another device (a timer stopped on the phone) shows here without a reload. useLoad (state.ts)
// loads again on every bump of `freshness`.
import { signal } from '@preact/signals';

/** Bumped when the shown data should be loaded again. */
export const freshness = signal(0);

/** How often a visible page loads again. */
export const REFRESH_MS = 60_000;

/** Focus and visibility together fire twice for one return to the tab: one load for both. */
const SETTLE_MS = 2_000;

/** Watches focus, visibility and the minute; answers the function that stops watching. */
export function watchFreshness(): () => void {
  let last = Date.now();
  const bump = () => {
    if (document.visibilityState !== 'visible' || Date.now() - last < SETTLE_MS) return;
    last = Date.now();
    freshness.value += 1;
  };
  const timer = setInterval(bump, REFRESH_MS);
  addEventListener('focus', bump);
  document.addEventListener('visibilitychange', bump);
  return () => {
    clearInterval(timer);
    removeEventListener('focus', bump);
    document.removeEventListener('visibilitychange', bump);
  };
}
