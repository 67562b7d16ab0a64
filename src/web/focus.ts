// Focus for after an action that changes the page (sign-in, the second step of it, sign-out): the
// element is rendered only once the new page has what it needs (the signed-in page its settings), so
// it is waited for, a little while, and focused unless the person has moved focus meanwhile
// (focusUntouched in state.ts: the same rule as focusSoon there).
import { focusUntouched } from './state.js';

/** How long a page may take to show the element (the settings of the signed-in page load first). */
const WAIT_MS = 10_000;

/** Focuses the element `selector` names once it is on the page, unless focus was put elsewhere first. */
export function focusOnArrival(selector: string): void {
  const before = document.activeElement;
  const until = Date.now() + WAIT_MS;
  const attempt = (): void => {
    if (!focusUntouched(before)) return;
    const element = document.querySelector<HTMLElement>(selector);
    if (element) element.focus();
    else if (Date.now() < until) setTimeout(attempt, 25);
  };
  setTimeout(attempt, 0);
}
