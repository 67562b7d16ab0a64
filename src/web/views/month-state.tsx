// Where the shown month stands (docs/teams.md, "Closed months"): open, submitted, returned with the
// lead's comment, approved or locked; and, once the month is over, the Submit button (GET /api/months,
// POST /api/months/:month/submit). A closed month's days refuse changes: the pages that change them
// show the sentence of MONTH_LOCKED.
import { useState } from 'preact/hooks';
import { api, describe } from '../api.js';
import { t } from '../i18n/index.js';
import { useLoad } from '../state.js';
import { Notice } from '../ui.js';

/** `month` (YYYY-MM) and today's month in the person's zone: only a month that is over can be submitted. */
export function MonthState(props: { month: string; thisMonth: string }) {
  const text = t().monthState;
  const { month } = props;
  const year = Number(month.slice(0, 4));
  const months = useLoad(() => api('GET /api/months', { query: { year } }), [year]);
  const [error, setError] = useState<string>();
  const [info, setInfo] = useState<string>();
  const [busy, setBusy] = useState(false);
  const shown = months.data?.months.find((entry) => entry.month === month);
  const submit = async () => {
    setBusy(true);
    setError(undefined);
    setInfo(undefined);
    try {
      await api('POST /api/months/:month/submit', { params: { month } });
      await months.reload();
      setInfo(text.submittedNow);
    } catch (failure) {
      setError(describe(failure));
    } finally {
      setBusy(false);
    }
  };
  const canSubmit = shown !== undefined && (shown.state === 'open' || shown.state === 'returned') && month < props.thisMonth;
  return (
    <div class="month-state">
      {shown && (
        <p>
          {text.label}: <strong>{text.states[shown.state]}</strong>
          {shown.comment && ` · ${text.comment(shown.comment)}`}
          {(shown.state === 'approved' || shown.state === 'locked') && <span class="off-name">{text.closed}</span>}
        </p>
      )}
      {canSubmit && (
        <p>
          <button type="button" disabled={busy} onClick={submit}>
            {text.submit}
          </button>
        </p>
      )}
      <Notice error={error ?? months.error} info={info} />
    </div>
  );
}
