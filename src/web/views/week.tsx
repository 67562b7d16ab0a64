// Week: Monday to Sunday with target, worked and balance per day, a bar per day (worked against its
// target), the totals, and the balance at the end of each of the last 12 weeks as a small line chart.
// A balance counts complete days only (./balance.tsx): today and later days show their target, no deficit.
import type { WeekStats } from '../../http/contract.js';
import { api } from '../api.js';
import { language, t } from '../i18n/index.js';
import { fmt, shownWeek, useLoad, zone } from '../state.js';
import { Notice } from '../ui.js';
import { addDays, shiftWeek, todayIn, weekStartOf } from '../week.js';
import { balanceThrough, DayBalance, TotalBalance } from './balance.js';
import { WeekNav } from './week-nav.js';

type Day = WeekStats['days'][number];

export function WeekView() {
  const text = t().week;
  const monday = shownWeek.value as string;
  // Holiday names in the client's language, as the month's.
  const week = useLoad(() => api('GET /api/stats/week', { query: { date: monday, lang: language.value } }), [monday, language.value]);
  const today = todayIn(zone());
  return (
    <section aria-labelledby="view-title">
      <h2 id="view-title" tabIndex={-1}>
        {t().tabs.week}
      </h2>
      <p class="view-switch">
        <a href="#month">{text.monthView}</a>
      </p>
      <WeekNav />
      <Notice error={week.error} />
      {week.data && (
        <>
          <DayBars days={week.data.days} />
          <WeekTable days={week.data.days} totals={week.data.totals} today={today} />
          {week.data.days.some((day) => !day.complete && day.date >= today) && <p class="quiet">{t().balance.rule}</p>}
          <BalanceTrend current={week.data} />
        </>
      )}
    </section>
  );
}

/** The week's table: worked, target and balance per day (the order of Month and the timesheet), and the totals. Also the lead's view of a member's week. */
export function WeekTable(props: { days: Day[]; totals: WeekStats['totals']; today: string }) {
  const text = t().week;
  const { today } = props;
  // A half day is named as Month and the timesheet name it.
  const absence = (day: Day) => (day.absence ? `${text[day.absence]}${day.absence_portion === 'half' ? ` (${t().month.half})` : ''}` : '');
  const absenceName = (day: Day) => [absence(day), day.public_holiday ?? ''].filter(Boolean).join(' · ');
  return (
    <table class="week">
      <thead>
        <tr>
          <th scope="col">{text.day}</th>
          <th scope="col">{text.worked}</th>
          <th scope="col">{text.target}</th>
          <th scope="col">{text.balance}</th>
        </tr>
      </thead>
      <tbody>
        {props.days.map((day) => (
          <tr
            key={day.date}
            class={
              [day.absence || day.public_holiday ? 'off' : '', day.date === today ? 'today' : '', day.date > today ? 'future' : ''].join(' ').trim() ||
              undefined
            }
          >
            <th scope="row">
              {fmt.day(day.date)}
              {absenceName(day) && <span class="off-name">{absenceName(day)}</span>}
            </th>
            <td>{fmt.minutes(day.worked_minutes ?? 0)}</td>
            <td>{fmt.minutes(day.target_minutes ?? 0)}</td>
            <td>
              <DayBalance day={day} today={today} />
            </td>
          </tr>
        ))}
      </tbody>
      <tfoot>
        <tr>
          <th scope="row">{text.total}</th>
          <td>{fmt.minutes(props.totals.worked_minutes ?? 0)}</td>
          <td>{fmt.minutes(props.totals.target_minutes ?? 0)}</td>
          <td>
            <TotalBalance days={props.days} balance={props.totals.balance_minutes} />
          </td>
        </tr>
      </tfoot>
    </table>
  );
}

