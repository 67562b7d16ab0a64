// The entry editor of Entries: date, start, an end or a typed duration, a note. Before saving it asks
// once about what looks like a slip (../plausibility.ts, ./entry-question.tsx). A save names the version
// it replaces (`expected_updated_at`): an entry changed on another device meanwhile fills the fields with
// what it holds now and says so, and the next save replaces it; one deleted there is said in words (`onGone`).
import { DateTime } from 'luxon';
import { useRef, useState } from 'preact/hooks';
import type { Entry } from '../../http/contract.js';
import { api, ApiError } from '../api.js';
import { parseDuration } from '../duration.js';
import { language, t } from '../i18n/index.js';
import { dayDoubt, timeDoubt, type Doubt } from '../plausibility.js';
import { announcement, fmt, zone } from '../state.js';
import { Field, Notice, useAction, type Action } from '../ui.js';
import { addDays, instantOf, localDateOf, partsOf, todayIn } from '../week.js';
import { EntryQuestion } from './entry-question.js';

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

/** The public holiday or absence of `date`, from the week statistics (a failure asks nothing). */
async function dayOf(date: string) {
  try {
    const week = await api('GET /api/stats/week', { query: { date, lang: language.value } });
    return 'days' in week ? week.days.find((day) => day.date === date) : undefined;
  } catch {
    return undefined;
  }
}

/** A typed time in the client's way of writing it (9:00 AM), or as typed when it is not one. */
function shownTime(date: string, time: string): string {
  const instant = time ? instantOf(date, time, zone()) : undefined;
  return instant ? fmt.time(instant) : time;
}

type EditorProps = { entry?: Entry; entries: Entry[]; onDone: (entry?: Entry) => void; onGone?: () => void };

/** ENTRY_CHANGED: the entry as another device left it (docs/api.md), if the failure is one. */
const changedMeanwhile = (failure: unknown) =>
  failure instanceof ApiError && failure.failure.code === 'ENTRY_CHANGED' && failure.failure.entry?.updated_at ? failure.failure.entry : undefined;

/** The typed times of an entry as the instants to save, or the field at fault (reported by the action). */
function instantsOf(action: Action, date: string, start: string, end: string, durationText: string) {
  const text = t().entries;
  const startAt = instantOf(date, start, zone());
  if (!startAt) return action.fail(text.needStart, date ? 'start_at' : 'date');
  let endAt: string | null = null;
  if (end) {
    // An end before the start is on the next day (a night shift).
    const sameDay = instantOf(date, end, zone());
    if (!sameDay) return action.fail(t().fields.end_at, 'end_at');
    endAt = sameDay > startAt ? sameDay : (instantOf(addDays(date, 1), end, zone()) as string);
  } else if (durationText.trim()) {
    const minutes = parseDuration(durationText);
    if (minutes === undefined || minutes <= 0) return action.fail(text.badDuration, 'duration');
    endAt = DateTime.fromISO(startAt).plus({ minutes }).toUTC().toISO() as string;
  }
  return { startAt, endAt };
}

/**
 * The typed fields, and the version of the entry they were filled from (`seen`): a save replaces only
 * that version (ENTRY_CHANGED otherwise). `fillFrom` shows what another device saved and takes its version.
 */
function useEntryFields(props: EditorProps) {
  const initial = props.entry ? partsOf(props.entry.start_at, zone()) : { date: todayIn(zone()), time: '' };
  const [date, setDate] = useState(initial.date);
  const [start, setStart] = useState(props.entry ? initial.time : () => defaultStart(initial.date, props.entries));
  const [end, setEnd] = useState(props.entry?.end_at ? partsOf(props.entry.end_at, zone()).time : '');
  const [duration, setDuration] = useState('');
  const [note, setNote] = useState(props.entry?.note ?? '');
  const [seen, setSeen] = useState(props.entry?.updated_at);
  const fillFrom = (current: NonNullable<ReturnType<typeof changedMeanwhile>>) => {
    const parts = partsOf(current.start_at, zone());
    setDate(parts.date);
    setStart(parts.time);
    setEnd(current.end_at ? partsOf(current.end_at, zone()).time : '');
    setDuration('');
    setNote(current.note ?? '');
    setSeen(current.updated_at);
  };
  return { initial, date, setDate, start, setStart, end, setEnd, duration, setDuration, note, setNote, seen, fillFrom };
}

