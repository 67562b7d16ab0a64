// The two guards of a destructive action (docs/web-client.md, Undo or confirmation): an undo offered
// for 10 seconds after it (what can be put back exactly: one absence day, a booking), and for as long
// as its Undo has focus or the pointer (WCAG 2.2.1: a keyboard or screen-reader user who is on the
// button does not lose it to a timer, and the 10 seconds start again when they leave), or a question
// before it (what cannot, or takes more than one thing at once). Both are shown where the person
// acted, in words, not only to screen readers; Escape or "Keep it" closes a question.
import { useEffect, useRef, useState } from 'preact/hooks';
import { t } from './i18n/index.js';
import { announcement, focusSoon } from './state.js';
import { useEscape, type Action } from './ui.js';

/** How long an undo is offered. */
export const UNDO_MS = 10_000;

interface Offer {
  message: string;
  restore: () => Promise<unknown>;
}

export interface Undo {
  offer: Offer | undefined;
  /** After a removal: says `message` and offers `restore` for UNDO_MS; focus goes to its Undo button. */
  offerUndo: (message: string, restore: () => Promise<unknown>) => void;
  /** While held (focus or pointer on the bar) the offer stays; on release it stays UNDO_MS more. */
  hold: (held: boolean) => void;
  clear: () => void;
}

export function useUndo(): Undo {
  const [offer, setOffer] = useState<Offer>();
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const clear = () => {
    clearTimeout(timer.current);
    setOffer(undefined);
  };
  const expireLater = () => {
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setOffer(undefined), UNDO_MS);
  };
  const offerUndo = (message: string, restore: () => Promise<unknown>) => {
    setOffer({ message, restore });
    announcement.value = message;
    expireLater();
    focusSoon('.undo-bar button');
  };
  const hold = (held: boolean) => (held ? clearTimeout(timer.current) : expireLater());
  return { offer, offerUndo, hold, clear };
}

/** The message of a removal with its Undo button, while the undo is offered. */
export function UndoBar(props: { undo: Undo; action: Action }) {
  const { undo, action } = props;
  const offer = undo.offer;
  if (!offer) return null;
  const restore = () =>
    action.run(async () => {
      await offer.restore();
      undo.clear();
      announcement.value = t().guard.restored;
      return t().guard.restored;
    });
  return (
    <p
      class="notice info undo-bar"
      onFocusIn={() => undo.hold(true)}
      onFocusOut={(event) => {
        const bar = event.currentTarget;
        undo.hold(bar.matches(':hover') || bar.contains(event.relatedTarget as Node | null));
      }}
      onMouseEnter={() => undo.hold(true)}
      onMouseLeave={(event) => undo.hold(event.currentTarget.contains(document.activeElement))}
    >
      {offer.message}{' '}
      <button type="button" class="link" disabled={action.busy} onClick={restore}>
        {t().guard.undo}
      </button>
    </p>
  );
}

/** A question before a removal, in place of the button that asked it: yes, or keep (also Escape). */
export function ConfirmBar(props: { question: string; yes: string; busy: boolean; onYes: () => void; onKeep: () => void }) {
  useEscape(true, props.onKeep);
  return (
    <span class="actions confirm" role="group" aria-label={props.question}>
      <span class="question">{props.question}</span>
      <button type="button" class="danger" disabled={props.busy} onClick={props.onYes}>
        {props.yes}
      </button>
      <button type="button" class="keep" onClick={props.onKeep}>
        {t().guard.keep}
      </button>
    </span>
  );
}
