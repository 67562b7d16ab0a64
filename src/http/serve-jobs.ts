// The periodic jobs of `serve` (the registry: src/common/jobs.ts), and what "once" means for each
// when several `serve` processes share a PostgreSQL database.
import type { AppContext } from '../composition-root.js';
import { createJobRegistry, type JobRegistry, type OutageReport } from '../common/jobs.js';
import { NOT_CHECKED } from '../common/health.js';

/** When the first integrity check runs after the start (then every INTEGRITY_CHECK_INTERVAL). */
const FIRST_INTEGRITY_CHECK_MS = 10_000;

/** The jobs of `serve`, registered and not yet started. */
export function serveJobs(ctx: AppContext, outages: OutageReport): JobRegistry {
  const { config, logger, services } = ctx;
  const jobs = createJobRegistry(logger, (name, fn) => ctx.database.exclusively(name, fn), outages);

  // Housekeeping, every HOUSEKEEPING_INTERVAL: expired sessions, tokens and challenges are deleted,
  // forgotten timers stop at their start plus the account's limit (docs/time-model.md), and months of
  // teams with an auto-lock lock (each a conditional write in its account's transaction). Once:
  // one process a round (the others skip it). Idempotent either way: it deletes what has expired,
  // and each timer stop checks the entry again in its account's own transaction.
  jobs.add({
    name: 'housekeeping',
    scope: 'one process a round',
    everyMs: config.housekeepingIntervalSeconds * 1000,
    run: async () => ({
      ...(await services.housekeeping.deleteExpiredRecords()),
      stoppedTimers: await services.timeEntries.stopForgottenTimers(),
      // Teams with auto_lock_after_days: their members' months lock that long after their end (docs/teams.md, "Closed months").
      lockedMonths: await services.months.lockOverdueMonths(),
    }),
    done: (deleted) => logger.debug({ deleted: deleted ?? 'done by another process' }, 'housekeeping done'),
    failureMessage: 'housekeeping failed',
  });

  // The audit trail's retention (docs/security.md, "The audit trail"), every HOUSEKEEPING_INTERVAL:
  // rows older than AUDIT_RETENTION_DAYS are deleted, 1,000 per statement. Once: one process a
  // round; idempotent (what is deleted is gone for every process).
  jobs.add({
    name: 'audit retention',
    scope: 'one process a round',
    everyMs: config.housekeepingIntervalSeconds * 1000,
    run: () => services.audit.prune(config.auditRetentionDays),
    done: (result) => {
      if (result === undefined) logger.debug('audit retention done by another process');
      else if (result.deleted > 0) logger.info({ deleted: result.deleted, before: result.before }, 'audit rows past their retention deleted');
    },
    failureMessage: 'audit retention failed',
  });

  // Notices (docs/notices.md), every NOTIFY_INTERVAL: the missing-day reminders and lead's digests
  // due (from NOTIFY_HOUR in each account's zone) are recorded. Once: one process a round; idempotent
  // besides (a notice's key is unique, and the day looked at is noted with it).
  jobs.add({
    name: 'reminders',
    scope: 'one process a round',
    everyMs: config.notify.intervalSeconds * 1000,
    run: async () => ({ missingDays: await services.notices.remindMissingDays(), digests: await services.notices.sendDigests() }),
    done: (result) => logger.debug({ reminders: result ?? 'done by another process' }, 'reminders done'),
    failureMessage: 'reminders failed',
  });

  // Their mail, every NOTIFY_INTERVAL, in every process: each notice is claimed by a conditional
  // update before it is sent (src/teams/notices-delivery.ts), so each is mailed by one process, once.
  jobs.add({
    name: 'notice mail',
    scope: 'every process',
    everyMs: config.notify.intervalSeconds * 1000,
    run: () => services.notices.deliverDue(),
    done: (result) => {
      if (result && result.sent + result.failed + result.givenUp > 0) logger.info(result, 'notice mail round');
    },
    failureMessage: 'notice mail failed',
  });

  // The integrity check (quick_check on SQLite), every INTEGRITY_CHECK_INTERVAL and once soon after
  // the start, never per request: /api/health reports a damaged database that still answers reads.
  // In every process: each process's /api/health answers from its own last check.
  jobs.add({
    name: 'integrity check',
    scope: 'every process',
    everyMs: config.integrityCheckIntervalSeconds * 1000,
    // Soon after the start, not during it (quick_check holds the event loop a moment).
    firstRoundAfterMs: Math.min(FIRST_INTEGRITY_CHECK_MS, config.integrityCheckIntervalSeconds * 1000),
    run: () => services.health.checkIntegrity(),
    done: (result) => {
      if (result === 'ok') logger.debug('database integrity check ok');
      else if (result?.startsWith(NOT_CHECKED)) logger.warn({ reason: result?.slice(NOT_CHECKED.length) }, 'database integrity check could not run');
      else logger.error({ problems: result }, 'database integrity check failed: restore a backup (docs/operations.md, "Backups")');
    },
    failureMessage: 'database integrity check could not run',
  });
  return jobs;
}
