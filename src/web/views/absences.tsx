// Absences: add a vacation, sick or holiday day (default today); remove one. Lists those from the shown week on.
import { DateTime } from 'luxon';
import { useState } from 'preact/hooks';
import type { Absence } from '../../http/contract.js';
import { api } from '../api.js';
import { t } from '../i18n/index.js';
import { announcement, fmt, focusSoon, shownWeek, useLoad, zone } from '../state.js';
import { Field, Notice, useAction } from '../ui.js';
import { todayIn } from '../week.js';
import { WeekNav } from './week-nav.js';

export function AbsencesView() {
  const text = t().absences;
  const names = t().week;
  const monday = shownWeek.value as string;
  const absences = useLoad(
    () => api<{ absences: Absence[] }>('GET', `/api/time-entries/absences?from=${monday}&to=${DateTime.fromISO(monday).plus({ years: 1 }).toISODate()}`),
    [monday],
  );
  const [date, setDate] = useState(todayIn(zone()));
  const [type, setType] = useState<Absence['type']>('vacation');
  const [note, setNote] = useState('');
  const action = useAction();
  const add = (event: Event) => {
    event.preventDefault();
    void action.run(async () => {
      const { absence } = await api<{ absence: Absence }>('POST', '/api/time-entries/absences', { date, type, note });
      setNote('');
      absences.reload();
      announcement.value = text.added(names[absence.type], fmt.day(absence.date));
    });
  };
  const remove = (id: number) =>
    action.run(async () => {
      await api('DELETE', `/api/time-entries/absences/${id}`);
      absences.reload();
      announcement.value = text.removed;
      focusSoon('#view-title');
    });
  return (
    <section aria-labelledby="view-title">
      <h2 id="view-title" tabIndex={-1}>{t().tabs.absences}</h2>
      <WeekNav />
      <Notice error={action.error ?? absences.error} errorRef={action.errorRef} />
      <form ref={action.formRef} onSubmit={add}>
        <Field label={text.date} name="date" type="date" value={date} onInput={setDate} error={action.fieldErrors.date} required />
        <div class="field">
          <label for="absence-type">{text.type}</label>
          <select id="absence-type" name="type" value={type} onChange={(event) => setType(event.currentTarget.value as Absence['type'])}>
            <option value="vacation">{names.vacation}</option>
            <option value="sick">{names.sick}</option>
            <option value="holiday">{names.holiday}</option>
          </select>
        </div>
        <Field label={text.note} name="note" value={note} onInput={setNote} error={action.fieldErrors.note} />
        <button type="submit" class="primary" disabled={action.busy}>{text.add}</button>
      </form>
      <h3>{text.fromThisWeek}</h3>
      <ul class="entries">
        {absences.data?.absences.length === 0 && <li>{text.none}</li>}
        {absences.data?.absences.map((absence) => (
          <li key={absence.id}>
            <span class="entry-text">{fmt.day(absence.date)} {DateTime.fromISO(absence.date).year} · {names[absence.type]}{absence.note && ` · ${absence.note}`}</span>
            <button type="button" disabled={action.busy} aria-label={text.removeNamed(names[absence.type], absence.date)} onClick={() => remove(absence.id)}>
              {text.remove}
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}
