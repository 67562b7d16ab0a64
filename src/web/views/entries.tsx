// Entries of the shown week, grouped by local day (an entry across midnight shows on both days) with the
// day totals of the week's figures (worked after the break deduction, as Week shows them): add by hand
// (date, start, end or a typed duration; ./entry-editor.tsx), edit in place, delete after a
// confirmation. Escape closes what is open.
// An entry changed or deleted on another device meanwhile is said in words, and the list reloads; a
// delete names the version it saw (`expected_updated_at`), so it never takes a change made elsewhere.
import { useState } from 'preact/hooks';
import type { Entry } from '../../http/contract.js';
import { api, ApiError } from '../api.js';
import { focusOnArrival } from '../focus.js';
import { language, t } from '../i18n/index.js';
import { announcement, fmt, focusSoon, shownWeek, useLoad, zone } from '../state.js';
import { Notice, useAction, useEscape } from '../ui.js';
import { localDateOf, shiftWeek, weekStartOf } from '../week.js';
import { piecesByDay, type EntryPiece } from './entry-days.js';
import { WeekNav } from './week-nav.js';
import { EntryEditor } from './entry-editor.js';

const isGone = (failure: unknown) => failure instanceof ApiError && failure.failure.code === 'NOT_FOUND';
const isChanged = (failure: unknown) => failure instanceof ApiError && failure.failure.code === 'ENTRY_CHANGED';

/** A day's total: the week's worked minutes of the day (after the break deduction), and the deduction. */
function DayTotal(props: { worked: number | null | undefined; deducted: number | null | undefined }) {
  const text = t().entries;
  if (props.worked === undefined || props.worked === null) return null;
  return (
    <span class="day-total">
      {text.dayTotal(fmt.minutes(props.worked))}
      {(props.deducted ?? 0) > 0 && ` · ${text.dayDeducted(fmt.minutes(props.deducted ?? 0))}`}
    </span>
  );
}

/** The piece of an entry begun the day before: its span and its minutes on this day; edited on its first day. */
function ContinuedLine(props: { entry: EntryPiece['entry']; minutes: number }) {
  const text = t().entries;
  return (
    <span class="entry-text">
      <span class="span">{fmt.span(props.entry.start_at, props.entry.end_at)}</span> <span class="duration">({fmt.minutes(props.minutes)})</span>{' '}
      <span class="note muted">{text.continued}</span>
    </span>
  );
}

/** An entry of the list: its span, duration (its piece of the day) and note; Edit and Delete, or the question before deleting. */

function EntryLine(props: {
  entry: Entry;
  minutes: number;
  confirming: boolean;
  busy: boolean;
  remove: () => void;
  keep: () => void;
  edit: () => void;
  confirm: () => void;
}) {
  const text = t().entries;
  const { entry } = props;
  const span = fmt.span(entry.start_at, entry.end_at);
  return (
    <>
      <span class="entry-text">
        <span class="span">{span}</span> <span class="duration">({fmt.minutes(props.minutes)})</span>
        {entry.note && <span class="note"> {entry.note}</span>}
      </span>
      {props.confirming ? (
        <span class="actions">
          {text.confirmDelete}
          <button type="button" class="danger" disabled={props.busy} onClick={props.remove}>
            {text.yesDelete}
          </button>
          <button type="button" class="keep" onClick={props.keep}>
            {text.keep}
          </button>
        </span>
      ) : (
        <span class="actions">
          <button type="button" aria-label={text.edit(span)} onClick={props.edit}>
            {text.editShort}
          </button>
          <button type="button" class="delete" aria-label={text.remove(span)} onClick={props.confirm}>
            {text.removeShort}
          </button>
        </span>
      )}
    </>
  );
}

