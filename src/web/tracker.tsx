// The signed-in page "/": Today, Week, Entries, Absences and Settings of the shown week.
import { signal } from '@preact/signals';
import { DateTime } from 'luxon';
import { useEffect, useMemo, useState } from 'preact/hooks';
import { api, describe, downloadExport, endSession } from './api.js';
import { formatBalance, formatMinutes, formatTimer, parseDuration } from './duration.js';
import { Field, Notice } from './ui.js';
import { fromLocalInput, shiftWeek, toLocalInput, todayIn, weekDates, weekStartOf } from './week.js';

interface Settings {
  timezone: string;
  weekly_target_minutes: Record<Weekday, number>;
  holiday_region: string | null;
  overtime_offset_minutes: number;
  tracking_start: string;
}
type Weekday = 'mon' | 'tue' | 'wed' | 'thu' | 'fri' | 'sat' | 'sun';
const WEEKDAYS: Weekday[] = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'];
interface Entry {
  id: number;
  start_at: string;
  end_at: string | null;
  note: string;
}
interface Absence {
  id: number;
  date: string;
  type: 'vacation' | 'sick' | 'holiday';
  note: string;
}
interface WeekDay {
  date: string;
  target_minutes: number;
  worked_minutes: number;
  balance_minutes: number;
  absence: string | null;
  public_holiday: string | null;
}
interface WeekStats {
  week_start: string;
  days: WeekDay[];
  totals: { target_minutes: number; worked_minutes: number; balance_minutes: number };
}
interface TodayStats {
  target_minutes: number;
  worked_minutes: number;
  remaining_minutes: number;
  running: boolean;
  end_of_work: string | null;
  adjusted_end_of_work: string | null;
}

const TABS = [
  ['today', 'Today'],
  ['week', 'Week'],
  ['entries', 'Entries'],
  ['absences', 'Absences'],
  ['settings', 'Settings'],
] as const;
type Tab = (typeof TABS)[number][0];

function tabOfHash(): Tab {
  const name = location.hash.slice(1);
  return (TABS.find(([tab]) => tab === name)?.[0] ?? 'today') as Tab;
}
const tab = signal<Tab>(tabOfHash());
addEventListener('hashchange', () => (tab.value = tabOfHash()));

const settings = signal<Settings | undefined>(undefined);
/** A date inside the week that Week, Entries and Absences show. */
const shownWeek = signal<string | undefined>(undefined);
const zone = () => settings.value?.timezone ?? 'UTC';

const time = (instant: string | null) => (instant ? DateTime.fromISO(instant, { zone: zone() }).toLocaleString(DateTime.TIME_SIMPLE) : '–');
const dateTime = (instant: string) => DateTime.fromISO(instant, { zone: zone() }).toLocaleString(DateTime.DATETIME_MED);
const day = (date: string) => DateTime.fromISO(date).toLocaleString({ weekday: 'short', day: 'numeric', month: 'short' });
const ABSENCE_NAMES: Record<string, string> = { vacation: 'Vacation', sick: 'Sick', holiday: 'Holiday' };

/** Loads with `load` whenever `key` changes; `reload` fetches again after a change. */
function useLoad<T>(load: () => Promise<T>, key: unknown[]) {
  const [data, setData] = useState<T>();
  const [error, setError] = useState<string>();
  const [version, setVersion] = useState(0);
  useEffect(() => {
    let current = true;
    load().then(
      (value) => current && (setData(value), setError(undefined)),
      (failure) => current && setError(describe(failure)),
    );
    return () => {
      current = false;
    };
  }, [...key, version]);
  return { data, error, reload: () => setVersion((v) => v + 1) };
}

function WeekNav() {
  const monday = shownWeek.value as string;
  const label = `${day(monday)} – ${day(weekDates(monday)[6] as string)}`;
  return (
    <div class="week-nav">
      <button type="button" onClick={() => (shownWeek.value = shiftWeek(monday, -1))}>Previous week</button>
      <span aria-live="polite">{label}</span>
      <button type="button" onClick={() => (shownWeek.value = shiftWeek(monday, 1))}>Next week</button>
      <button type="button" onClick={() => (shownWeek.value = weekStartOf(todayIn(zone())))}>This week</button>
    </div>
  );
}

