// One member's figures for a lead's overview of a team (docs/teams.md, "The lead's view"): the week,
// the overtime balance, today (in the member's zone) with its absence, and the running entry, from
// one account context read once (those of several members in the same statement, and their
// week's stored days in three more: ./stored-days.ts), by the functions the member's own answers use
// (the week of ./week.ts, the balance of ./balance.ts, today's date as ./today.ts works it out). The
// settings and schedules read for it come along, so the member's vacation year needs no second read.
import type { AbsenceType, LocalDate } from '../../db/types.js';
import { absencesByDate } from '../absences/days.js';
import { addDays, localDateOf } from '../calendar/dates.js';
import type { Settings } from '../settings/settings.js';
import type { ScheduleTimeline } from '../schedules.js';
import { balanceThroughYesterday } from './balance.js';
import { accountContexts, type AccountContext } from './context.js';
import { storedDaysOf, type StoredDays } from './stored-days.js';
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

/** The week from `weekStart` (a Monday), balance, today and running entry of each of `userIds`, their contexts read together. */
export async function memberWeeks(deps: StatisticsDeps, userIds: readonly number[], weekStart: LocalDate): Promise<MemberWeek[]> {
  const contexts = await accountContexts(deps, userIds);
  const stored = await storedDaysOf(deps.db, userIds, weekStart, addDays(weekStart, 6));
  // One member after another: a wave holds one connection of the pool, not one per member.
  const weeks: MemberWeek[] = [];
  for (const context of contexts) weeks.push(await memberWeek(deps, context, weekStart, stored.get(context.userId)));
  return weeks;
}

async function memberWeek(deps: StatisticsDeps, context: AccountContext, weekStart: LocalDate, stored: StoredDays | undefined): Promise<MemberWeek> {
  const week = await weekOf(deps.db, context, weekStart, 'en', stored);
  const overtime = await balanceThroughYesterday(deps.db, context);
  const today = localDateOf(context.nowMs, context.settings.zones);
  // Today's absence is in the week's days when the week holds today; else one read of that day.
  const inWeek = week.days.find((day) => day.date === today);
  const absence = inWeek ? inWeek.absence : ((await absencesByDate(deps.db, context.userId, today, today)).get(today)?.type ?? null);
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
