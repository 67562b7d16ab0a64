// Month: the monthly timesheet (GET /api/stats/month) day by day, with first start, last end, breaks,
// worked, target, booked and balance, the totals and the balance carried in and out, and the same as a
// PDF or CSV file to download (fetched with the token, saved by the browser).
import { useState } from 'preact/hooks';
import { api, describe, downloadFile, saveFile } from '../api.js';
import type { Answer } from '../routes.js';
import { language, t } from '../i18n/index.js';
import { fmt, shownMonth, shownWeek, useLoad, zone } from '../state.js';
import { Notice } from '../ui.js';
import { shiftMonth, todayIn } from '../week.js';
import { balanceThrough, DayBalance, TotalBalance } from './balance.js';
import { MonthState } from './month-state.js';

type Sheet = Answer<'GET /api/stats/month'>;
type Day = Sheet['days'][number];

const time = (instant: string | null) => (instant === null ? '' : fmt.time(instant));

/** A day of the sheet; on a phone its start, end and breaks show under the day. */
function MonthDayRow(props: { day: Day; today: string }) {
  const text = t().month;
  const names = t().week;
  const { day, today } = props;
  const off = [
    day.absence ? `${names[day.absence]}${day.absence_portion === 'half' ? ` (${text.half})` : ''}` : '',
    day.public_holiday ?? '',
    day.booked_minutes ? `${text.booked} ${fmt.balance(day.booked_minutes)}` : '',
  ]
    .filter(Boolean)
    .join(' · ');
  return (
    <tr
      class={
        [day.absence || day.public_holiday ? 'off' : '', day.date === today ? 'today' : '', day.date > today ? 'future' : ''].join(' ').trim() || undefined
      }
    >
      <th scope="row">
        {fmt.day(day.date)}
        {off && <span class="off-name">{off}</span>}
        {/* On a phone the start, end and break columns give way to this line. */}
        {(day.first_start || (day.break_minutes ?? 0) > 0) && (
          <span class="off-name narrow">
            {day.first_start ? `${time(day.first_start)}–${time(day.last_end)}` : ''}
            {(day.break_minutes ?? 0) > 0 ? ` · ${text.breaks} ${fmt.minutes(day.break_minutes ?? 0)}` : ''}
            {(day.break_deducted_minutes ?? 0) > 0 ? ` · ${text.deducted} ${fmt.minutes(day.break_deducted_minutes ?? 0)}` : ''}
          </span>
        )}
      </th>
      <td class="wide">{time(day.first_start)}</td>
      <td class="wide">{time(day.last_end)}</td>
      <td class="wide">
        {fmt.minutes(day.break_minutes ?? 0)}
        {(day.break_deducted_minutes ?? 0) > 0 && (
          <span class="off-name">
            {text.deducted} {fmt.minutes(day.break_deducted_minutes ?? 0)}
          </span>
        )}
      </td>
      <td>{fmt.minutes(day.worked_minutes ?? 0)}</td>
      <td>{fmt.minutes(day.target_minutes ?? 0)}</td>
      <td>
        <DayBalance day={day} today={today} />
      </td>
    </tr>
  );
}

/** The sheet as a table: a row a day, and the totals of the complete days. */
export function MonthTable(props: { sheet: Sheet; today: string; title: string }) {
  const text = t().month;
  const names = t().week;
  return (
    <div class="scroll" tabIndex={0} role="region" aria-label={props.title}>
      <table class="week month">
        <thead>
          <tr>
            <th scope="col">{names.day}</th>
            <th scope="col" class="wide">
              {text.start}
            </th>
            <th scope="col" class="wide">
              {text.end}
            </th>
            <th scope="col" class="wide">
              {text.breaks}
            </th>
            <th scope="col">{names.worked}</th>
            <th scope="col">{names.target}</th>
            <th scope="col">{names.balance}</th>
          </tr>
        </thead>
        <tbody>
          {props.sheet.days.map((day) => (
            <MonthDayRow key={day.date} day={day} today={props.today} />
          ))}
        </tbody>
        <tfoot>
          <tr>
            <th scope="row">
              {names.total}
              {(props.sheet.totals.break_minutes ?? 0) > 0 && (
                <span class="off-name narrow">
                  {text.breaks} {fmt.minutes(props.sheet.totals.break_minutes ?? 0)}
                </span>
              )}
            </th>
            <td class="wide" />
            <td class="wide" />
            <td class="wide">{fmt.minutes(props.sheet.totals.break_minutes ?? 0)}</td>
            <td>{fmt.minutes(props.sheet.totals.worked_minutes ?? 0)}</td>
            <td>{fmt.minutes(props.sheet.totals.target_minutes ?? 0)}</td>
            <td>
              <TotalBalance days={props.sheet.days} balance={props.sheet.totals.balance_minutes} />
            </td>
          </tr>
        </tfoot>
      </table>
    </div>
  );
}

export function MonthView() {
  const text = t().month;
  const names = t().week;
  const month = shownMonth.value ?? (shownWeek.value ?? todayIn(zone())).slice(0, 7);
  // Holiday names in the client's language (docs/time-model.md, Monthly timesheet).
  const sheet = useLoad(() => api('GET /api/stats/month', { query: { month, lang: language.value } }), [month, language.value]);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const download = async (kind: 'pdf' | 'csv') => {
    setBusy(true);
    setError(undefined);
    try {
      saveFile(await downloadFile(`GET /api/stats/month.${kind}`, { query: { month, lang: language.value } }, `timesheet-${month}.${kind}`));
    } catch (failure) {
      setError(describe(failure));
    } finally {
      setBusy(false);
    }
  };
  // As in Week: a balance counts complete days only; today and later days show their target, no deficit.
  const today = todayIn(zone());
  const title = fmt.month(month);
  return (
    <section aria-labelledby="view-title">
      <h2 id="view-title" tabIndex={-1}>
        {t().tabs.month}
      </h2>
      <p class="view-switch">
        <a href="#week">{names.weekView}</a>
      </p>
      <div class="week-nav">
        <button type="button" aria-label={text.previous} onClick={() => (shownMonth.value = shiftMonth(month, -1))}>
          ‹
        </button>
        <span aria-live="polite" class="week-label">
          {title}
        </span>
        <button type="button" aria-label={text.next} onClick={() => (shownMonth.value = shiftMonth(month, 1))}>
          ›
        </button>
        <button type="button" onClick={() => (shownMonth.value = todayIn(zone()).slice(0, 7))}>
          {text.thisMonth}
        </button>
      </div>
      <p>
        <button type="button" disabled={busy} onClick={() => download('pdf')}>
          {text.downloadPdf}
        </button>{' '}
        <button type="button" disabled={busy} onClick={() => download('csv')}>
          {text.downloadCsv}
        </button>
      </p>
      <Notice error={error ?? sheet.error} />
      <MonthState month={month} thisMonth={today.slice(0, 7)} />
      {sheet.data && (
        <>
          <p>
            {text.carriedIn(fmt.balance(sheet.data.balance_before_minutes))} ·{' '}
            <span class="running-balance">{balanceThrough(sheet.data.balance_through, sheet.data.balance_after_minutes)}</span>
          </p>
          <MonthTable sheet={sheet.data} today={today} title={title} />
          {sheet.data.days.some((day) => !day.complete && day.date >= today) && <p class="quiet">{t().balance.rule}</p>}
        </>
      )}
    </section>
  );
}
