// The balance as every view shows it (docs/time-model.md): it counts complete days only, the days the
// server marks `complete` (over, and on or after tracking_start). Today shows "today, so far", a later
// day "not yet", never a deficit; a total names the last day it counts, in the words of Today and Month.
import type { WeekStats } from '../../http/contract.js';
import { t } from '../i18n/index.js';
import { fmt } from '../state.js';

type Day = Pick<WeekStats['days'][number], 'date' | 'complete' | 'balance_minutes'>;

/** A day's balance cell: the figure of a complete day, else what the day still is. */
export function DayBalance(props: { day: Day; today: string }) {
  const { day, today } = props;
  const words = t().balance;
  if (day.complete && day.balance_minutes !== null) return <>{fmt.balance(day.balance_minutes)}</>;
  const state = day.date === today ? words.todaySoFar : day.date > today ? words.notYet : '–';
  return <span class="muted">{state}</span>;
}

/** The last complete day of the rows, if any. */
function lastCompleteDay(days: readonly Day[]): string | undefined {
  return days.filter((day) => day.complete).at(-1)?.date;
}

/**
 * The total's balance cell: the sum of the complete days, and through which day it counts. Not in the
 * words of the running balance (`balanceThrough`): without what was carried in it is another figure.
 */
export function TotalBalance(props: { days: readonly Day[]; balance: number | null }) {
  const words = t().balance;
  const through = lastCompleteDay(props.days);
  if (through === undefined) return <span class="muted">{words.notYet}</span>;
  return (
    <>
      <span class="total-balance">{fmt.balance(props.balance ?? 0)}</span>
      <span class="off-name">{words.sumThrough(fmt.day(through))}</span>
    </>
  );
}

/** The running balance (offset included) through a day: "Balance through <date>: ±h:mm". */
export function balanceThrough(date: string, minutes: number): string {
  return `${t().balance.through(fmt.day(date))}: ${fmt.balance(minutes)}`;
}
