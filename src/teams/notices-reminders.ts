// The missing-day reminder and the lead's digest (docs/notices.md): from NOTIFY_HOUR in each
// account's own zone, one look a day at each account (the last day looked at is kept in
// notice_checks, so a day is looked at once), a batch of accounts at a time with a turn of the event
// loop between two batches, so many accounts never hold the loop, the statistics lane or the pool.
// A day is missing when the account's own figures say so (src/time/statistics/previous-day.ts: a
// target, nothing worked, no absence; a public holiday has no target). The digest lists what waits
// for a lead, from the providers the leave requests and months plug in; nothing pending, no notice.
import type { Kysely } from 'kysely';
import type { Clock } from '../common/clock.js';
import type { TransactionalDatabase } from '../db/database.js';
import type { Database, LocalDate } from '../db/types.js';
import { addDays } from '../time/calendar/dates.js';
import type { LocalNow, PreviousDay } from '../time/statistics/index.js';
import { isMissingDay } from '../time/statistics/index.js';
import { recordNotice } from './notices.js';

/** One thing that waits for a lead (a leave request to decide, a month to approve, …). */
export interface PendingItem {
  /** The provider's kind of item, e.g. `leave-request`, `month`. */
  kind: string;
  id: number | string;
  /** Who it is about (the member's name), and what (e.g. the dates), as the digest lists it. */
  person?: string;
  summary?: string;
}

/** What the leave requests and the months give the lead's digest. */
export interface PendingProvider {
  pending(leadId: number): Promise<PendingItem[]>;
}

export interface ReminderDeps {
  database: TransactionalDatabase;
  clock: Clock;
  statistics: {
    previousDays(userIds: readonly number[], due: (now: LocalNow) => boolean): Promise<PreviousDay[]>;
    localNows(userIds: readonly number[]): Promise<LocalNow[]>;
  };
  pending: readonly PendingProvider[];
  options: { hour: number; batch?: number };
}

export const MISSING_DAY = 'missing-day';
export const LEAD_DIGEST = 'lead-digest';
const DEFAULT_BATCH = 50;
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

interface Candidate {
  id: number;
  checked: LocalDate | null;
  remindersEnabled: boolean;
}

/** A batch of active accounts after `afterId` (leads only, for the digest), with the day last looked at for `kind`. */
async function candidates(db: Kysely<Database>, kind: string, afterId: number, limit: number, leadsOnly: boolean): Promise<Candidate[]> {
  let query = db
    .selectFrom('users')
    .innerJoin('auth_info', 'auth_info.user_id', 'users.id')
    .leftJoin('user_settings', 'user_settings.user_id', 'users.id')
    .leftJoin('notice_checks', (join) => join.onRef('notice_checks.user_id', '=', 'users.id').on('notice_checks.kind', '=', kind))
    .select(['users.id', 'notice_checks.checked_date', 'user_settings.reminders_enabled'])
    .where('auth_info.status', '=', 'active')
    .where('users.id', '>', afterId);
  if (leadsOnly) {
    query = query
      .where('users.role', 'in', ['lead', 'admin'])
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('team_members')
            .select('team_members.user_id')
            .whereRef('team_members.user_id', '=', 'users.id')
            .where('team_members.role', '=', 'lead'),
        ),
      );
  }
  const rows = await query.orderBy('users.id').limit(limit).execute();
  return rows.map((row) => ({ id: row.id, checked: row.checked_date ?? null, remindersEnabled: row.reminders_enabled !== 0 }));
}

/** Notes that `date` was looked at for `kind` (in the caller's transaction). */
async function markChecked(trx: Kysely<Database>, userId: number, kind: string, date: LocalDate): Promise<void> {
  await trx
    .insertInto('notice_checks')
    .values({ user_id: userId, kind, checked_date: date })
    .onConflict((conflict) => conflict.columns(['user_id', 'kind']).doUpdateSet({ checked_date: date }))
    .execute();
}

export function createReminders({ database, clock, statistics, pending, options }: ReminderDeps) {
  const { db } = database;
  const batch = options.batch ?? DEFAULT_BATCH;

  /** Runs `each` on every batch of candidates, a turn of the event loop between two. */
  async function inBatches(kind: string, leadsOnly: boolean, each: (batch: Candidate[]) => Promise<void>): Promise<void> {
    let afterId = 0;
    for (;;) {
      const found = await candidates(db, kind, afterId, batch, leadsOnly);
      if (found.length > 0) await each(found);
      if (found.length < batch) return;
      afterId = found.at(-1)!.id;
      await nextTurn();
    }
  }

  /** One round of the missing-day reminder: answers how many accounts were looked at and reminded. */
  async function remindMissingDays(): Promise<{ looked: number; reminded: number }> {
    const result = { looked: 0, reminded: 0 };
    await inBatches(MISSING_DAY, false, async (found) => {
      const byId = new Map(found.map((candidate) => [candidate.id, candidate]));
      // Due: past the hour in its zone, and yesterday not looked at yet.
      const due = ({ userId, today, hour }: LocalNow) => hour >= options.hour && (byId.get(userId)!.checked ?? '') < addDays(today, -1);
      for (const previous of await statistics.previousDays([...byId.keys()], due)) {
        const { userId, day } = previous;
        const remind = byId.get(userId)!.remindersEnabled && isMissingDay(day);
        await database.transact(async (trx) => {
          if (remind) {
            const data = { date: day.date, target_minutes: day.target_minutes };
            if (await recordNotice(trx, { userId, kind: MISSING_DAY, key: `${MISSING_DAY}:${userId}:${day.date}`, data, at: clock.now() }))
              result.reminded += 1;
          }
          await markChecked(trx, userId, MISSING_DAY, day.date);
        });
        result.looked += 1;
      }
    });
    return result;
  }

  /** What waits for a lead, from every provider. */
  async function pendingFor(leadId: number): Promise<PendingItem[]> {
    const items: PendingItem[] = [];
    for (const provider of pending) items.push(...(await provider.pending(leadId)));
    return items;
  }

  /** One round of the lead's digest: answers how many leads were looked at and got one. */
  async function sendDigests(): Promise<{ looked: number; digests: number }> {
    const result = { looked: 0, digests: 0 };
    await inBatches(LEAD_DIGEST, true, async (found) => {
      const byId = new Map(found.map((candidate) => [candidate.id, candidate]));
      for (const { userId, today, hour } of await statistics.localNows([...byId.keys()])) {
        if (hour < options.hour || (byId.get(userId)!.checked ?? '') >= today) continue;
        const items = await pendingFor(userId);
        await database.transact(async (trx) => {
          if (items.length > 0) {
            const data = { date: today, items };
            if (await recordNotice(trx, { userId, kind: LEAD_DIGEST, key: `${LEAD_DIGEST}:${userId}:${today}`, data, at: clock.now() })) result.digests += 1;
          }
          await markChecked(trx, userId, LEAD_DIGEST, today);
        });
        result.looked += 1;
      }
    });
    return result;
  }

  return { remindMissingDays, sendDigests };
}
