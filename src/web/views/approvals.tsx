// Approvals (docs/web-client.md, "Approvals"; docs/teams.md): what waits for a lead's or an admin's
// decision: the leave requests (asked for, or their cancellation asked for) and the submitted months of
// the people within reach, each decided with one click; a request may carry a note, a month is returned
// with a comment, and each month is one click from its figures (./person-figures.tsx). The lists come
// from GET /api/requests?scope=team and GET /api/months/waiting; the actor's own are left out (another
// lead or an admin decides those).
import { useState } from 'preact/hooks';
import type { LeaveRequest } from '../../http/contract.js';
import type { Answer } from '../routes.js';
import { api, ApiError, currentUser } from '../api.js';
import { tl } from '../i18n/team-layer.js';
import { announcement, fmt, focusSoon } from '../state.js';
import { Notice, useAction } from '../ui.js';
import { PersonFigures } from './person-figures.js';
import { shiftMonth } from '../week.js';

type WaitingMonth = Answer<'GET /api/months/waiting'>['months'][number];

type Waiting = { requests: LeaveRequest[]; months: WaitingMonth[] };

/** What waits, without the actor's own: requests by their first day, months oldest first. */
export async function loadWaiting(): Promise<Waiting> {
  const [asked, cancellations, months] = await Promise.all([
    api('GET /api/requests', { query: { scope: 'team', state: 'requested' } }),
    api('GET /api/requests', { query: { scope: 'team', state: 'cancel_requested' } }),
    api('GET /api/months/waiting'),
  ]);
  const me = currentUser.value?.id;
  const requests = [...asked.requests, ...cancellations.requests].filter((request) => request.person.id !== me).sort((a, b) => (a.from < b.from ? -1 : 1));
  return { requests, months: months.months.filter((month) => month.user.id !== me) };
}

/**
 * The section: both lists, and the month picked to look at. `waiting` is the Team section's load of
 * loadWaiting (the count beside the switch is of the same answer); a decision reloads it.
 */
export function Approvals(props: { waiting: { data: Waiting | undefined; error: string | undefined; reload: () => Promise<void> } }) {
  const text = tl().approvals;
  const { waiting } = props;
  const { reload } = waiting;
  const [shown, setShown] = useState<{ month: WaitingMonth; ask?: 'return' }>();
  const data = waiting.data;
  return (
    <div class="approvals">
      <Notice error={waiting.error} />
      {data && data.requests.length === 0 && data.months.length === 0 && <p>{text.nothing}</p>}
      <h3>{text.requests}</h3>
      {data && <RequestList requests={data.requests} reload={reload} />}
      <h3>{text.months}</h3>
      {data && (
        <MonthList
          months={data.months}
          reload={reload}
          onShow={(month, ask) => (setShown({ month, ask }), focusSoon(ask ? '#month-words input' : '#person-title'))}
        />
      )}
      <p class="hint">{text.ownHint}</p>
      {shown && (
        // A submitted month is over: its days are all past, as on the first day of the next month.
        <PersonFigures
          key={`${shown.month.user.id}-${shown.month.month}-${shown.ask ?? ''}`}
          person={{ id: shown.month.user.id, name: shown.month.user.full_name, today: `${shiftMonth(shown.month.month, 1)}-01`, view: 'month' }}
          monday={`${shown.month.month}-01`}
          month={shown.month.month}
          ask={shown.ask}
          onDecided={() => void reload()}
        />
      )}
    </div>
  );
}

/**
 * One decision of a list: sent, the list reloaded, the result said in the status line and focus on the
 * section's heading. When someone else decided first (another lead, another tab, another device) the
 * catalog's sentence says so (ALREADY_DECIDED, MONTH_STATE; NOT_FOUND when the person withdrew it), and
 * the list reloads without it.
 */
function useDecision(reload: () => Promise<void>) {
  const action = useAction();
  const decide = (send: () => Promise<unknown>, sentence: string) =>
    action.run(
      async () => {
        await send();
        await reload();
        announcement.value = sentence;
        focusSoon('#view-title');
        return sentence;
      },
      {
        describeFailure: (failure: unknown) => {
          if (failure instanceof ApiError && ['ALREADY_DECIDED', 'MONTH_STATE', 'NOT_FOUND'].includes(failure.failure.code)) void reload();
          return undefined;
        },
      },
    );
  return { action, decide };
}

