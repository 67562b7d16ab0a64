// Today's figures: what is worked and still to work, and when the day's target is met.
import { localDateOf, startOfDay, toIso } from '../calendar/dates.js';
import { workNeededFor } from '../day-rules.js';
import { entriesOverlapping, runningEntry } from '../entries/store.js';
import { balanceThroughYesterday } from './balance.js';
import { dayFigures, liveTotals, MINUTE_MS } from './days.js';
import type { StatisticsDeps, TodayFigures } from './types.js';

/**
 * Today's figures. end_of_work: when today's target is met if work goes on (or starts) now without
 * a further break, the break the rules still ask for included (in the past once it is met).
 * adjusted_end_of_work: that instant moved earlier by a positive balance, later by a negative one
 * (today's bookings included), so that leaving then brings the balance to zero.
 */
export async function todayFigures(deps: StatisticsDeps, userId: number): Promise<TodayFigures> {
  const settings = await deps.settings.getSettings(userId);
  const nowMs = deps.clock.now().getTime();
  const date = localDateOf(nowMs, settings.timezone);
  const [day] = await dayFigures(deps, userId, settings, date, date, nowMs);
  const { days } = await liveTotals(deps.db, userId, settings, date, date, nowMs);
  const current = await runningEntry(deps.db, userId);
  const workedMs = days.get(date)?.workedMs ?? 0;
  let breakMs = days.get(date)?.breakMs ?? 0;
  if (!current) {
    // Work that starts now leaves a gap after today's last entry: a break, if it is long enough.
    const dayStart = startOfDay(date, settings.timezone);
    const entries = await entriesOverlapping(deps.db, userId, { from: toIso(dayStart), to: toIso(nowMs) });
    const lastEnd = Math.max(...entries.map((entry) => (entry.end_at === null ? -Infinity : Date.parse(entry.end_at))).filter((end) => end <= nowMs));
    if (Number.isFinite(lastEnd) && lastEnd > dayStart && nowMs - lastEnd >= settings.min_break_minutes * MINUTE_MS) breakMs += nowMs - lastEnd;
  }
  const balance = await balanceThroughYesterday(deps, userId, settings, nowMs);
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
