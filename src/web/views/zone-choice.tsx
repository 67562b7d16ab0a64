// From when a new time zone counts (docs/time-model.md, Time zone history): from today (the default:
// every past day keeps its zone and its figures) or all my days (the one change that recounts them),
// and the confirmation that takes the focus where the person acted.
import { useEffect, useRef } from 'preact/hooks';
import { t } from '../i18n/index.js';

export type ZoneFrom = 'today' | 'all';

/** The PATCH fields of a zone change: all my days start at the tracking start; today is the server's default. */
export function zoneChange(timezone: string, from: ZoneFrom, trackingStart: string): { timezone: string; timezone_valid_from?: string } {
  return from === 'all' ? { timezone, timezone_valid_from: trackingStart } : { timezone };
}

/** Two choices, "from today" first; the sentence under them says that all my days recounts every past day. */
export function ZoneFromChoice(props: { name: string; value: ZoneFrom; onChange: (value: ZoneFrom) => void }) {
  const text = t().zoneFrom;
  return (
    <fieldset class="zone-from">
      <legend>{text.legend}</legend>
      <label>
        <input type="radio" name={props.name} value="today" checked={props.value === 'today'} onChange={() => props.onChange('today')} /> {text.today}
      </label>{' '}
      <label>
        <input type="radio" name={props.name} value="all" checked={props.value === 'all'} onChange={() => props.onChange('all')} /> {text.all}
      </label>
      <p class="hint">{text.allRecounts}</p>
    </fieldset>
  );
}

/** A confirmation that takes the focus when it appears (read out, and visible where the person acted). */
export function ZoneConfirmation(props: { message: string | undefined }) {
  const ref = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (props.message) ref.current?.focus();
  }, [props.message]);
  return (
    <p role="status" tabIndex={-1} ref={ref} class={props.message ? 'notice info' : 'notice-empty'} data-zone-confirmation>
      {props.message}
    </p>
  );
}