/** The submitted months, one row each: who, which month, when; Approve (one click), Return (with a comment, beside the month's figures), Show month. */
function MonthList(props: { months: WaitingMonth[]; reload: () => Promise<void>; onShow: (month: WaitingMonth, ask?: 'return') => void }) {
  const text = tl().approvals;
  const decision = tl().monthDecision;
  const { action, decide } = useDecision(props.reload);
  const approve = (month: WaitingMonth) =>
    decide(
      () => api('POST /api/users/:id/months/:month/approve', { params: { id: month.user.id, month: month.month }, body: {} }),
      decision.approvedMonth(month.user.full_name, fmt.month(month.month)),
    );
  return (
    <>
      <Notice error={action.error} info={action.info} errorRef={action.errorRef} />
      {props.months.length === 0 && <p>{text.noMonths}</p>}
      <ul class="entries waiting-months">
        {props.months.map((month) => {
          const person = month.user.full_name;
          const label = fmt.month(month.month);
          return (
            <li key={`${month.user.id}-${month.month}`} id={`waiting-month-${month.user.id}-${month.month}`}>
              <span class="entry-text">
                <strong>{person}</strong> · {label}
                {month.submitted_at && ` · ${text.submittedOn(fmt.dated(month.submitted_at))}`}
              </span>
              <span class="actions">
                <button type="button" disabled={action.busy} aria-label={decision.approveNamed(person, label)} onClick={() => void approve(month)}>
                  {decision.approve}
                </button>{' '}
                <button type="button" class="link" aria-label={decision.returnNamed(person, label)} onClick={() => props.onShow(month, 'return')}>
                  {decision.returnMonth}
                </button>{' '}
                <button type="button" class="link" aria-label={text.showMonthNamed(person, label)} onClick={() => props.onShow(month)}>
                  {text.showMonth}
                </button>
              </span>
            </li>
          );
        })}
      </ul>
    </>
  );
}

/** The waiting requests, one row each: who, what, the days, a note field, Approve and Reject (kept while empty: its sentences stay). */
function RequestList(props: { requests: LeaveRequest[]; reload: () => Promise<void> }) {
  const text = tl().approvals;
  const { action, decide: decideAndSay } = useDecision(props.reload);
  const [notes, setNotes] = useState<Record<number, string>>({});
  const decide = (request: LeaveRequest, step: 'approve' | 'reject') => {
    const note = notes[request.id]?.trim();
    const route = step === 'approve' ? 'POST /api/requests/:id/approve' : 'POST /api/requests/:id/reject';
    const person = request.person.full_name;
    return decideAndSay(
      () => api(route, { params: { id: request.id }, body: note ? { note } : {} }),
      step === 'approve' ? text.approved(person) : text.rejected(person),
    );
  };
  return (
    <>
      <Notice error={action.error} info={action.info} errorRef={action.errorRef} />
      {props.requests.length === 0 && <p>{text.noRequests}</p>}
      <ul class="entries waiting-requests">
        {props.requests.map((request) => {
          const dates = request.from === request.to ? fmt.day(request.from) : `${fmt.day(request.from)} – ${fmt.day(request.to)}`;
          const what = (request.state === 'cancel_requested' ? text.cancellation : text.vacation)(dates, text.days(request.days));
          const person = request.person.full_name;
          return (
            <li key={request.id} id={`waiting-request-${request.id}`}>
              <span class="entry-text">
                <strong>{person}</strong> · {what}
                {request.exceeds_allowance && <span class="warning"> · {text.exceeds}</span>}
              </span>
              <label class="field note-field">
                {text.noteLabel(person)}
                <input
                  type="text"
                  maxLength={1000}
                  value={notes[request.id] ?? ''}
                  onInput={(event) => setNotes({ ...notes, [request.id]: (event.target as HTMLInputElement).value })}
                />
              </label>
              <span class="actions">
                <button type="button" disabled={action.busy} aria-label={text.approveNamed(person, what)} onClick={() => void decide(request, 'approve')}>
                  {text.approve}
                </button>{' '}
                <button
                  type="button"
                  class="danger"
                  disabled={action.busy}
                  aria-label={text.rejectNamed(person, what)}
                  onClick={() => void decide(request, 'reject')}
                >
                  {text.reject}
                </button>
              </span>
            </li>
          );
        })}
      </ul>
    </>
  );
}
