// The lead's view of a team (docs/teams.md, "The lead's view"; docs/api.md, "Teams"): another
// account's statistics through `can(actor, 'stats.read', person)`, and a team's week: each member's
// figures read from that member's own services in time/ (the week, overtime and vacation answers the
// member gets), so a lead sees exactly what the member sees. Members are read ten at a time, each ten
// in one turn of the statistics lane (src/time/statistics/member-week.ts: their contexts and week read
// together, their figures worked out one after another), with a turn of the event loop between two:
// one overview never holds the lane, the pool or the loop for a whole team.
import type { Kysely } from 'kysely';
import { ServiceError } from '../common/errors.js';
import type { Clock } from '../common/clock.js';
import type { Database, LocalDate } from '../db/types.js';
import { PUBLIC_USER_COLUMNS, type PublicUser } from '../auth/accounts/users.js';
import type { Absence } from '../time/absences/absences.js';
import type { VacationYear } from '../time/absences/vacation.js';
import { localDateOf, mondayOf, parseDate, type DayZones } from '../time/calendar/dates.js';
import type { ScheduleTimeline } from '../time/schedules.js';
import type { Settings } from '../time/settings/settings.js';
import type { MemberWeek } from '../time/statistics/index.js';
import { requireAllowed, type Actor } from './access.js';
import { membersOf, relationToPerson, relationToTeam } from './members.js';
import { teamById, teamNotFound, type Team } from './teams.js';

export interface OverviewDeps {
  database: { db: Kysely<Database> };
  clock: Clock;
  statistics: { memberWeeks(userIds: readonly number[], weekStart: LocalDate): Promise<MemberWeek[]> };
  vacation: {
    vacationYearsOf(members: ReadonlyArray<{ userId: number; settings: Settings; timeline: ScheduleTimeline }>, year: number): Promise<VacationYear[]>;
  };
  settings: { getSettings(userId: number): Promise<{ zones: DayZones }> };
}

export interface MemberOverview {
  user: PublicUser;
  week: { worked_minutes: number; target_minutes: number; balance_minutes: number };
  balance_minutes: number;
  vacation: VacationYear;
  running_since: string | null;
  /** The member's date now, in the member's zone (where its week's days stop being complete). */
  today: LocalDate;
  absence_today: Absence['type'] | null;
  missing_days: LocalDate[];
}

export interface TeamOverview {
  team: Team;
  week_start: LocalDate;
  members: MemberOverview[];
}

function noSuchAccount(): ServiceError {
  return new ServiceError('USER_NOT_FOUND', 'No such account');
}

/** The account whose statistics the actor reads: itself, one it leads, or (an admin) anyone; 404 otherwise. */
async function statsSubject(deps: OverviewDeps, actor: Actor, userId: number): Promise<PublicUser> {
  const { db } = deps.database;
  requireAllowed(actor, 'stats.read', { kind: 'person', relation: await relationToPerson(db, actor.userId, userId) }, noSuchAccount);
  const user = await db.selectFrom('users').select(PUBLIC_USER_COLUMNS).where('users.id', '=', userId).executeTakeFirst();
  if (!user) throw noSuchAccount();
  return user;
}

/** One member's row: every figure from the functions of that member's own answers, from one read of its context. */
function memberRow(user: PublicUser, figures: MemberWeek, vacation: VacationYear): MemberOverview {
  const { worked_minutes, target_minutes, balance_minutes } = figures.week.totals;
  return {
    user,
    week: { worked_minutes, target_minutes, balance_minutes },
    balance_minutes: figures.overtime.balance_minutes,
    vacation,
    running_since: figures.running_since,
    today: figures.today,
    absence_today: figures.absence_today,
    // The week's complete days (before today, from tracking_start) with a target, nothing worked and no absence.
    missing_days: figures.week.days
      .filter((day) => day.complete && day.target_minutes > 0 && day.worked_minutes === 0 && day.break_minutes === 0 && day.absence === null)
      .map((day) => day.date),
  };
}

/** Members whose rows are worked out at once (their contexts read together, one turn of the statistics lane): bounded. */
const MEMBERS_AT_ONCE = 10;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** The week (Monday) of `week`, or this week in the actor's own zone (UTC for the operator at the shell). */
async function weekStartFor(deps: OverviewDeps, actor: Actor, week: string | undefined): Promise<LocalDate> {
  if (week !== undefined) return mondayOf(parseDate(week, 'week'));
  const zones: DayZones = actor.userId > 0 ? (await deps.settings.getSettings(actor.userId)).zones : 'UTC';
  return mondayOf(localDateOf(deps.clock.now().getTime(), zones));
}

async function teamOverview(deps: OverviewDeps, actor: Actor, teamId: number, week: string | undefined): Promise<TeamOverview> {
  const { db } = deps.database;
  requireAllowed(actor, 'teams.overview', { kind: 'team', relation: await relationToTeam(db, actor.userId, teamId) }, teamNotFound);
  const team = await teamById(db, teamId);
  if (!team) throw teamNotFound();
  const weekStart = await weekStartFor(deps, actor, week);
  const users = (await membersOf(db, teamId)).map(({ user }) => user);
  const members: MemberOverview[] = [];
  // A few members at once (their contexts and their week's days read in the same statements, then one
  // member after another), in one turn of the statistics lane, and a turn of the event loop between
  // two waves.
  for (let at = 0; at < users.length; at += MEMBERS_AT_ONCE) {
    const wave = users.slice(at, at + MEMBERS_AT_ONCE);
    const figures = await deps.statistics.memberWeeks(
      wave.map((user) => user.id),
      weekStart,
    );
    const vacation = await deps.vacation.vacationYearsOf(
      figures.map(({ settings, timeline }, index) => ({ userId: wave[index]!.id, settings, timeline })),
      Number(weekStart.slice(0, 4)),
    );
    for (const [index, user] of wave.entries()) members.push(memberRow(user, figures[index]!, vacation[index]!));
    await nextTurn();
  }
  return { team, week_start: weekStart, members };
}

export function createOverviewService(deps: OverviewDeps) {
  return {
    statsSubject: (actor: Actor, userId: number) => statsSubject(deps, actor, userId),
    teamOverview: (actor: Actor, teamId: number, week?: string) => teamOverview(deps, actor, teamId, week),
  };
}

export type OverviewService = ReturnType<typeof createOverviewService>;