/** Which entry is edited or asked about, and its deletion; an entry gone elsewhere closes both and reloads. */
function useEntryActions(reload: () => Promise<void>) {
  const text = t().entries;
  const [editing, setEditing] = useState<number>();
  const [confirming, setConfirming] = useState<number>();
  const action = useAction();
  useEscape(confirming !== undefined, () => (setConfirming(undefined), focusSoon(`#entry-${confirming} .delete`)));
  const gone = () => {
    setEditing(undefined);
    setConfirming(undefined);
    void reload();
  };
  // Deletes the entry as the line showed it: changed on another device since, it stays and the list shows it anew.
  const remove = (entry: Entry) =>
    action.run(
      async () => {
        await api('DELETE /api/time-entries/:id', { params: { id: entry.id }, query: { expected_updated_at: entry.updated_at } });
        setConfirming(undefined);
        await reload();
        announcement.value = text.deleted;
        focusSoon('#view-title');
      },
      {
        describeFailure: (failure) =>
          isGone(failure) ? (gone(), t().guard.entryGoneElsewhere) : isChanged(failure) ? (gone(), t().guard.entryChangedBeforeDelete) : undefined,
      },
    );
  return { editing, setEditing, confirming, setConfirming, action, gone, remove };
}

/** The week's entries, and its day rows: they carry each day's worked minutes and break deduction, the totals shown here. */
function useWeekEntries(monday: string) {
  return useLoad(async () => {
    const [found, week] = await Promise.all([
      api('GET /api/time-entries', { query: { from: monday, to: shiftWeek(monday, 1) } }),
      api('GET /api/stats/week', { query: { date: monday, lang: language.value } }),
    ]);
    return { ...found, week };
  }, [monday, language.value]);
}

export function EntriesView() {
  const text = t().entries;
  const monday = shownWeek.value as string;
  const entries = useWeekEntries(monday);
  const { editing, setEditing, confirming, setConfirming, action, gone, remove } = useEntryActions(entries.reload);
  const nowMs = Date.now();
  const list = entries.data?.entries ?? [];
  const days = piecesByDay(list, zone(), monday, shiftWeek(monday, 1), nowMs);
  const figures = new Map(entries.data?.week.days.map((day) => [day.date, day]));
  return (
    <section aria-labelledby="view-title">
      <h2 id="view-title" tabIndex={-1}>
        {t().tabs.entries}
      </h2>
      <WeekNav />
      <Notice error={action.error ?? entries.error} errorRef={action.errorRef} />
      {entries.data && list.length === 0 && <p>{text.none}</p>}
      {[...days].map(([date, pieces]) => (
        <section key={date} class="day" aria-labelledby={`day-${date}`}>
          <h3 id={`day-${date}`}>
            {fmt.day(date)} <DayTotal worked={figures.get(date)?.worked_minutes} deducted={figures.get(date)?.break_deducted_minutes} />
          </h3>
          <ul class="entries">
            {pieces.map(({ entry, minutes, continued }) => (
              <li key={entry.id} id={continued ? undefined : `entry-${entry.id}`} tabIndex={-1}>
                {continued ? (
                  <ContinuedLine entry={entry} minutes={minutes} />
                ) : editing === entry.id ? (
                  <EntryEditor
                    entry={entry}
                    entries={list}
                    onDone={() => (setEditing(undefined), void entries.reload(), focusSoon(`#entry-${entry.id}`))}
                    onGone={() => (gone(), action.fail(t().guard.entryGoneElsewhere))}
                  />
                ) : (
                  <EntryLine
                    entry={entry}
                    minutes={minutes}
                    confirming={confirming === entry.id}
                    busy={action.busy}
                    remove={() => remove(entry)}
                    keep={() => (setConfirming(undefined), focusSoon(`#entry-${entry.id} .delete`))}
                    edit={() => (setEditing(entry.id), focusSoon(`#entry-${entry.id} input`))}
                    confirm={() => (setConfirming(entry.id), focusSoon(`#entry-${entry.id} .keep`))}
                  />
                )}
              </li>
            ))}
          </ul>
        </section>
      ))}
      <h3>{text.add}</h3>
      {entries.data && (
        <EntryEditor
          entries={list}
          onDone={(added) => {
            if (!added) return;
            const addedWeek = localDateOf(added.start_at, zone());
            if (addedWeek >= monday && addedWeek < shiftWeek(monday, 1)) void entries.reload();
            else shownWeek.value = weekStartOf(addedWeek);
            // Focus on the result, the new entry's line, once the list shows it (the save button it
            // was on is disabled while saving, which leaves focus on the page).
            focusOnArrival(`#entry-${added.id}`);
          }}
        />
      )}
    </section>
  );
}
