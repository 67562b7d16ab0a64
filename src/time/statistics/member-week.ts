// One member's figures for a lead's overview of a team (docs/teams.md, "The lead's view"): the week,
// the overtime balance, today (in the member's zone) with its absence, and the running entry, from
// one account context read once, by the functions the member's own answers use (the week of
// ./week.ts, the balance of ./balance.ts, today's date as ./today.ts works it out). The settings
// and schedules read for it come along, so the member's vacation year needs no second read of them.
import type { AbsenceType, LocalDate } from '../../db/types.js';
import { absencesByDate } from '../absences/days.js';
import { localDateOf } from '../calendar/dates.js';
import type { Settings } from '../settings/settings.js';
import type { ScheduleTimeline } from '../schedules.js';
import { balanceThroughYesterday } from './balance.js';
import { accountContext } from './context.js';
import type { OvertimeBalance, StatisticsDeps, WeekOverview } from './types.js';
import { weekOf } from './week.js';

export interface MemberWeek {
  week: WeekOverview;
  overtime: OvertimeBalance;
  /** Today in the member's zone, and the type of its absence, if it has one. */
  today: LocalDate;
  absence_today: AbsenceType | null;
  /** The start of the member's running entry, if one runs. */
  running_since: string | null;
  settings: Settings;
  timeline: ScheduleTimeline;
}

/** The member's week from `weekStart` (a Monday), balance, today and running entry. */
export async function memberWeek(deps: StatisticsDeps, userId: number, weekStart: LocalDate): Promise<MemberWeek> {
  const context = await accountContext(deps, userId);
  const week = await weekOf(deps.db, context, weekStart);
  const overtime = await balanceThroughYesterday(deps.db, context);
  const today = localDateOf(context.nowMs, context.settings.zones);
  // Today's absence is in the week's days when the week holds today; else one read of that day.
  const inWeek = week.days.find((day) => day.date === today);
  const absence = inWeek ? inWeek.absence : ((await absencesByDate(deps.db, userId, today, today)).get(today)?.type ?? null);
  return {
    week,
    overtime,
    today,
    absence_today: absence,
    running_since: context.running ? context.running.start_at : null,
    settings: context.settings,
    timeline: context.timeline,
  };
}
