// The services of the team layer (src/teams/, docs/teams.md), wired once for the composition root
// (src/composition-root.ts) from the identity and working-time services it built first.
import type { Logger } from 'pino';
import type { Clock } from '../common/clock.js';
import type { Config } from '../config/index.js';
import { createNoticeMailSender } from '../mail/notice-mail.js';
import type { OpenedDatabase } from '../db/database.js';
import type { createAuditService } from '../auth/audit.js';
import type { PasswordHasher } from '../auth/passwords/index.js';
import {
  createAccountActionService,
  createCalendarService,
  createInvitationService,
  createOverviewService,
  createPeopleService,
  createNoticeService,
  createTeamService,
  type AccountActionDeps,
  type CalendarDeps,
  createMonthService,
  type NoticeDeps,
  type InvitationDeps,
  type MonthDeps,
  type OverviewDeps,
} from '../teams/index.js';
import { pendingLeaveRequests, pendingMonths } from '../teams/notices-pending.js';
import { createLeaveRequestService } from '../teams/requests/index.js';

export interface TeamWiring {
  database: OpenedDatabase;
  clock: Clock;
  identity: Omit<AccountActionDeps, 'database' | 'audit'> & { hasher: PasswordHasher };
  time: Pick<OverviewDeps, 'vacation' | 'settings'> & {
    statistics: OverviewDeps['statistics'] & CalendarDeps['statistics'] & MonthDeps['statistics'] & NoticeDeps['statistics'];
    bookings: MonthDeps['bookings'];
  };
  audit: ReturnType<typeof createAuditService>;
  invitationLinks: Pick<InvitationDeps, 'delivery' | 'options'>;
  notices: Pick<NoticeDeps, 'mailer' | 'report' | 'options'>;
}

export function teamServices({ database, clock, identity, time, audit, invitationLinks, notices }: TeamWiring) {
  return {
    people: createPeopleService({ database, hasher: identity.hasher }),
    accountActions: createAccountActionService({ ...identity, database, audit }),
    teams: createTeamService({ database, clock }),
    invitations: createInvitationService({ database, clock, hasher: identity.hasher, audit, ...invitationLinks }),
    overview: createOverviewService({ database, clock, ...time }),
    calendar: createCalendarService({ database, clock, ...time }),
    requests: createLeaveRequestService({ database, clock, audit }),
    months: createMonthService({ database, clock, statistics: time.statistics, settings: time.settings, bookings: time.bookings }),
    // What waits for a lead: the leave requests and the submitted months of the people it leads.
    notices: createNoticeService({
      database,
      clock,
      statistics: time.statistics,
      pending: [pendingLeaveRequests(database.db), pendingMonths(database.db)],
      ...notices,
    }),
  };
}

/** How notices are mailed and retried (docs/notices.md): NOTIFY_* and the mail settings; each failure logged. */
export function noticeWiring({ config, logger, options }: { config: Config; logger: Logger; options: { terminal?: NodeJS.WritableStream | undefined } }) {
  return {
    mailer: createNoticeMailSender({ dev: config.dev, smtp: config.smtp, publicUrl: config.publicUrl, terminal: options.terminal }),
    report: {
      failed({ id, kind, attempts, reason, retryAt }) {
        if (retryAt === null) logger.error({ notice: id, kind, attempts, reason }, 'notice e-mail failed; giving up');
        else logger.warn({ notice: id, kind, attempts, reason, retryAt }, 'notice e-mail failed; will retry');
      },
      notMailed(count) {
        logger.warn({ count }, 'notices not mailed: no SMTP settings (they are listed under the bell)');
      },
    },
    options: { hour: config.notify.hour, retrySeconds: config.notify.retrySeconds, attempts: config.notify.attempts },
  } satisfies Pick<NoticeDeps, 'mailer' | 'report' | 'options'>;
}
