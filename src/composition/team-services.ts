// The services of the team layer (src/teams/, docs/teams.md), wired once for the composition root
// (src/composition-root.ts) from the identity and working-time services it built first.
import type { Clock } from '../common/clock.js';
import type { OpenedDatabase } from '../db/database.js';
import type { createAuditService } from '../auth/audit.js';
import type { PasswordHasher } from '../auth/passwords/index.js';
import {
  createAccountActionService,
  createCalendarService,
  createInvitationService,
  createOverviewService,
  createPeopleService,
  createTeamService,
  type AccountActionDeps,
  type CalendarDeps,
  createMonthService,
  type InvitationDeps,
  type MonthDeps,
  type OverviewDeps,
} from '../teams/index.js';
import { createLeaveRequestService } from '../teams/requests/index.js';

export interface TeamWiring {
  database: OpenedDatabase;
  clock: Clock;
  identity: Omit<AccountActionDeps, 'database' | 'audit'> & { hasher: PasswordHasher };
  time: Pick<OverviewDeps, 'statistics' | 'vacation' | 'settings'> & {
    statistics: CalendarDeps['statistics'] & MonthDeps['statistics'];
    bookings: MonthDeps['bookings'];
  };
  audit: ReturnType<typeof createAuditService>;
  invitationLinks: Pick<InvitationDeps, 'delivery' | 'options'>;
}

export function teamServices({ database, clock, identity, time, audit, invitationLinks }: TeamWiring) {
  return {
    people: createPeopleService({ database, hasher: identity.hasher }),
    accountActions: createAccountActionService({ ...identity, database, audit }),
    teams: createTeamService({ database, clock }),
    invitations: createInvitationService({ database, clock, hasher: identity.hasher, audit, ...invitationLinks }),
    overview: createOverviewService({ database, clock, ...time }),
    calendar: createCalendarService({ database, clock, ...time }),
    requests: createLeaveRequestService({ database, clock, audit }),
    months: createMonthService({ database, clock, statistics: time.statistics, settings: time.settings, bookings: time.bookings }),
  };
}
