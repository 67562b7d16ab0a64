// Absences: the vacation figures of the year; add one day or a range (days without a target are left
// out by the server), whole or half. Lists those from the shown week on, one row per booking, each
// removed as it was booked (./absence-list.tsx).
import { DateTime } from 'luxon';
import { useState } from 'preact/hooks';
import type { Absence } from '../../http/contract.js';
import { api } from '../api.js';
import { Confirmation } from '../confirmation.js';
import { t } from '../i18n/index.js';
import { announcement, fmt, shownWeek, useLoad, zone } from '../state.js';
import { Field, Notice, useAction, type Action } from '../ui.js';
import { todayIn } from '../week.js';
import { VacationFigures, vacationWarning } from './vacation-figures.js';
import { WeekNav } from './week-nav.js';
import { AbsenceList } from './absence-list.js';

/** The add form's fields as typed, and the add itself (a day or a range). */
function useAbsenceForm(action: Action, reload: () => Promise<void>) {
  const text = t().absences;
  const names = t().week;
  const [mode, setMode] = useState<'single' | 'range'>('single');
  const [date, setDate] = useState(todayIn(zone()));
  const [to, setTo] = useState(todayIn(zone()));
  const [type, setType] = useState<Absence['type']>('vacation');
  const [half, setHalf] = useState(false);
  const [note, setNote] = useState('');
  // A vacation beyond what remains is asked about once: the same booking submitted again is saved.
  const [warning, setWarning] = useState<{ key: string; text: string }>();
  const key = JSON.stringify([mode, date, mode === 'range' ? to : date, type, half]);
  const add = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      const portion = half ? 'half' : 'full';
      if (type === 'vacation' && warning?.key !== key) {
        const exceeds = await vacationWarning({ from: date, to: mode === 'range' ? to : date, portion });
        if (exceeds !== undefined) return setWarning({ key, text: exceeds });
      }
      setWarning(undefined);
      const answer =
        mode === 'range'
          ? await api('POST /api/time-entries/absences', { body: { from: date, to, type, portion, note } })
          : await api('POST /api/time-entries/absences', { body: { date, type, portion, note } });
      const added = 'absences' in answer ? text.addedRange(answer.absences.length) : text.added(names[answer.absence.type], fmt.day(answer.absence.date));
      const said = answer.exceeds_allowance ? `${added} ${t().vacation.exceeded}` : added;
      announcement.value = said;
      setNote('');
      await reload();
      // Also shown under the button: the booked days may lie outside the list's weeks.
      return said;
    });
  };
  const shownWarning = warning?.key === key ? warning.text : undefined;
  return { mode, setMode, date, setDate, to, setTo, type, setType, half, setHalf, note, setNote, add, warning: shownWarning };
}

/** The add form: a day or a range, the type, half a day, a note. */
function AbsenceForm(props: { action: Action; form: ReturnType<typeof useAbsenceForm> }) {
  const text = t().absences;
  const names = t().week;
  const { action, form } = props;
  const { mode, setMode } = form;
  return (
    <form ref={action.formRef} onSubmit={form.add}>
      <fieldset>
        <legend>
          {text.single} / {text.range}
        </legend>
        <label>
          <input type="radio" name="mode" checked={mode === 'single'} onChange={() => setMode('single')} /> {text.single}
        </label>{' '}
        <label>
          <input type="radio" name="mode" checked={mode === 'range'} onChange={() => setMode('range')} /> {text.range}
        </label>
      </fieldset>
      <Field
        label={mode === 'range' ? text.from : text.date}
        name={mode === 'range' ? 'from' : 'date'}
        type="date"
        value={form.date}
        onInput={form.setDate}
        error={action.fieldErrors[mode === 'range' ? 'from' : 'date']}
        required
      />
      {mode === 'range' && (
        <Field label={text.to} name="to" type="date" value={form.to} onInput={form.setTo} error={action.fieldErrors.to} hint={text.rangeHint} required />
      )}
      <div class="field">
        <label for="absence-type">{text.type}</label>
        <select id="absence-type" name="type" value={form.type} onChange={(event) => form.setType(event.currentTarget.value as Absence['type'])}>
          <option value="vacation">{names.vacation}</option>
          <option value="sick">{names.sick}</option>
          <option value="holiday">{names.holiday}</option>
        </select>
      </div>
      <div class="field">
        <label>
          <input type="checkbox" name="portion" checked={form.half} onChange={(event) => form.setHalf(event.currentTarget.checked)} /> {text.halfDay}
        </label>
      </div>
      <Field label={text.note} name="note" value={form.note} onInput={form.setNote} error={action.fieldErrors.note} />
      {form.warning !== undefined && (
        <p id="vacation-warning" class="notice error" role="alert">
          {form.warning}
        </p>
      )}
      <button type="submit" class="primary" disabled={action.busy}>
        {form.warning === undefined ? text.add : t().vacation.addAnyway}
      </button>
      {/* Seen where the person acted, and focused: the button was disabled while it ran, so focus would fall to the body. */}
      <Confirmation id="absence-added" text={action.info} />
    </form>
  );
}

export function AbsencesView() {
  const monday = shownWeek.value as string;
  const absences = useLoad(
    () => api('GET /api/time-entries/absences', { query: { from: monday, to: DateTime.fromISO(monday).plus({ years: 1 }).toISODate() as string } }),
    [monday],
  );
  const action = useAction();
  const form = useAbsenceForm(action, absences.reload);
  return (
    <section aria-labelledby="view-title">
      <h2 id="view-title" tabIndex={-1}>
        {t().tabs.absences}
      </h2>
      <VacationFigures />
      <WeekNav />
      <Notice error={action.error ?? absences.error} errorRef={action.errorRef} />
      <AbsenceForm action={action} form={form} />
      <AbsenceList absences={absences.data?.absences} action={action} reload={absences.reload} />
    </section>
  );
}
