// Today: the date and the account's zone, Start/Stop with the running time, and today's figures, each
// with a line saying what it means. The balance counts complete days: through yesterday (docs/time-model.md).
import { DateTime } from 'luxon';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Entry, OvertimeStats, TodayStats } from '../../http/contract.js';
import { api, ApiError } from '../api.js';
import { formatTimer } from '../duration.js';
import { locale, t } from '../i18n/index.js';
import { getOnce, recentEntriesQuery } from '../prefetch.js';
import { announcement, fmt, useLoad, zone } from '../state.js';
import { Field, Notice, useAction, type Action } from '../ui.js';
import { addDays, instantOf, partsOf } from '../week.js';
import { forgottenFor, LimitSuggestion, RunningLong } from './today-guards.js';
import { ZoneHint } from './zone-hint.js';

type Loaded = [TodayStats, { entry: Entry | null }, OvertimeStats, number];

/** A start the server refused because of an entry in the way: the sentence naming it. */
const overlapSentence = (failure: unknown) =>
  failure instanceof ApiError && failure.failure.code === 'OVERLAP' && failure.failure.entry
    ? t().startBlocked(
        `${fmt.day(DateTime.fromISO(failure.failure.entry.start_at, { zone: zone() }).toISODate() as string)} ${fmt.span(failure.failure.entry.start_at, failure.failure.entry.end_at)}`,
      )
    : undefined;

/** A start or stop refused because another device started or stopped the timer: its sentence (the page reloads first). */
const elsewhereSentence = (failure: unknown) =>
  failure instanceof ApiError && failure.failure.code === 'NOT_RUNNING'
    ? t().guard.timerStoppedElsewhere
    : failure instanceof ApiError && failure.failure.code === 'ALREADY_RUNNING'
      ? t().guard.timerStartedElsewhere
      : undefined;

/** Runs a timer request; when the timer changed elsewhere meanwhile, shows what is current before failing. */
async function orReload<T>(request: Promise<T>, reload: () => Promise<void>): Promise<T> {
  try {
    return await request;
  } catch (failure) {
    if (elsewhereSentence(failure)) await reload();
    throw failure;
  }
}

/** Start, Stop (a slip under a minute is dropped, with an undo) and Undo; each reloads the figures. */
function useTimerActions(loaded: { data?: Loaded | undefined; error?: string | undefined; reload: () => Promise<void> }, action: Action) {
  const text = t().today;
  const [note, setNote] = useState('');
  const [dropped, setDropped] = useState<Entry>();
  // After Start, Stop or Undo the big button is replaced once the new figures are in: focus goes to it then.
  // Until then the old button is still shown, and a second click on it (a double click on a slow
  // machine, after the first request was answered) must not send the same request again.
  const focusButton = useRef(false);
  // The action awaits the new figures before its message, so the button is enabled (and focusable)
  // only once the action is over.
  useEffect(() => {
    if (!focusButton.current || !loaded.data || action.busy) return;
    focusButton.current = false;
    document.querySelector<HTMLElement>('button.big')?.focus();
  }, [loaded.data, action.busy]);
  useEffect(() => {
    // A reload that failed shows its error; the buttons work again.
    if (loaded.error) focusButton.current = false;
  }, [loaded.error]);
  const settling = () => focusButton.current;
  const start = () =>
    !settling() &&
    action.run(
      async () => {
        setDropped(undefined);
        await orReload(api('POST /api/time-entries/start', { body: note.trim() ? { note: note.trim() } : {} }), loaded.reload);
        setNote('');
        focusButton.current = true;
        await loaded.reload();
        announcement.value = text.started;
      },
      { describeFailure: (failure) => overlapSentence(failure) ?? elsewhereSentence(failure) },
    );
  const stop = () =>
    !settling() &&
    action.run(
      async () => {
        const { entry } = await orReload(api('POST /api/time-entries/stop'), loaded.reload);
        const ms = Date.parse(entry.end_at ?? entry.start_at) - Date.parse(entry.start_at);
        const slip = ms < 60_000;
        if (slip) {
          // A Start and Stop within a minute is a slip, not work: dropped, with an undo.
          await api('DELETE /api/time-entries/:id', { params: { id: entry.id } });
          setDropped(entry);
        }
        focusButton.current = true;
        await loaded.reload();
        announcement.value = slip ? text.dropped : text.stopped(fmt.minutes(Math.floor(ms / 60_000)));
      },
      { describeFailure: elsewhereSentence },
    );
  const undo = () =>
    !settling() &&
    action.run(async () => {
      if (!dropped) return;
      await api('POST /api/time-entries', { body: { start_at: dropped.start_at, end_at: dropped.end_at, note: dropped.note } });
      setDropped(undefined);
      focusButton.current = true;
      await loaded.reload();
      return text.restored;
    });
  return { note, setNote, dropped, start, stop, undo };
}

