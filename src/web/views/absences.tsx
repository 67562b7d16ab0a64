// Absences: the vacation figures of the year; add one day or a range (days without a target are left
// out by the server), whole or half. Lists those from the shown week on, one row per booking, each
// removed as it was booked (./absence-list.tsx).
import { DateTime } from 'luxon';
import { useState } from 'preact/hooks';
import type { Absence } from '../../http/contract.js';
import { api } from '../api.js';
import { language, t } from '../i18n/index.js';
import { announcement, fmt, shownWeek, useLoad, zone } from '../state.js';
import { Field, Notice, useAction, type Action } from '../ui.js';
import { todayIn } from '../week.js';
import { WeekNav } from './week-nav.js';
import { AbsenceList } from './absence-list.js';

function VacationFigures() {
  const text = t().absences;
  const year = Number(todayIn(zone()).slice(0, 4));
  const figures = useLoad(() => api('GET /api/stats/vacation', { query: { year } }), [year, announcement.value]);
  if (!figures.data) return null;
  const v = figures.data;
  const days = (value: number | null) => (value === null ? '–' : text.days(value).replace(/(\d)\.(\d)/, language.value === 'de' ? '$1,$2' : '$1.$2'));
  return (
    <>
      <h3>{text.vacationTitle(v.year)}</h3>
      <dl class="vacation">
        {v.allowance_days !== null && (
          <div>
            <dt>{text.allowance}</dt>
            <dd>{days(v.allowance_days)}</dd>
          </div>
        )}
        {v.carried_over_days !== null && (
          <div>
            <dt>{text.carriedOver}</dt>
            <dd>{days(v.carried_over_days)}</dd>
          </div>
        )}
        <div>
          <dt>{text.taken}</dt>
          <dd>{days(v.taken_days)}</dd>
        </div>
        <div>
          <dt>{text.planned}</dt>
          <dd>{days(v.planned_days)}</dd>
        </div>
        {v.remaining_days !== null && (
          <div>
            <dt>{text.remaining}</dt>
            <dd>{days(v.remaining_days)}</dd>
          </div>
        )}
      </dl>
      {v.allowance_days === null && <p class="quiet">{text.notTracked}</p>}
    </>
  );
}

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
  const add = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      const portion = half ? 'half' : 'full';
      if (mode === 'range') {
        const answer = await api('POST /api/time-entries/absences', { body: { from: date, to, type, portion, note } });
        if ('absences' in answer) announcement.value = text.addedRange(answer.absences.length);
      } else {
        const answer = await api('POST /api/time-entries/absences', { body: { date, type, portion, note } });
        if ('absence' in answer) announcement.value = text.added(names[answer.absence.type], fmt.day(answer.absence.date));
      }
      setNote('');
      await reload();
    });
  };
  return { mode, setMode, date, setDate, to, setTo, type, setType, half, setHalf, note, setNote, add };
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
      <button type="submit" class="primary" disabled={action.busy}>
        {text.add}
      </button>
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
