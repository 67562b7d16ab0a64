// The notices of the team layer bound into one service (docs/notices.md): an account's own list under
// the bell (./notices.ts), the missing-day reminder and the lead's digest (./notices-reminders.ts),
// and the mail of each notice (./notices-delivery.ts). Other services record a notice with
// `recordNotice` in their own transaction; `serve`'s jobs run the rounds (src/http/serve-jobs.ts).
import type { Clock } from '../common/clock.js';
import type { TransactionalDatabase } from '../db/database.js';
import { createNoticeDelivery, type DeliveryDeps } from './notices-delivery.js';
import { createNoticeList } from './notices.js';
import { createReminders, type ReminderDeps } from './notices-reminders.js';

export interface NoticeDeps {
  database: TransactionalDatabase;
  clock: Clock;
  statistics: ReminderDeps['statistics'];
  /** What waits for a lead: the providers of the leave requests and months (none yet). */
  pending: ReminderDeps['pending'];
  mailer: DeliveryDeps['mailer'];
  report: DeliveryDeps['report'];
  options: { hour: number; retrySeconds: number; attempts: number; batch?: number };
}

export function createNoticeService({ database, clock, statistics, pending, mailer, report, options }: NoticeDeps) {
  const reminders = createReminders({ database, clock, statistics, pending, options });
  const delivery = createNoticeDelivery({ database, clock, mailer, report, options });
  return {
    ...createNoticeList({ database, clock }),
    ...reminders,
    ...delivery,
  };
}

export type NoticeService = ReturnType<typeof createNoticeService>;
