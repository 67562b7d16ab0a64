// The team layer (docs/teams.md; docs/architecture.md, "The team layer"): the one authorisation rule
// (access.ts), memberships and how an actor stands to an account or a team (members.ts), teams
// (teams.ts, bound with the rule in team-service.ts), and the administration of accounts through the
// rule (people.ts). Above auth/ and time/, which never import it.
export { OPERATOR, type Actor } from './access.js';
export { createCalendarService, type CalendarDeps, type CalendarService } from './calendar.js';
export { createOverviewService, type OverviewDeps, type OverviewService } from './overview.js';
export { createPeopleService, type PeopleDeps, type PeopleService } from './people.js';
export { createInvitationService, type InvitationDelivery, type InvitationDeps, type InvitationService, type IssuedInvitation } from './invitations.js';
export { createAccountActionService, type AccountActionDeps, type AccountActionService } from './account-actions.js';
export { createTeamService, type TeamDeps, type TeamService } from './team-service.js';
export { createMonthService, type MonthDeps, type MonthService } from './months/service.js';
export { createNoticeService, type NoticeDeps, type NoticeService } from './notices-service.js';
export { recordNotice, type Notice, type NoticeInput } from './notices.js';
export type { DeliveryReport, NoticeMail, NoticeMailer } from './notices-delivery.js';
export type { PendingItem, PendingProvider } from './notices-reminders.js';
export { verifyFile, type FileVerdict } from './months/verify-file.js';
