// Month: the monthly timesheet (GET /api/stats/month) day by day, with first start, last end, breaks,
// worked, target, booked and balance, the totals and the balance carried in and out, and the same as a
// PDF or CSV file to download (fetched with the token, saved by the browser).
import { DateTime } from 'luxon';
import { useState } from 'preact/hooks';
import type { MonthStats } from '../../http/contract.js';
import { api, describe, downloadFile, saveFile } from '../api.js';
import { language, locale, t } from '../i18n/index.js';
import { fmt, shownMonth, shownWeek, useLoad, zone } from '../state.js';
import { Notice } from '../ui.js';
import { todayIn } from '../week.js';

const shift = (month: string, months: number) => DateTime.fromISO(`${month}-01`, { zone: 'UTC' }).plus({ months }).toFormat('yyyy-MM');

export function MonthView() {
  const text = t().month;
  const names = t().week;
  const month = shownMonth.value ?? (shownWeek.value ?? todayIn(zone())).slice(0, 7);
  const sheet = useLoad(() => api<MonthStats>('GET', `/api/stats/month?month=${month}`), [month]);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const download = async (kind: 'pdf' | 'csv') => {
    setBusy(true);
    setError(undefined);
    try {
      saveFile(await downloadFile(`/api/stats/month.${kind}?month=${month}${kind === 'pdf' ? `&lang=${language.value}` : ''}`, `timesheet-${month}.${kind}`));
    } catch (failure) {
      setError(describe(failure));
    } finally {
      setBusy(false);
    }
  };
  const time = (instant: string | null) => (instant === null ? '' : fmt.time(instant));
  const title = DateTime.fromISO(`${month}-01`, { zone: 'UTC' }).setLocale(locale()).toLocaleString({ month: 'long', year: 'numeric' });
  return (
    <section aria-labelledby="view-title">
      <h2 id="view-title" tabIndex={-1}>{t().tabs.month}</h2>
      <p class="view-switch"><a href="#week">{names.weekView}</a></p>
      <div class="week-nav">
        <button type="button" aria-label={text.previous} onClick={() => (shownMonth.value = shift(month, -1))}>‹</button>
        <span aria-live="polite" class="week-label">{title}</span>
        <button type="button" aria-label={text.next} onClick={() => (shownMonth.value = shift(month, 1))}>›</button>
        <button type="button" onClick={() => (shownMonth.value = todayIn(zone()).slice(0, 7))}>{text.thisMonth}</button>
      </div>
      <p>
        <button type="button" disabled={busy} onClick={() => download('pdf')}>{text.downloadPdf}</button>{' '}
        <button type="button" disabled={busy} onClick={() => download('csv')}>{text.downloadCsv}</button>
      </p>
      <Notice error={error ?? sheet.error} />
      {sheet.data && (
        <>
          <p>{text.carriedIn(fmt.balance(sheet.data.balance_before_minutes))} · {text.carriedOut(fmt.balance(sheet.data.balance_after_minutes))}</p>
          <div class="scroll" tabIndex={0} role="region" aria-labelledby="view-title">
            <table class="week month">
              <thead>
                <tr>
                  <th scope="col">{names.day}</th>
                  <th scope="col">{text.start}</th>
                  <th scope="col">{text.end}</th>
                  <th scope="col">{text.breaks}</th>
                  <th scope="col">{names.worked}</th>
                  <th scope="col">{names.target}</th>
                  <th scope="col">{names.balance}</th>
                </tr>
              </thead>
              <tbody>
                {sheet.data.days.map((day) => {
                  const off = [day.absence ? `${names[day.absence]}${day.absence_portion === 'half' ? ` (${text.half})` : ''}` : '', day.public_holiday ?? '', day.booked_minutes ? `${text.booked} ${fmt.balance(day.booked_minutes)}` : '']
                    .filter(Boolean)
                    .join(' · ');
                  return (
                    <tr key={day.date} class={day.absence || day.public_holiday ? 'off' : undefined}>
                      <th scope="row">
                        {fmt.day(day.date)}
                        {off && <span class="off-name">{off}</span>}
                      </th>
                      <td>{time(day.first_start)}</td>
                      <td>{time(day.last_end)}</td>
                      <td>
                        {fmt.minutes(day.break_minutes ?? 0)}
                        {(day.break_deducted_minutes ?? 0) > 0 && <span class="off-name">{text.deducted} {fmt.minutes(day.break_deducted_minutes ?? 0)}</span>}
                      </td>
                      <td>{fmt.minutes(day.worked_minutes ?? 0)}</td>
                      <td>{fmt.minutes(day.target_minutes ?? 0)}</td>
                      <td>{fmt.balance(day.balance_minutes ?? 0)}</td>
                    </tr>
                  );
                })}
              </tbody>
              <tfoot>
                <tr>
                  <th scope="row">{names.total}</th>
                  <td />
                  <td />
                  <td>{fmt.minutes(sheet.data.totals.break_minutes ?? 0)}</td>
                  <td>{fmt.minutes(sheet.data.totals.worked_minutes ?? 0)}</td>
                  <td>{fmt.minutes(sheet.data.totals.target_minutes ?? 0)}</td>
                  <td>{fmt.balance(sheet.data.totals.balance_minutes ?? 0)}</td>
                </tr>
              </tfoot>
            </table>
          </div>
        </>
      )}
    </section>
  );
}