/** One bar per day: worked time (filled) against the target (outline); absences and holidays hatched. The figures are the table's, and a text list for screen readers. */
function DayBars(props: { days: Day[] }) {
  const text = t().week;
  const max = Math.max(60, ...props.days.map((day) => Math.max(day.worked_minutes ?? 0, day.target_minutes ?? 0)));
  const width = 7 * 40;
  const height = 100;
  const y = (minutes: number) => height - 16 - (minutes / max) * (height - 24);
  return (
    <figure class="chart">
      <figcaption>{text.chartTitle}</figcaption>
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby="bars-summary" preserveAspectRatio="none">
        {props.days.map((day, index) => {
          const x = index * 40 + 8;
          const target = day.target_minutes ?? 0;
          const worked = day.worked_minutes ?? 0;
          const off = Boolean(day.absence || day.public_holiday);
          return (
            <g key={day.date}>
              {off && <rect class="bar-off" x={x} y={8} width={24} height={height - 24} />}
              {target > 0 && <rect class="bar-target" x={x} y={y(target)} width={24} height={height - 16 - y(target)} />}
              {worked > 0 && <rect class="bar-worked" x={x + 4} y={y(worked)} width={16} height={height - 16 - y(worked)} />}
              <text class="bar-label" x={x + 12} y={height - 3}>
                {fmt.day(day.date).slice(0, 2)}
              </text>
            </g>
          );
        })}
      </svg>
      <ul id="bars-summary" class="visually-hidden">
        {props.days.map((day) => (
          <li key={day.date}>{text.chartSummary(fmt.day(day.date), fmt.minutes(day.worked_minutes ?? 0), fmt.minutes(day.target_minutes ?? 0))}</li>
        ))}
      </ul>
    </figure>
  );
}

/**
 * The balance at the end of each of the last 12 weeks, worked back from the balance through yesterday:
 * this week's point is that balance, each earlier week's is the later one less the later week's total
 * (the sum of its complete days). Every point names the last day it counts.
 */
function BalanceTrend(props: { current: WeekStats }) {
  const text = t().week;
  const thisWeek = weekStartOf(todayIn(zone()));
  const shown = props.current.week_start === thisWeek ? props.current : undefined;
  const trend = useLoad(async () => {
    const mondays = Array.from({ length: 12 }, (_, back) => shiftWeek(thisWeek, -back));
    // The shown week is reused when it is this week: 12 requests, not 13.
    const [overtime, ...weeks] = await Promise.all([
      api('GET /api/stats/overtime'),
      ...mondays.map((monday, index) => (index === 0 && shown ? Promise.resolve(shown) : api('GET /api/stats/week', { query: { date: monday } }))),
    ]);
    let balance = overtime.balance_minutes;
    const points: { through: string; balance: number }[] = [];
    mondays.forEach((monday, index) => {
      const sunday = addDays(monday, 6);
      points.push({ through: sunday < overtime.through ? sunday : overtime.through, balance });
      balance -= weeks[index]?.totals.balance_minutes ?? 0;
    });
    return points.reverse();
  }, [thisWeek]);
  if (!trend.data) return <p class="quiet">{trend.error ?? text.trendLoading}</p>;
  const points = trend.data;
  const last = points.at(-1);
  const values = points.map((point) => point.balance);
  const low = Math.min(0, ...values);
  const high = Math.max(0, ...values, 60);
  const width = 280;
  const height = 80;
  const x = (index: number) => 8 + (index * (width - 16)) / (points.length - 1);
  const y = (minutes: number) => 6 + ((high - minutes) / (high - low)) * (height - 12);
  return (
    <figure class="chart">
      <figcaption>{text.trendTitle}</figcaption>
      <svg viewBox={`0 0 ${width} ${height}`} role="img" aria-labelledby="trend-summary">
        <line class="zero" x1={0} x2={width} y1={y(0)} y2={y(0)} />
        <polyline class="trend" points={points.map((point, index) => `${x(index)},${y(point.balance)}`).join(' ')} />
        {points.map((point, index) => (
          <circle key={`${index}-${point.through}`} class="trend-point" cx={x(index)} cy={y(point.balance)} r={3} />
        ))}
      </svg>
      <ul id="trend-summary" class="visually-hidden">
        {points.map((point, index) => (
          <li key={`${index}-${point.through}`}>{balanceThrough(point.through, point.balance)}</li>
        ))}
      </ul>
      {last && <p class="running-balance">{balanceThrough(last.through, last.balance)}</p>}
    </figure>
  );
}
