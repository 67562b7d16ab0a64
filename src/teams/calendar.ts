// A team's calendar (docs/teams.md, "Team calendar"; docs/api.md, "Teams"): a month of days for every
// member, each day with whether it has a target under the member's schedule, the public holiday of the
// member's region and the member's absence. The figures are the member's own month's day rows
// (src/time/statistics/member-month.ts: `dayFigures`, as GET /api/stats/month), read ten members at a
// time as the lead's overview reads them. `can(actor, 'teams.calendar', team)` lets the team's members,
// its leads and admins read it; who may read the overview (a lead of the team, an admin) sees each
// absence's type, a member sees another member's absence only as `away`.
import type { Kysely } from 'kysely';
import type { Clock } from '../common/clock.js';
import { validationError } from '../common/errors.js';
import type { PublicUser } from '../auth/accounts/users.js';
import type { AbsencePortion, AbsenceType, Database, LocalDate } from '../db/types.js';
import { addDays, datesFromThrough, localDateOf, parseDate, type DayZones } from '../time/calendar/dates.js';
import type { HolidayLanguage } from '../time/calendar/holidays.js';
import type { CalendarDayFigures } from '../time/statistics/index.js';
import { can, requireAllowed, type Actor, type Target } from './access.js';
import { membersOf, relationToTeam } from './members.js';
import { teamById, teamNotFound, type Team } from './teams.js';

export interface CalendarDeps {
  database: { db: Kysely<Database> };
  clock: Clock;
  statistics: {
    memberMonths(userIds: readonly number[], first: LocalDate, last: LocalDate, language: HolidayLanguage): Promise<CalendarDayFigures[][]>;
  };
  settings: { getSettings(userId: number): Promise<{ zones: DayZones }> };
}

/**
 * An absence as the calendar shows it. Every absence is `approved` today (an absence is booked at once);
 * `requested` is for leave that waits for a lead's decision. Another member's absence, to a member, is
 * `away` with its portion and nothing else.
 */
export type CalendarAbsence = { type: AbsenceType; portion: AbsencePortion; state: 'approved' | 'requested' } | { type: 'away'; portion: AbsencePortion };

export interface CalendarDay {
  date: LocalDate;
  /** The day has a target under the member's schedule (its target_minutes in the member's month is above 0). */
  target: boolean;
  /** The public holiday's name in the member's region, or null. */
  holiday: string | null;
  absence: CalendarAbsence | null;
}

export interface TeamCalendar {
  team: Team;
  month: string;
  days: LocalDate[];
  members: Array<{ user: PublicUser; days: CalendarDay[] }>;
}

/** Members whose month is worked out at once (one turn of the statistics lane), as for the overview. */
const MEMBERS_AT_ONCE = 10;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The first and last day of `month` (YYYY-MM), or of this month in the actor's zone (UTC for the operator). */
async function monthSpan(deps: CalendarDeps, actor: Actor, month: string | undefined): Promise<{ month: string; first: LocalDate; last: LocalDate }> {
  let shown = month;
  if (shown === undefined) {
    const zones: DayZones = actor.userId > 0 ? (await deps.settings.getSettings(actor.userId)).zones : 'UTC';
    shown = localDateOf(deps.clock.now().getTime(), zones).slice(0, 7);
  }
  if (!/^\d{4}-\d{2}$/.test(shown)) throw validationError('month must be YYYY-MM', 'month');
  const first = parseDate(`${shown}-01`, 'month');
  // The 28th plus four days is always in the next month; its day of the month is how far past the end.
  const past = addDays(`${shown}-28`, 4);
  return { month: shown, first, last: addDays(past, -Number(past.slice(8, 10))) };
}

/**
 * A day of the member's own month as the calendar shows it to an actor who sees the types of absences
 * (`detailed`) or not. A day asked for and not yet decided shows as `requested` to whoever sees the
 * kinds (the lead sees overlaps before approving); to another member of the team it is not shown, as
 * it is not decided.
 */
function calendarDay(day: CalendarDayFigures, detailed: boolean): CalendarDay {
  const { absence, absence_portion: portion, requested } = day;
  let shown: CalendarAbsence | null = null;
  if (absence !== null && portion !== null) shown = detailed ? { type: absence, portion, state: 'approved' } : { type: 'away', portion };
  else if (requested !== null && detailed) shown = { ...requested, state: 'requested' };
  return { date: day.date, target: day.target_minutes > 0, holiday: day.public_holiday, absence: shown };
}

async function teamCalendar(deps: CalendarDeps, actor: Actor, teamId: number, month: string | undefined, language: HolidayLanguage): Promise<TeamCalendar> {
  const { db } = deps.database;
  const target: Target = { kind: 'team', relation: await relationToTeam(db, actor.userId, teamId) };
  requireAllowed(actor, 'teams.calendar', target, teamNotFound);
  // Who may read the team's overview sees the kind of every absence; a member only its own.
  const seesKinds = can(actor, 'teams.overview', target) === 'allow';
  const team = await teamById(db, teamId);
  if (!team) throw teamNotFound();
  const span = await monthSpan(deps, actor, month);
  const users = (await membersOf(db, teamId)).map(({ user }) => user);
  const members: TeamCalendar['members'] = [];
  for (let at = 0; at < users.length; at += MEMBERS_AT_ONCE) {
    const wave = users.slice(at, at + MEMBERS_AT_ONCE);
    const months = await deps.statistics.memberMonths(
      wave.map((user) => user.id),
      span.first,
      span.last,
      language,
    );
    for (const [index, user] of wave.entries()) {
      const detailed = seesKinds || user.id === actor.userId;
      members.push({ user, days: months[index]!.map((day) => calendarDay(day, detailed)) });
    }
    await nextTurn();
  }
  return { team, month: span.month, days: datesFromThrough(span.first, span.last), members };
}

export function createCalendarService(deps: CalendarDeps) {
  return {
    teamCalendar: (actor: Actor, teamId: number, month?: string, language: HolidayLanguage = 'en') => teamCalendar(deps, actor, teamId, month, language),
  };
}

export type CalendarService = ReturnType<typeof createCalendarService>;
