// The day before today of several accounts, each in its own zone, for the missing-day reminder
// (docs/notices.md): the local date and hour now, and yesterday's figures worked out by the functions
// the account's own week uses (./days.ts: the schedule in force that day, absences, public holidays of
// its region, tracking_start), from the contexts of all of them read together (./context.ts).
import { DateTime } from 'luxon';
import type { LocalDate } from '../../db/types.js';
import { addDays, localDateOf, zoneOn } from '../calendar/dates.js';
import { accountContexts, type AccountContext } from './context.js';
import { dayFigures } from './days.js';
import type { DayFigures, StatisticsDeps } from './types.js';

export interface PreviousDay extends LocalNow {
  /** Yesterday's row, as in the account's own week. */
  day: DayFigures;
}

/** A day that wanted work and has none: over, tracked, a target, nothing worked, no absence (as the lead's overview counts it). */
export function isMissingDay(day: DayFigures): boolean {
  return day.complete && day.target_minutes > 0 && day.worked_minutes === 0 && day.break_minutes === 0 && day.absence === null;
}

/** Today and the hour now in an account's own zone. */
export interface LocalNow {
  userId: number;
  today: LocalDate;
  /** 0–23. */
  hour: number;
}

function localNowOf(context: AccountContext): LocalNow {
  const { zones } = context.settings;
  const today = localDateOf(context.nowMs, zones);
  return { userId: context.userId, today, hour: DateTime.fromMillis(context.nowMs, { zone: zoneOn(today, zones) }).hour };
}

/** Today and the hour now of each of `userIds`, each in its zone (their contexts in one statement). */
export async function localNows(deps: StatisticsDeps, userIds: readonly number[]): Promise<LocalNow[]> {
  return (await accountContexts(deps, userIds)).map(localNowOf);
}

/**
 * Yesterday of those of `userIds` for which `due` says so (given today and the hour in their zone),
 * one account after another; the others cost only their context (read for all in one statement).
 */
export async function previousDays(deps: StatisticsDeps, userIds: readonly number[], due: (now: LocalNow) => boolean): Promise<PreviousDay[]> {
  const days: PreviousDay[] = [];
  for (const context of await accountContexts(deps, userIds)) {
    const now = localNowOf(context);
    if (!due(now)) continue;
    const yesterday = addDays(now.today, -1);
    const { rows } = await dayFigures(deps.db, context, yesterday, yesterday);
    days.push({ ...now, day: rows[0]! });
  }
  return days;
}
