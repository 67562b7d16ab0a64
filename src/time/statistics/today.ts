// Today's figures: what is worked and still to work, and when the day's target is met.
import { localDateOf, startOfDay, toIso } from '../calendar/dates.js';
import { isBreak, workNeededFor } from '../day-rules.js';
import { entriesOverlapping } from '../entries/store.js';
import { balanceThroughYesterday } from './balance.js';
import { accountContext } from './context.js';
import { dayFigures, MINUTE_MS } from './days.js';
import type { StatisticsDeps, TodayFigures } from './types.js';

/**
 * Today's figures. end_of_work: when today's target is met if work goes on (or starts) now without
 * a further break, the break the rules still ask for included (in the past once it is met).
 * adjusted_end_of_work: that instant moved earlier by a positive balance, later by a negative one
 * (today's bookings included), so that leaving then brings the balance to zero.
 */
export async function todayFigures(deps: StatisticsDeps, userId: number): Promise<TodayFigures> {
  const context = await accountContext(deps, userId);
  const { settings, nowMs, running: current } = context;
  const date = localDateOf(nowMs, settings.zones);
  const {
    rows: [day],
    totals,
  } = await dayFigures(deps.db, context, date, date);
  const workedMs = totals.get(date)?.workedMs ?? 0;
  let breakMs = totals.get(date)?.breakMs ?? 0;
  if (!current) {
    // Work that starts now leaves a gap after today's last entry: a break, if it is long enough.
    const dayStart = startOfDay(date, settings.zones);
    const entries = await entriesOverlapping(deps.db, userId, { from: toIso(dayStart), to: toIso(nowMs) });
    const lastEnd = Math.max(...entries.map((entry) => (entry.end_at === null ? -Infinity : Date.parse(entry.end_at))).filter((end) => end <= nowMs));
    if (Number.isFinite(lastEnd) && lastEnd > dayStart && isBreak(nowMs - lastEnd, settings.min_break_minutes)) breakMs += nowMs - lastEnd;
  }
  const balance = await balanceThroughYesterday(deps.db, context);
  const targetMinutes = day?.target_minutes ?? 0;
  const needed = workNeededFor(targetMinutes, Math.floor(breakMs / MINUTE_MS), settings.break_rules);
  const endOfWork = nowMs + needed * MINUTE_MS - workedMs;
  return {
    date,
    target_minutes: targetMinutes,
    worked_minutes: day?.worked_minutes ?? 0,
    break_minutes: day?.break_minutes ?? 0,
    break_deducted_minutes: day?.break_deducted_minutes ?? 0,
    booked_minutes: day?.booked_minutes ?? 0,
    remaining_minutes: Math.max(0, targetMinutes - (day?.worked_minutes ?? 0)),
    running: current !== undefined,
    end_of_work: toIso(endOfWork),
    // Today's bookings move the balance as well (a payout today makes leaving later); before
    // tracking_start a booking counts nowhere, like the day itself.
    adjusted_end_of_work: toIso(endOfWork - (balance.balance_minutes + (date >= settings.tracking_start ? (day?.booked_minutes ?? 0) : 0)) * MINUTE_MS),
  };
}
