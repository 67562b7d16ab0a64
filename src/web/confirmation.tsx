// A confirmation shown where the person acted (beside the button they pressed), so that it is on screen
// on a phone too, and focused once it shows: the button may be gone or disabled while the action ran,
// and focus would otherwise fall to the page's body (docs/web-client.md).
import { useEffect, useRef } from 'preact/hooks';
import { focusUntouched } from './state.js';

/**
 * The status line beside an action's buttons (put it in the same container as them). It takes focus
 * when `text` arrives if focus fell to the body or is still on a button of that container; focus the
 * person has put elsewhere meanwhile stays there.
 */
export function Confirmation(props: { text: string | undefined; id?: string }) {
  const element = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    const self = element.current;
    if (!props.text || !self) return;
    const active = document.activeElement;
    const onItsButton = active instanceof HTMLButtonElement && self.parentElement?.contains(active) === true;
    if (focusUntouched(null) || onItsButton) self.focus();
  }, [props.text]);
  return (
    <p id={props.id} ref={element} role="status" tabIndex={-1} class={props.text ? 'notice info confirmation' : 'notice-empty'}>
      {props.text}
    </p>
  );
}
