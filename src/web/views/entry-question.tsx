// The question the entry editor asks once before saving (../plausibility.ts), shown in the form above
// its buttons: the sentence, "Yes, save it" (or, for a bare number, its minutes and its hours) and
// "No, change it", which goes back to the field in doubt. Focus moves to the first answer; Escape
// goes back to the field.
import { useEffect, useId, useRef } from 'preact/hooks';
import { formatMinutes } from '../duration.js';
import { t } from '../i18n/index.js';
import type { Doubt } from '../plausibility.js';

function sentence(doubt: Doubt, start: string, end: string): string {
  const text = t().guard;
  switch (doubt.kind) {
    case 'minutesOrHours':
      return text.minutesOrHours(doubt.typed);
    case 'overnight':
      return text.overnight(start, end);
    case 'long':
      return text.long(formatMinutes(doubt.minutes));
    case 'holiday':
      return text.holiday(doubt.name);
    case 'absence':
      return text.absence(t().week[doubt.type]);
  }
}

/** `onConfirm` saves (a bare number: as `minutes` or `hours`); `onChange` goes back to the field. */
export function EntryQuestion(props: {
  doubt: Doubt;
  start: string;
  end: string;
  busy: boolean;
  onConfirm: (reading?: 'minutes' | 'hours') => void;
  onChange: () => void;
}) {
  const text = t().guard;
  const id = useId();
  const first = useRef<HTMLButtonElement>(null);
  const { doubt } = props;
  useEffect(() => first.current?.focus(), [doubt]);
  return (
    <div
      class="question"
      role="group"
      aria-labelledby={id}
      onKeyDown={(event) => event.key === 'Escape' && (event.preventDefault(), event.stopPropagation(), props.onChange())}
    >
      <p id={id}>
        <strong>{text.plausibility}:</strong> {sentence(doubt, props.start, props.end)}
      </p>
      {doubt.kind === 'minutesOrHours' ? (
        <>
          <button type="button" class="primary" ref={first} disabled={props.busy} onClick={() => props.onConfirm('minutes')}>
            {text.asMinutes(doubt.typed)}
          </button>
          <button type="button" disabled={props.busy} onClick={() => props.onConfirm('hours')}>
            {text.asHours(doubt.typed)}
          </button>
        </>
      ) : (
        <button type="button" class="primary" ref={first} disabled={props.busy} onClick={() => props.onConfirm()}>
          {text.saveAnyway}
        </button>
      )}
      <button type="button" class="change" onClick={props.onChange}>
        {text.change}
      </button>
    </div>
  );
}