/** The fields, the doubt asked about, and the save (which asks first when something looks like a slip). */
function useEntryForm(props: EditorProps) {
  const text = t().entries;
  const fields = useEntryFields(props);
  const { initial, date, start, end, setEnd, duration, setDuration, note, setNote, setStart, seen } = fields;
  const [doubt, setDoubt] = useState<Doubt>();
  // The doubts confirmed for what is typed now; typing again asks again.
  const confirmed = useRef(new Set<Doubt['kind']>());
  const action = useAction();
  const typing = (set: (value: string) => void) => (value: string) => {
    confirmed.current.clear();
    setDoubt(undefined);
    set(value);
  };
  const submit = (event?: Event, durationText = duration) => {
    event?.preventDefault();
    const instants = instantsOf(action, date, start, end, durationText);
    if (!instants) return;
    const { startAt, endAt } = instants;
    const minutes = endAt === null ? null : Math.round((Date.parse(endAt) - Date.parse(startAt)) / 60_000);
    const doubtOfTimes = timeDoubt({ end, start, duration: durationText, minutes }, confirmed.current);
    if (doubtOfTimes) return setDoubt(doubtOfTimes);
    const body = { start_at: startAt, end_at: endAt, note };
    // Changed on another device: the fields show what it holds now, and the next save replaces that.
    const showCurrent = (current: NonNullable<ReturnType<typeof changedMeanwhile>>) => (
      fields.fillFrom(current),
      confirmed.current.clear(),
      t().guard.entryChangedElsewhere
    );
    void action.run(
      async () => {
        if (!props.entry || date !== initial.date) {
          const doubtOfDay = dayDoubt(await dayOf(date), confirmed.current);
          if (doubtOfDay) return setDoubt(doubtOfDay);
        }
        const { entry } = props.entry
          ? await api('PATCH /api/time-entries/:id', { params: { id: props.entry.id }, body: { ...body, expected_updated_at: seen } })
          : await api('POST /api/time-entries', { body });
        const span = fmt.span(entry.start_at, entry.end_at);
        announcement.value = props.entry ? text.saved(span) : text.added(span);
        confirmed.current.clear();
        if (!props.entry) {
          setEnd('');
          setDuration('');
          setNote('');
          setStart(defaultStart(date, [...props.entries, entry]));
        }
        props.onDone(entry);
      },
      {
        describeFailure: (failure) => {
          if (props.onGone && failure instanceof ApiError && failure.failure.code === 'NOT_FOUND') props.onGone();
          const current = changedMeanwhile(failure);
          return current ? showCurrent(current) : describeOverlap(failure);
        },
      },
    );
  };
  const confirm = (reading?: 'minutes' | 'hours') => {
    if (!doubt) return;
    confirmed.current.add(doubt.kind);
    // "45 hours" is meant to be long; "45 minutes" is typed as such.
    if (reading === 'hours') confirmed.current.add('long');
    const durationText = reading === 'minutes' ? `${duration.trim()} min` : duration;
    if (reading === 'minutes') setDuration(durationText);
    setDoubt(undefined);
    submit(undefined, durationText);
  };
  const goBack = () => {
    const field = doubt?.field;
    setDoubt(undefined);
    if (field) action.formRef.current?.querySelector<HTMLElement>(`[name="${field}"]`)?.focus();
  };
  return { fields, typing, doubt, action, submit, confirm, goBack };
}

export function EntryEditor(props: EditorProps) {
  const text = t().entries;
  const { fields, typing, doubt, action, submit, confirm, goBack } = useEntryForm(props);
  const { date, setDate, start, setStart, end, setEnd, duration, setDuration, note, setNote } = fields;
  return (
    <form
      class="entry-form"
      ref={action.formRef}
      onSubmit={submit}
      onKeyDown={(event) => props.entry && !doubt && event.key === 'Escape' && (event.preventDefault(), props.onDone())}
    >
      <Notice error={action.error} errorRef={action.errorRef} />
      <Field label={text.date} name="date" type="date" value={date} onInput={typing(setDate)} error={action.fieldErrors.date} required />
      <Field label={text.startTime} name="start_at" type="time" value={start} onInput={typing(setStart)} error={action.fieldErrors.start_at} required />
      <Field label={text.endTime} name="end_at" type="time" value={end} onInput={typing(setEnd)} error={action.fieldErrors.end_at} hint={text.endHint} />
      <Field
        label={text.duration}
        name="duration"
        value={duration}
        onInput={typing(setDuration)}
        error={action.fieldErrors.duration}
        hint={text.durationHint}
        inputMode="text"
      />
      <Field label={text.noteField} name="note" value={note} onInput={setNote} error={action.fieldErrors.note} />
      {doubt && (
        <EntryQuestion doubt={doubt} start={shownTime(date, start)} end={shownTime(date, end)} busy={action.busy} onConfirm={confirm} onChange={goBack} />
      )}
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
