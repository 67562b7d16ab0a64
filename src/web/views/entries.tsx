// Entries of the shown week, grouped by local day (an entry across midnight shows on both days) with the
// day totals of the week's figures (worked after the break deduction, as Week shows them): add by hand
// (date, start, end or a typed duration), edit in place, delete after a confirmation. Escape closes what is open.
import { DateTime } from 'luxon';
import { useState } from 'preact/hooks';
import type { Entry } from '../../http/contract.js';
import { api, ApiError } from '../api.js';
import { parseDuration } from '../duration.js';
import { t } from '../i18n/index.js';
import { announcement, fmt, focusSoon, shownWeek, useLoad, zone } from '../state.js';
import { Field, Notice, useAction, useEscape } from '../ui.js';
import { addDays, instantOf, localDateOf, partsOf, shiftWeek, todayIn, weekStartOf } from '../week.js';
import { piecesByDay, type EntryPiece } from './entry-days.js';
import { WeekNav } from './week-nav.js';

/** A sensible start for a new entry on `date`: the end of that day's last entry, else now (to the quarter hour) on today, else 09:00. */
function defaultStart(date: string, entries: Entry[]): string {
  const ends = entries
    .filter((entry) => entry.end_at && localDateOf(entry.end_at, zone()) === date)
    .map((entry) => entry.end_at as string)
    .sort();
  const last = ends[ends.length - 1];
  if (last) return partsOf(last, zone()).time;
  if (date !== todayIn(zone())) return '09:00';
  const now = DateTime.now().setZone(zone());
  return now.set({ minute: now.minute - (now.minute % 15) }).toFormat('HH:mm');
}

/** An overlap refused by the server, as the sentence naming the entry in the way. */
const describeOverlap = (failure: unknown) =>
  failure instanceof ApiError && failure.failure.code === 'OVERLAP' && failure.failure.entry
    ? t().overlapWith(
        `${fmt.day(localDateOf(failure.failure.entry.start_at, zone()))} ${fmt.span(failure.failure.entry.start_at, failure.failure.entry.end_at)}`,
      )
    : undefined;

function EntryEditor(props: { entry?: Entry; entries: Entry[]; onDone: (entry?: Entry) => void }) {
  const text = t().entries;
  const initial = props.entry ? partsOf(props.entry.start_at, zone()) : { date: todayIn(zone()), time: '' };
  const [date, setDate] = useState(initial.date);
  const [start, setStart] = useState(props.entry ? initial.time : () => defaultStart(initial.date, props.entries));
  const [end, setEnd] = useState(props.entry?.end_at ? partsOf(props.entry.end_at, zone()).time : '');
  const [duration, setDuration] = useState('');
  const [note, setNote] = useState(props.entry?.note ?? '');
  const action = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    const startAt = instantOf(date, start, zone());
    if (!startAt) return action.fail(text.needStart, date ? 'start_at' : 'date');
    let endAt: string | null = null;
    if (end) {
      // An end before the start is on the next day (a night shift).
      const sameDay = instantOf(date, end, zone());
      if (!sameDay) return action.fail(t().fields.end_at, 'end_at');
      endAt = sameDay > startAt ? sameDay : (instantOf(addDays(date, 1), end, zone()) as string);
    } else if (duration.trim()) {
      const minutes = parseDuration(duration);
      if (minutes === undefined || minutes <= 0) return action.fail(text.badDuration, 'duration');
      endAt = DateTime.fromISO(startAt).plus({ minutes }).toUTC().toISO() as string;
    }
    const body = { start_at: startAt, end_at: endAt, note };
    void action.run(
      async () => {
        const { entry } = props.entry
          ? await api('PATCH /api/time-entries/:id', { params: { id: props.entry.id }, body })
          : await api('POST /api/time-entries', { body });
        const span = fmt.span(entry.start_at, entry.end_at);
        announcement.value = props.entry ? text.saved(span) : text.added(span);
        if (!props.entry) {
          setEnd('');
          setDuration('');
          setNote('');
          setStart(defaultStart(date, [...props.entries, entry]));
        }
        props.onDone(entry);
      },
      { describeFailure: describeOverlap },
    );
  };
  return (
    <form
      class="entry-form"
      ref={action.formRef}
      onSubmit={submit}
      onKeyDown={(event) => props.entry && event.key === 'Escape' && (event.preventDefault(), props.onDone())}
    >
      <Notice error={action.error} errorRef={action.errorRef} />
      <Field label={text.date} name="date" type="date" value={date} onInput={setDate} error={action.fieldErrors.date} required />
      <Field label={text.startTime} name="start_at" type="time" value={start} onInput={setStart} error={action.fieldErrors.start_at} required />
      <Field label={text.endTime} name="end_at" type="time" value={end} onInput={setEnd} error={action.fieldErrors.end_at} hint={text.endHint} />
      <Field
        label={text.duration}
        name="duration"
        value={duration}
        onInput={setDuration}
        error={action.fieldErrors.duration}
        hint={text.durationHint}
        inputMode="text"
      />
      <Field label={text.noteField} name="note" value={note} onInput={setNote} error={action.fieldErrors.note} />
      <div class="actions">
        <button type="submit" class="primary" disabled={action.busy}>
          {props.entry ? text.saveEntry : text.addEntry}
        </button>
        {props.entry && (
          <button type="button" onClick={() => props.onDone()}>
            {text.cancel}
          </button>
        )}
      </div>
    </form>
  );
}

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

/** The week's entries, and its day rows: they carry each day's worked minutes and break deduction, the totals shown here. */
function useWeekEntries(monday: string) {
  return useLoad(async () => {
    const [found, week] = await Promise.all([
      api('GET /api/time-entries', { query: { from: monday, to: shiftWeek(monday, 1) } }),
      api('GET /api/stats/week', { query: { date: monday } }),
    ]);
    return { ...found, week };
  }, [monday]);
}

export function EntriesView() {
  const text = t().entries;
  const monday = shownWeek.value as string;
  const entries = useWeekEntries(monday);
  const [editing, setEditing] = useState<number>();
  const [confirming, setConfirming] = useState<number>();
  const action = useAction();
  const nowMs = Date.now();
  useEscape(confirming !== undefined, () => (setConfirming(undefined), focusSoon(`#entry-${confirming} .delete`)));
  const remove = (id: number) =>
    action.run(async () => {
      await api('DELETE /api/time-entries/:id', { params: { id } });
      setConfirming(undefined);
      await entries.reload();
      announcement.value = text.deleted;
      focusSoon('#view-title');
    });
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
                    onDone={(saved) => (setEditing(undefined), saved && void entries.reload(), focusSoon(`#entry-${entry.id}`))}
                  />
                ) : (
                  <EntryLine
                    entry={entry}
                    minutes={minutes}
                    confirming={confirming === entry.id}
                    busy={action.busy}
                    remove={() => remove(entry.id)}
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
          }}
        />
      )}
    </section>
  );
}
