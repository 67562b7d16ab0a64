// `timetrack audit list`: what admin commands and security events changed, newest first.
// `timetrack audit prune`: the retention job of `serve` (src/http/serve-jobs.ts) run by hand.
import type { Command } from 'commander';
import { DateTime } from 'luxon';
import { recordAdminAction, runAdminCommand } from './command-context.js';
import { UsageError } from './errors.js';

interface ListOptions {
  user?: string;
  since?: string;
  limit: string;
}

/** An ISO instant, or a date (midnight UTC). */
function parseSince(since: string): string {
  const parsed = DateTime.fromISO(since, { zone: 'utc' });
  if (!parsed.isValid) throw new UsageError(`--since: "${since}" is not an ISO 8601 date or instant (e.g. 2026-03-01 or 2026-03-01T08:00:00Z)`);
  return parsed.toUTC().toISO() ?? since;
}

/** `timetrack audit prune`: deletes the rows past AUDIT_RETENTION_DAYS now, under the job's lock (one process at a time). */
function registerPruneCommand(audit: Command): void {
  audit
    .command('prune')
    .description('delete the audit rows older than AUDIT_RETENTION_DAYS now (serve does so every HOUSEKEEPING_INTERVAL) and print how many went')
    .addHelpText('after', '\nExample:\n  timetrack --env-file /etc/timetrack/timetrack.env audit prune')
    .action((_options: object, command: Command) =>
      runAdminCommand(command, async (ctx) => {
        const days = ctx.config.auditRetentionDays;
        const result = await ctx.database.exclusively('audit retention', () => ctx.services.audit.prune(days));
        if (result === undefined) {
          return {
            json: { deleted: 0, retention_days: days, running_elsewhere: true },
            text: ['another process is deleting expired audit rows right now; nothing done'],
          };
        }
        // Rows of the trail went: the trail says by whom (a run that deleted nothing writes nothing).
        if (result.deleted > 0) await recordAdminAction(ctx, { action: 'audit_pruned', detail: { deleted: result.deleted, before: result.before } });
        return {
          json: { deleted: result.deleted, batches: result.batches, before: result.before, retention_days: days },
          text: [`deleted ${result.deleted} audit row${result.deleted === 1 ? '' : 's'} older than ${result.before} (AUDIT_RETENTION_DAYS=${days})`],
        };
      }),
    );
}

export function registerAuditCommand(program: Command): void {
  const audit = program.command('audit').description('the audit trail of admin commands and security events');

  audit
    .command('list')
    .description('what admin commands and security events changed, newest first')
    .option(
      '--user <account>',
      'only events about this account, by e-mail address or username, across its e-mail changes (a deleted account by an address it had); an unknown account exits 3',
    )
    .option('--since <when>', 'only events at or after this ISO date or instant')
    .option('--limit <n>', 'at most this many events', '100')
    .addHelpText('after', '\nExample:\n  timetrack audit list --user ann@example.com --since 2026-03-01 --json')
    .action((options: ListOptions, command: Command) => {
      const limit = Number(options.limit);
      if (!Number.isInteger(limit) || limit < 1) throw new UsageError('--limit takes a whole number of at least 1');
      const since = options.since === undefined ? undefined : parseSince(options.since);
      return runAdminCommand(command, async (ctx) => {
        const userIds = options.user === undefined ? undefined : await ctx.services.audit.accountIds(options.user);
        const events = await ctx.services.audit.list({ userIds, since, limit });
        const text =
          events.length === 0
            ? ['no audit events']
            : events.map(
                (event) =>
                  `${event.at}  ${event.action}  by ${event.actor}${event.user_email ? `  ${event.user_email}` : ''}${Object.keys(event.detail).length > 0 ? `  ${JSON.stringify(event.detail)}` : ''}`,
              );
        return { json: { events }, text };
      });
    });
  registerPruneCommand(audit);
}