/** The clock while an entry runs (every second), and the running time in the page title. */
function useRunningTime(running: Entry | null, targetMinutes: number | undefined) {
  const text = t().today;
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    if (!running) return;
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [running]);
  const elapsed = running ? formatTimer(now - Date.parse(running.start_at)) : undefined;
  const forgotten = forgottenFor(running, targetMinutes, now);
  useEffect(() => {
    const warning = forgotten === undefined ? '' : `⚠ ${t().guard.runningLongTitle} `;
    document.title = elapsed ? `${warning}${text.runningTitle(elapsed)} · ${t().tabs.today} · timetrack` : `${t().tabs.today} · timetrack`;
  }, [elapsed, text, forgotten === undefined]);
  return { now, elapsed, forgotten };
}

/** Today's figures; the worked minutes run on while an entry runs (minutes since the figures were loaded). */
function TodayFigures(props: { today: TodayStats; overtime: OvertimeStats; sinceLoad: number; now: number }) {
  const text = t().today;
  const { today, overtime, sinceLoad, now } = props;
  const worked = today.worked_minutes + sinceLoad;
  const endLabel = (instant: string) => (Date.parse(instant) <= now ? text.reachedAt(fmt.dated(instant)) : fmt.dated(instant));
  return (
    <dl class="figures" aria-label={text.figures}>
      <Figure label={text.worked} value={fmt.minutes(worked)} help={text.workedHelp} />
      <Figure label={text.target} value={fmt.minutes(today.target_minutes)} help={text.targetHelp} />
      <Figure label={text.remaining} value={fmt.minutes(Math.max(0, today.remaining_minutes - sinceLoad))} help={text.remainingHelp} />
      <Figure label={text.endOfWork} value={endLabel(today.end_of_work)} help={text.endOfWorkHelp} />
      <Figure label={text.adjustedEnd} value={endLabel(today.adjusted_end_of_work)} help={text.adjustedEndHelp} />
      <Figure label={t().balance.through(fmt.day(overtime.through))} value={fmt.balance(overtime.balance_minutes)} help={text.balanceHelp} />
    </dl>
  );
}