function TodayView() {
  const [note, setNote] = useState('');
  const [actionError, setActionError] = useState<string>();
  const [now, setNow] = useState(Date.now());
  const loaded = useLoad(
    async () =>
      Promise.all([
        api<TodayStats>('GET', '/api/stats/today'),
        api<{ entry: Entry | null }>('GET', '/api/time-entries/current'),
        api<{ balance_minutes: number }>('GET', '/api/stats/overtime'),
        Date.now(),
      ]),
    [],
  );
  const [today, current, overtime, loadedAt] = loaded.data ?? [];
  const running = current?.entry ?? null;
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [running]);
  const act = async (path: string, body?: unknown) => {
    setActionError(undefined);
    try {
      await api('POST', path, body);
      if (path.endsWith('start')) setNote('');
      loaded.reload();
    } catch (failure) {
      setActionError(describe(failure));
    }
  };
  const sinceLoad = running && loadedAt ? Math.max(0, Math.floor((now - loadedAt) / 60_000)) : 0;
  return (
    <section aria-labelledby="today-title">
      <h2 id="today-title">Today</h2>
      <Notice error={actionError ?? loaded.error} />
      <div class="timer">
        {running ? (
          <>
            <p class="elapsed" aria-label="Running time">{formatTimer(now - Date.parse(running.start_at))}</p>
            <p>Started at {time(running.start_at)}{running.note ? ` · ${running.note}` : ''}</p>
            <button type="button" class="big stop" onClick={() => act('/api/time-entries/stop')}>Stop</button>
          </>
        ) : (
          <form onSubmit={(event) => (event.preventDefault(), act('/api/time-entries/start', note.trim() ? { note: note.trim() } : {}))}>
            <Field label="Note (optional)" value={note} onInput={setNote} />
            <button type="submit" class="big start" disabled={!loaded.data}>Start</button>
          </form>
        )}
      </div>
      {today && (
        <dl class="figures">
          <div><dt>Worked</dt><dd>{formatMinutes(today.worked_minutes + sinceLoad)}</dd></div>
          <div><dt>Target</dt><dd>{formatMinutes(today.target_minutes)}</dd></div>
          <div><dt>Remaining</dt><dd>{formatMinutes(Math.max(0, today.remaining_minutes - sinceLoad))}</dd></div>
          <div><dt>End of work</dt><dd>{time(today.end_of_work)}</dd></div>
          <div><dt>Adjusted end of work</dt><dd>{time(today.adjusted_end_of_work)}</dd></div>
          <div><dt>Overtime balance</dt><dd>{overtime ? formatBalance(overtime.balance_minutes) : '–'}</dd></div>
        </dl>
      )}
    </section>
  );
}

function WeekView() {
  const week = useLoad(() => api<WeekStats>('GET', `/api/stats/week?date=${shownWeek.value}`), [shownWeek.value]);
  return (
    <section aria-labelledby="week-title">
      <h2 id="week-title">Week</h2>
      <WeekNav />
      <Notice error={week.error} />
      {week.data && (
        <div class="scroll">
          <table>
            <thead>
              <tr><th scope="col">Day</th><th scope="col">Target</th><th scope="col">Worked</th><th scope="col">Balance</th><th scope="col">Absence or holiday</th></tr>
            </thead>
            <tbody>
              {week.data.days.map((d) => (
                <tr key={d.date} class={d.absence || d.public_holiday ? 'off' : undefined}>
                  <th scope="row">{day(d.date)}</th>
                  <td>{formatMinutes(d.target_minutes)}</td>
                  <td>{formatMinutes(d.worked_minutes)}</td>
                  <td>{formatBalance(d.balance_minutes)}</td>
                  <td>{[d.absence ? ABSENCE_NAMES[d.absence] ?? d.absence : '', d.public_holiday ?? ''].filter(Boolean).join(' · ')}</td>
                </tr>
              ))}
            </tbody>
            <tfoot>
              <tr>
                <th scope="row">Total</th>
                <td>{formatMinutes(week.data.totals.target_minutes)}</td>
                <td>{formatMinutes(week.data.totals.worked_minutes)}</td>
                <td>{formatBalance(week.data.totals.balance_minutes)}</td>
                <td />
              </tr>
            </tfoot>
          </table>
        </div>
      )}
    </section>
  );
}

