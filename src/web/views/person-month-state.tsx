// A person's month as its lead or an admin sees it (docs/teams.md, "Closed months"; docs/web-client.md,
// "Approvals"): the state with the comment, and the decision it waits for: a submitted month is approved
// (one click) or returned with a comment; an approved or locked one is reopened by an admin with a
// reason. GET /api/users/:id/months/:month and its approve, return and reopen routes; a refusal
// (SELF_APPROVAL, MONTH_STATE after another decided first) shows as its sentence.
import { useState } from 'preact/hooks';
import { api, currentRole } from '../api.js';
import { t } from '../i18n/index.js';
import { tl } from '../i18n/team-layer.js';
import { announcement, focusSoon, useLoad } from '../state.js';
import { Field, Notice, useAction, type Action } from '../ui.js';

export interface MonthOfPerson {
  id: number;
  name: string;
  /** YYYY-MM */
  month: string;
  /** The month as the page names it ("November 2026"). */
  label: string;
}

/** The state of `person.month` and the step it waits for (`ask`: the return form open from the start); `onDecided` after a decision (the list it came from reloads). */
export function PersonMonthState(props: { person: MonthOfPerson; ask?: 'return'; onDecided?: () => void }) {
  const { person } = props;
  const text = tl().monthDecision;
  const states = t().monthState;
  const params = { id: person.id, month: person.month };
  const loaded = useLoad(() => api('GET /api/users/:id/months/:month', { params }), [person.id, person.month]);
  const action = useAction();
  const [asking, setAsking] = useState<'return' | 'reopen' | undefined>(props.ask);
  const shown = loaded.data?.month;
  const decided = async (sentence: string) => {
    setAsking(undefined);
    await loaded.reload();
    announcement.value = sentence;
    props.onDecided?.();
    focusSoon('#person-month-state');
    return sentence;
  };
  const approve = () =>
    action.run(async () => {
      await api('POST /api/users/:id/months/:month/approve', { params, body: {} });
      return decided(text.approvedMonth(person.name, person.label));
    });
  const submitWords = (words: string) =>
    void action.run(async () => {
      if (asking === 'return') {
        await api('POST /api/users/:id/months/:month/return', { params, body: { comment: words } });
        return decided(text.returned(person.name, person.label));
      }
      await api('POST /api/users/:id/months/:month/reopen', { params, body: { reason: words } });
      return decided(text.reopened(person.name, person.label));
    });
  const open = (which: 'return' | 'reopen') => {
    setAsking(which);
    focusSoon('#month-words input');
  };
  const closed = shown?.state === 'approved' || shown?.state === 'locked';
  return (
    <div class="month-state" id="person-month-state" tabIndex={-1}>
      {shown && (
        <p>
          {states.label}: <strong>{states.states[shown.state]}</strong>
          {shown.comment && ` · ${states.comment(shown.comment)}`}
          {shown.digest && <span class="off-name"> · {text.sealed(shown.digest)}</span>}
        </p>
      )}
      <Notice error={action.error ?? loaded.error} info={action.info} errorRef={action.errorRef} />
      {asking ? (
        <WordsForm asking={asking} person={person.name} action={action} onSubmit={submitWords} onCancel={() => setAsking(undefined)} />
      ) : (
        <p class="actions">
          {shown?.state === 'submitted' && (
            <>
              <button type="button" disabled={action.busy} aria-label={text.approveNamed(person.name, person.label)} onClick={() => void approve()}>
                {text.approve}
              </button>{' '}
              <button type="button" class="link" aria-label={text.returnNamed(person.name, person.label)} onClick={() => open('return')}>
                {text.returnMonth}
              </button>
            </>
          )}
          {closed && currentRole.value === 'admin' && (
            <button type="button" class="link" onClick={() => open('reopen')}>
              {text.reopen}
            </button>
          )}
        </p>
      )}
    </div>
  );
}

/** The comment of a return, or the reason of a reopening, with its button and Cancel. */
function WordsForm(props: { asking: 'return' | 'reopen'; person: string; action: Action; onSubmit: (words: string) => void; onCancel: () => void }) {
  const text = tl().monthDecision;
  const { asking, action } = props;
  const field = asking === 'return' ? 'comment' : 'reason';
  const [words, setWords] = useState('');
  return (
    <form id="month-words" ref={action.formRef} onSubmit={(event) => (event.preventDefault(), props.onSubmit(words))} noValidate>
      <Field
        label={asking === 'return' ? text.commentLabel(props.person) : text.reasonLabel}
        name={field}
        value={words}
        onInput={setWords}
        required
        error={action.fieldErrors[field]}
      />
      <p class="actions">
        <button type="submit" class={asking === 'reopen' ? 'danger' : undefined} disabled={action.busy}>
          {asking === 'return' ? text.returnNow : text.reopenNow}
        </button>
        <button type="button" class="keep" onClick={props.onCancel}>
          {text.cancel}
        </button>
      </p>
    </form>
  );
}