export function TodayView() {
  const text = t().today;
  const action = useAction();
  const loaded = useLoad<Loaded>(
    async () => Promise.all([getOnce('GET /api/stats/today'), getOnce('GET /api/time-entries/current'), getOnce('GET /api/stats/overtime'), Date.now()]),
    [],
  );
  const [today, current, overtime, loadedAt] = loaded.data ?? [];
  const timer = useTimerActions(loaded, action);
  const running = current?.entry ?? null;
  const { now, elapsed, forgotten } = useRunningTime(running, today?.target_minutes);
  const sinceLoad = running && loadedAt ? Math.max(0, Math.floor((now - loadedAt) / 60_000)) : 0;
  const todayLong = DateTime.now().setZone(zone()).setLocale(locale()).toLocaleString(DateTime.DATE_HUGE);
  return (
    <section aria-labelledby="view-title">
      <h2 id="view-title" tabIndex={-1}>
        {t().tabs.today}
      </h2>
      <p class="subtitle">{text.dateAndZone(todayLong, zone())}</p>
      <ZoneHint onSwitched={loaded.reload} />
      <Notice error={action.error ?? loaded.error} info={action.info} errorRef={action.errorRef} />
      {!running && loaded.data && <AutoStopped onFixed={loaded.reload} />}
      {loaded.data && <LimitSuggestion />}
      {timer.dropped && (
        <p class="notice info">
          {text.dropped}{' '}
          <button type="button" class="link" disabled={action.busy} onClick={timer.undo}>
            {text.undo}
          </button>
        </p>
      )}
      <div class="timer">
        {running ? (
          <>
            <p class="elapsed" aria-label={text.runningTime}>
              {elapsed}
            </p>
            <p class="started">
              {text.startedAt(fmt.dated(running.start_at))}
              {running.note ? ` · ${running.note}` : ''}
            </p>
            <RunningLong minutes={forgotten} />
            <button type="button" class="big stop" disabled={action.busy} onClick={timer.stop}>
              {text.stop}
            </button>
          </>
        ) : (
          <form ref={action.formRef} onSubmit={(event) => (event.preventDefault(), timer.start())}>
            <Field label={text.note} name="note" error={action.fieldErrors.note} value={timer.note} onInput={timer.setNote} />
            <button type="submit" class="big start" disabled={!loaded.data || action.busy}>
              {text.start}
            </button>
          </form>
        )}
      </div>
      {today && overtime && <TodayFigures today={today} overtime={overtime} sinceLoad={sinceLoad} now={now} />}
    </section>
  );
}

/**
 * A timer the server stopped at the account's limit (auto_stopped), shown until its end is set: a time
 * field with the stop time and one click to save the real end (an end before the start is the next day),
 * or to keep it as it is. Either clears the mark.
 */
function AutoStopped(props: { onFixed: () => void }) {
  const text = t().today;
  const recent = useLoad(() => getOnce('GET /api/time-entries', recentEntriesQuery()), []);
  const stopped = recent.data?.entries.filter((entry) => entry.auto_stopped).at(-1);
  const [time, setTime] = useState<string>();
  const action = useAction();
  if (!stopped || !stopped.end_at) return action.info ? <Notice info={action.info} /> : null;
  const start = partsOf(stopped.start_at, zone());
  const shownTime = time ?? partsOf(stopped.end_at, zone()).time;
  const save = (endAt: string | undefined) =>
    action.run(async () => {
      if (!endAt) throw new ApiError({ status: 400, code: 'VALIDATION_ERROR', details: [{ field: 'end_at', message: '' }] });
      await api('PATCH /api/time-entries/:id', { params: { id: stopped.id }, body: { end_at: endAt } });
      await recent.reload();
      props.onFixed();
      announcement.value = text.endFixed;
      return text.endFixed;
    });
  const fixedEnd = () => {
    const sameDay = instantOf(start.date, shownTime, zone());
    return sameDay && sameDay > stopped.start_at ? sameDay : instantOf(addDays(start.date, 1), shownTime, zone());
  };
  return (
    <form class="notice info" ref={action.formRef} onSubmit={(event) => (event.preventDefault(), void save(fixedEnd()))}>
      <p>{text.autoStopped(fmt.dated(stopped.start_at), fmt.dated(stopped.end_at))}</p>
      <Notice error={action.error} errorRef={action.errorRef} />
      <Field label={text.realEnd} name="end_at" type="time" value={shownTime} onInput={setTime} error={action.fieldErrors.end_at} required />
      <button type="submit" class="primary" disabled={action.busy}>
        {text.saveEnd}
      </button>{' '}
      <button type="button" disabled={action.busy} onClick={() => void save(stopped.end_at ?? undefined)}>
        {text.keepEnd}
      </button>
    </form>
  );
}

function Figure(props: { label: string; value: string; help: string }) {
  return (
    <div>
      <dt>{props.label}</dt>
      <dd class="value">{props.value}</dd>
      <dd class="help">{props.help}</dd>
    </div>
  );
}