function EntryEditor(props: { entry?: Entry; onDone: () => void; submitLabel: string }) {
  const [start, setStart] = useState(props.entry ? toLocalInput(props.entry.start_at, zone()) : '');
  const [end, setEnd] = useState(props.entry?.end_at ? toLocalInput(props.entry.end_at, zone()) : '');
  const [note, setNote] = useState(props.entry?.note ?? '');
  const [error, setError] = useState<string>();
  const submit = async (event: Event) => {
    event.preventDefault();
    const startAt = fromLocalInput(start, zone());
    if (!startAt) return setError('Enter a start date and time.');
    const body = { start_at: startAt, end_at: fromLocalInput(end, zone()) ?? null, note };
    try {
      if (props.entry) await api('PATCH', `/api/time-entries/${props.entry.id}`, body);
      else await api('POST', '/api/time-entries', body);
      setError(undefined);
      if (!props.entry) (setStart(''), setEnd(''), setNote(''));
      props.onDone();
    } catch (failure) {
      setError(describe(failure));
    }
  };
  return (
    <form class="entry-form" onSubmit={submit}>
      <Notice error={error} />
      <Field label="Start" type="datetime-local" value={start} onInput={setStart} required />
      <Field label="End (empty while running)" type="datetime-local" value={end} onInput={setEnd} />
      <Field label="Note" value={note} onInput={setNote} />
      <button type="submit" class="primary">{props.submitLabel}</button>
      {props.entry && <button type="button" onClick={props.onDone}>Cancel</button>}
    </form>
  );
}

function EntriesView() {
  const monday = shownWeek.value as string;
  const entries = useLoad(() => api<{ entries: Entry[] }>('GET', `/api/time-entries?from=${monday}&to=${shiftWeek(monday, 1)}`), [monday]);
  const [editing, setEditing] = useState<number>();
  const [confirming, setConfirming] = useState<number>();
  const [error, setError] = useState<string>();
  const remove = async (id: number) => {
    try {
      await api('DELETE', `/api/time-entries/${id}`);
      setConfirming(undefined);
      entries.reload();
    } catch (failure) {
      setError(describe(failure));
    }
  };
  return (
    <section aria-labelledby="entries-title">
      <h2 id="entries-title">Entries</h2>
      <WeekNav />
      <Notice error={error ?? entries.error} />
      <ul class="entries">
        {entries.data?.entries.length === 0 && <li>No entries in this week.</li>}
        {entries.data?.entries.map((entry) => (
          <li key={entry.id}>
            {editing === entry.id ? (
              <EntryEditor entry={entry} submitLabel="Save entry" onDone={() => (setEditing(undefined), entries.reload())} />
            ) : (
              <>
                <span>
                  {dateTime(entry.start_at)} – {entry.end_at ? time(entry.end_at) : 'running'}
                  {entry.end_at && ` (${formatMinutes(Math.floor((Date.parse(entry.end_at) - Date.parse(entry.start_at)) / 60_000))})`}
                  {entry.note && <span class="note"> {entry.note}</span>}
                </span>
                {confirming === entry.id ? (
                  <span class="actions">
                    Delete this entry?
                    <button type="button" class="danger" onClick={() => remove(entry.id)}>Yes, delete</button>
                    <button type="button" onClick={() => setConfirming(undefined)}>Keep it</button>
                  </span>
                ) : (
                  <span class="actions">
                    <button type="button" onClick={() => setEditing(entry.id)}>Edit</button>
                    <button type="button" onClick={() => setConfirming(entry.id)}>Delete</button>
                  </span>
                )}
              </>
            )}
          </li>
        ))}
      </ul>
      <h3>Add an entry</h3>
      <EntryEditor submitLabel="Add entry" onDone={entries.reload} />
    </section>
  );
}

