// The absences from the shown week on, one row per booking (the days one POST wrote share a
// request_id): a row shows what was booked, and Remove takes exactly that. One day goes at once,
// with an undo for 10 seconds; several days are asked about first (docs/web-client.md). A leave request
// (docs/teams.md, "Leave requests") shows its state and the lead's note instead: Withdraw while it
// waits, Request cancellation (asked first) once approved.
import { DateTime } from 'luxon';
import { useState } from 'preact/hooks';
import type { Absence } from '../../http/contract.js';
import { api, ApiError } from '../api.js';
import { ConfirmBar, UndoBar, useUndo } from '../guard.js';
import { t } from '../i18n/index.js';
import { announcement, fmt, focusSoon } from '../state.js';
import type { Action } from '../ui.js';

/** Absences in date order grouped by booking (request_id), each group in date order, the groups by their first day. */
export function groupBookings(absences: Absence[]): Absence[][] {
  const groups = new Map<number, Absence[]>();
  for (const absence of absences) groups.set(absence.request_id, [...(groups.get(absence.request_id) ?? []), absence]);
  return [...groups.values()].sort((a, b) => (a[0]!.date < b[0]!.date ? -1 : 1));
}

interface RowProps {
  group: Absence[];
  busy: boolean;
  confirming: boolean;
  onRemove: () => void;
  onConfirm: () => void;
  onKeep: () => void;
  onStep: (step: 'withdraw' | 'cancel') => void;
}

/** A leave request's row ends with its step: Withdraw while it waits, Request cancellation (asked first) once approved, nothing while a cancellation waits. */
function RequestActions(props: RowProps & { state: 'requested' | 'approved' | 'cancel_requested' }) {
  const text = t().absences;
  const first = props.group[0]!;
  if (props.state === 'cancel_requested') return null;
  if (props.state === 'requested') {
    return (
      <button type="button" class="withdraw" disabled={props.busy} aria-label={text.withdrawNamed(first.date)} onClick={() => props.onStep('withdraw')}>
        {text.withdraw}
      </button>
    );
  }
  return props.confirming ? (
    <ConfirmBar question={text.cancelQuestion} yes={text.requestCancel} busy={props.busy} onYes={() => props.onStep('cancel')} onKeep={props.onKeep} />
  ) : (
    <button type="button" class="remove" disabled={props.busy} aria-label={text.requestCancelNamed(first.date)} onClick={props.onConfirm}>
      {text.requestCancel}
    </button>
  );
}

/** A booking of the list: its day or days, the kind, the note; Remove, or the question before removing several days. */
function AbsenceRow(props: RowProps) {
  const text = t().absences;
  const names = t().week;
  const kind = (absence: Absence) => `${names[absence.type]}${absence.portion === 'half' ? ` (${t().month.half})` : ''}`;
  const first = props.group[0]!;
  const last = props.group.at(-1)!;
  const single = props.group.length === 1;
  const state = first.state;
  return (
    <li id={`booking-${first.request_id}`}>
      <span class="entry-text">
        {fmt.day(first.date)} {DateTime.fromISO(first.date).year}
        {!single && ` – ${fmt.day(last.date)} (${text.days(props.group.length)})`} · {kind(first)}
        {first.note && ` · ${first.note}`}
        {state !== 'booked' && <span class="request-state"> · {text.state[state]}</span>}
        {first.decision_note && <span class="lead-note"> · {text.leadNote(first.decision_note)}</span>}
      </span>
      {state !== 'booked' ? (
        <RequestActions {...props} state={state} />
      ) : props.confirming ? (
        <ConfirmBar
          question={t().guard.removeDays(props.group.length)}
          yes={t().guard.yesRemove}
          busy={props.busy}
          onYes={props.onRemove}
          onKeep={props.onKeep}
        />
      ) : (
        <button
          type="button"
          class="remove"
          disabled={props.busy}
          aria-label={single ? text.removeNamed(names[first.type], first.date) : text.removeRange(names[first.type], first.date, last.date)}
          onClick={single ? props.onRemove : props.onConfirm}
        >
          {text.remove}
        </button>
      )}
    </li>
  );
}

/** The list with its removal: one DELETE of the booking; one day can be undone (booked again as it was). */
export function AbsenceList(props: { absences: Absence[] | undefined; action: Action; reload: () => Promise<void> }) {
  const text = t().absences;
  const { action, reload } = props;
  const undo = useUndo();
  const [confirming, setConfirming] = useState<number>();
  const remove = (group: Absence[]) =>
    action.run(
      async () => {
        const { absences } = await api('DELETE /api/time-entries/absences/requests/:id', { params: { id: group[0]!.request_id } });
        setConfirming(undefined);
        await reload();
        if (absences.length !== 1) {
          undo.clear();
          announcement.value = text.removedRange(absences.length);
          focusSoon('#view-title');
          return;
        }
        const [day] = absences as [Absence];
        undo.offerUndo(text.removed, async () => {
          await api('POST /api/time-entries/absences', { body: { date: day.date, type: day.type, portion: day.portion, note: day.note } });
          await reload();
        });
      },
      {
        describeFailure: (failure) =>
          failure instanceof ApiError && failure.failure.code === 'NOT_FOUND' ? (void reload(), t().guard.absenceGoneElsewhere) : undefined,
      },
    );
  const step = (group: Absence[], which: 'withdraw' | 'cancel') =>
    action.run(async () => {
      await api(which === 'withdraw' ? 'POST /api/requests/:id/withdraw' : 'POST /api/requests/:id/cancel', { params: { id: group[0]!.request_id } });
      setConfirming(undefined);
      await reload();
      announcement.value = which === 'withdraw' ? text.withdrawn : text.cancelRequested;
      focusSoon('#view-title');
    });
  const groups = groupBookings(props.absences ?? []);
  return (
    <>
      <h3>{text.fromThisWeek}</h3>
      <UndoBar undo={undo} action={action} />
      <ul class="entries absences">
        {groups.length === 0 && props.absences && <li>{text.none}</li>}
        {groups.map((group) => {
          const id = group[0]!.request_id;
          return (
            <AbsenceRow
              key={id}
              group={group}
              busy={action.busy}
              confirming={confirming === id}
              onRemove={() => void remove(group)}
              onConfirm={() => (setConfirming(id), focusSoon(`#booking-${id} .keep`))}
              onKeep={() => (setConfirming(undefined), focusSoon(`#booking-${id} .remove`))}
              onStep={(which) => void step(group, which)}
            />
          );
        })}
      </ul>
    </>
  );
}