function AbsencesView() {
  const monday = shownWeek.value as string;
  const absences = useLoad(
    () => api<{ absences: Absence[] }>('GET', `/api/time-entries/absences?from=${monday}&to=${DateTime.fromISO(monday).plus({ years: 1 }).toISODate()}`),
    [monday],
  );
  const [date, setDate] = useState(monday);
  const [type, setType] = useState<Absence['type']>('vacation');
  const [note, setNote] = useState('');
  const [error, setError] = useState<string>();
  const act = async (action: () => Promise<unknown>) => {
    try {
      await action();
      setError(undefined);
      absences.reload();
    } catch (failure) {
      setError(describe(failure));
    }
  };
  return (
    <section aria-labelledby="absences-title">
      <h2 id="absences-title">Absences</h2>
      <WeekNav />
      <Notice error={error ?? absences.error} />
      <form onSubmit={(event) => (event.preventDefault(), act(() => api('POST', '/api/time-entries/absences', { date, type, note })))}>
        <Field label="Date" type="date" value={date} onInput={setDate} required />
        <div class="field">
          <label for="absence-type">Type</label>
          <select id="absence-type" value={type} onChange={(event) => setType(event.currentTarget.value as Absence['type'])}>
            <option value="vacation">Vacation</option>
            <option value="sick">Sick</option>
            <option value="holiday">Holiday</option>
          </select>
        </div>
        <Field label="Note (optional)" value={note} onInput={setNote} />
        <button type="submit" class="primary">Add absence</button>
      </form>
      <h3>From this week on</h3>
      <ul class="entries">
        {absences.data?.absences.length === 0 && <li>No absences from this week on.</li>}
        {absences.data?.absences.map((absence) => (
          <li key={absence.id}>
            <span>{day(absence.date)} {DateTime.fromISO(absence.date).year} · {ABSENCE_NAMES[absence.type]}{absence.note && ` · ${absence.note}`}</span>
            <button type="button" aria-label={`Remove ${ABSENCE_NAMES[absence.type]} on ${absence.date}`} onClick={() => act(() => api('DELETE', `/api/time-entries/absences/${absence.id}`))}>
              Remove
            </button>
          </li>
        ))}
      </ul>
    </section>
  );
}

const browserZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
const WEEKDAY_LABELS: Record<Weekday, string> = { mon: 'Monday', tue: 'Tuesday', wed: 'Wednesday', thu: 'Thursday', fri: 'Friday', sat: 'Saturday', sun: 'Sunday' };

function SettingsForm(props: { current: Settings }) {
  const suggestZone = props.current.timezone === 'UTC' && browserZone && browserZone !== 'UTC';
  const [timezone, setTimezone] = useState(suggestZone ? browserZone : props.current.timezone);
  const [targets, setTargets] = useState(() => Object.fromEntries(WEEKDAYS.map((d) => [d, formatMinutes(props.current.weekly_target_minutes[d])])));
  const [region, setRegion] = useState(props.current.holiday_region ?? '');
  const [offset, setOffset] = useState(formatMinutes(props.current.overtime_offset_minutes));
  const [trackingStart, setTrackingStart] = useState(props.current.tracking_start);
  const [error, setError] = useState<string>();
  const [info, setInfo] = useState<string>();
  const zones = useMemo(() => Intl.supportedValuesOf('timeZone'), []);
  const submit = async (event: Event) => {
    event.preventDefault();
    setInfo(undefined);
    const weekly: Record<string, number> = {};
    for (const d of WEEKDAYS) {
      const minutes = parseDuration(targets[d] ?? '');
      if (minutes === undefined || minutes < 0) return setError(`The target for ${WEEKDAY_LABELS[d]} must be a duration like 8:00.`);
      weekly[d] = minutes;
    }
    const offsetMinutes = parseDuration(offset);
    if (offsetMinutes === undefined) return setError('The overtime offset must be a duration like 2:30 or -1:15.');
    try {
      settings.value = await api<Settings>('PATCH', '/api/settings', {
        timezone,
        weekly_target_minutes: weekly,
        holiday_region: region.trim() || null,
        overtime_offset_minutes: offsetMinutes,
        tracking_start: trackingStart,
      });
      setError(undefined);
      setInfo('Settings saved.');
    } catch (failure) {
      setError(describe(failure));
    }
  };
  return (
    <form onSubmit={submit}>
      <Notice error={error} info={info} />
      <Field label="Time zone" value={timezone} onInput={setTimezone} list="time-zones" required hint={suggestZone ? "Your browser's time zone is suggested; save to use it." : 'Type to search.'} />
      <datalist id="time-zones">{zones.map((name) => <option key={name} value={name} />)}</datalist>
      <fieldset>
        <legend>Weekly targets (h:mm)</legend>
        <div class="targets">
          {WEEKDAYS.map((d) => (
            <Field key={d} label={WEEKDAY_LABELS[d]} value={targets[d] ?? ''} onInput={(value) => setTargets({ ...targets, [d]: value })} required />
          ))}
        </div>
      </fieldset>
      <Field label="Holiday region (optional)" value={region} onInput={setRegion} hint="A country or region code such as DE, DE-BY or US-CA." />
      <Field label="Overtime offset (h:mm)" value={offset} onInput={setOffset} hint="Balance carried over from before the tracking start, e.g. 2:30 or -1:15." />
      <Field label="Tracking start" type="date" value={trackingStart} onInput={setTrackingStart} required />
      <button type="submit" class="primary">Save settings</button>
    </form>
  );
}

function PasswordChange() {
  const [oldPassword, setOldPassword] = useState('');
  const [newPassword, setNewPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [error, setError] = useState<string>();
  const [info, setInfo] = useState<string>();
  const submit = async (event: Event) => {
    event.preventDefault();
    setInfo(undefined);
    if (newPassword !== repeat) return setError('The two new passwords are not the same.');
    try {
      await api('POST', '/api/auth/change-password', { old_password: oldPassword, new_password: newPassword });
      setError(undefined);
      setOldPassword('');
      setNewPassword('');
      setRepeat('');
      setInfo('Password changed. Other devices are signed out.');
    } catch (failure) {
      setError(describe(failure));
    }
  };
  return (
    <form onSubmit={submit}>
      <Notice error={error} info={info} />
      <Field label="Current password" type="password" value={oldPassword} onInput={setOldPassword} autocomplete="current-password" required />
      <Field label="New password" type="password" value={newPassword} onInput={setNewPassword} autocomplete="new-password" required minLength={8} />
      <Field label="New password again" type="password" value={repeat} onInput={setRepeat} autocomplete="new-password" required minLength={8} />
      <button type="submit" class="primary">Change password</button>
    </form>
  );
}

function SettingsView() {
  const [download, setDownload] = useState<{ url: string; name: string }>();
  const [error, setError] = useState<string>();
  const exportCsv = async () => {
    try {
      const file = await downloadExport();
      setDownload(file);
      const link = document.createElement('a');
      link.href = file.url;
      link.download = file.name;
      link.click();
    } catch (failure) {
      setError(describe(failure));
    }
  };
  const signOut = async () => {
    try {
      await api('POST', '/api/auth/logout');
    } catch {
      // Signed out locally whatever the server says: the token is deleted below.
    }
    endSession('You are signed out.');
  };
  return (
    <section aria-labelledby="settings-title">
      <h2 id="settings-title">Settings</h2>
      {settings.value && <SettingsForm current={settings.value} />}
      <h3>Change password</h3>
      <PasswordChange />
      <h3>Your data</h3>
      <Notice error={error} />
      <p>
        <button type="button" onClick={exportCsv}>Download CSV</button>
        {download && <> <a href={download.url} download={download.name}>Save {download.name} again</a></>}
      </p>
      <h3>Session</h3>
      <button type="button" onClick={signOut}>Sign out</button>
    </section>
  );
}

const VIEWS: Record<Tab, () => preact.JSX.Element> = { today: TodayView, week: WeekView, entries: EntriesView, absences: AbsencesView, settings: SettingsView };

/** @public Loaded on demand by main.tsx (a separate chunk, so /login stays small). */
export function Tracker(props: { userName: string }) {
  const [error, setError] = useState<string>();
  useEffect(() => {
    // Signing out and in again changes the path without a hashchange event: read the section anew.
    tab.value = tabOfHash();
    api<Settings>('GET', '/api/settings').then(
      (value) => {
        settings.value = value;
        shownWeek.value = weekStartOf(todayIn(value.timezone));
      },
      (failure) => setError(describe(failure)),
    );
  }, []);
  const View = VIEWS[tab.value];
  return (
    <div class="tracker">
      <header>
        <p class="brand">timetrack</p>
        <p class="user">{props.userName}</p>
        <nav aria-label="Sections">
          {TABS.map(([name, label]) => (
            <a key={name} href={`#${name}`} aria-current={tab.value === name ? 'page' : undefined}>{label}</a>
          ))}
        </nav>
      </header>
      <main>
        <h1 class="visually-hidden">Time tracker</h1>
        <Notice error={error} />
        {settings.value && shownWeek.value ? <View /> : !error && <Notice info="Loading…" />}
      </main>
    </div>
  );
}
