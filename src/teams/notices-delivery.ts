// The mail of each notice, once (docs/notices.md, "Mail"), by `serve`'s notice job, never in a request.
// A round takes the notices due (not sent, not given up, next_try_at passed or unset), a batch at a
// time, and claims each with a conditional update before it sends it: the update succeeds in one
// process only (the row must still be due when it is written), and moves next_try_at a claim's length
// ahead, so no other process takes the row while it is being sent; a process that stops mid-send
// leaves it to be taken again after the claim. A failed send is tried again after NOTIFY_RETRY, twice
// as long after each further failure (at most a day); after NOTIFY_ATTEMPTS it is given up. Each
// failure is reported (logged by the wiring) and kept on the row (attempts, last_error).
import type { Kysely } from 'kysely';
import type { Clock } from '../common/clock.js';
import type { Database } from '../db/types.js';

export interface NoticeMail {
  to: { email: string; fullName: string };
  kind: string;
  data: Record<string, unknown>;
  createdAt: string;
}

/** How a notice's mail goes out (src/mail/notice-mail.ts); `none`: nothing can be mailed (no SMTP). */
export type NoticeMailer = { mode: 'mail' | 'terminal'; send(mail: NoticeMail): Promise<void> } | { mode: 'none' };

/** What a round reports: each failure (retried or given up), and notices left unmailed without SMTP. */
export interface DeliveryReport {
  failed(notice: { id: number; kind: string; attempts: number; reason: string; retryAt: string | null }): void;
  notMailed(count: number): void;
}

export interface DeliveryDeps {
  database: { db: Kysely<Database> };
  clock: Clock;
  mailer: NoticeMailer;
  report: DeliveryReport;
  options: { retrySeconds: number; attempts: number; batch?: number };
}

/** How long a claimed notice is left to the process sending it before another may take it. */
export const CLAIM_SECONDS = 300;
const LONGEST_WAIT_SECONDS = 86_400;
const DEFAULT_BATCH = 50;

export interface DeliveryRound {
  sent: number;
  failed: number;
  givenUp: number;
}

const later = (now: Date, seconds: number) => new Date(now.getTime() + seconds * 1000).toISOString();

/** The ids of the notices due now, oldest first. */
function dueIds(db: Kysely<Database>, nowIso: string, afterId: number, batch: number) {
  return db
    .selectFrom('notices')
    .select('id')
    .where('sent_at', 'is', null)
    .where('given_up_at', 'is', null)
    .where((eb) => eb.or([eb('next_try_at', 'is', null), eb('next_try_at', '<=', nowIso)]))
    .where('id', '>', afterId)
    .orderBy('id')
    .limit(batch)
    .execute();
}

/** Takes one notice for this process (true), unless another process took or sent it first. */
async function claim(db: Kysely<Database>, id: number, nowIso: string, until: string): Promise<boolean> {
  const result = await db
    .updateTable('notices')
    .set((eb) => ({ next_try_at: until, attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .where('sent_at', 'is', null)
    .where('given_up_at', 'is', null)
    .where((eb) => eb.or([eb('next_try_at', 'is', null), eb('next_try_at', '<=', nowIso)]))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

/** Without SMTP: the notices due stay under the bell and are marked as not mailed (once each). */
async function markNotMailed(db: Kysely<Database>, nowIso: string): Promise<number> {
  const result = await db
    .updateTable('notices')
    .set({ given_up_at: nowIso, last_error: 'not mailed: no SMTP settings' })
    .where('sent_at', 'is', null)
    .where('given_up_at', 'is', null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export function createNoticeDelivery({ database, clock, mailer, report, options }: DeliveryDeps) {
  const { db } = database;
  const batch = options.batch ?? DEFAULT_BATCH;

  async function claimed(id: number) {
    return db
      .selectFrom('notices')
      .innerJoin('users', 'users.id', 'notices.user_id')
      .select(['notices.id', 'notices.kind', 'notices.data', 'notices.created_at', 'notices.attempts', 'users.email', 'users.full_name'])
      .where('notices.id', '=', id)
      .executeTakeFirstOrThrow();
  }

  /** Sends one claimed notice and writes what came of it. */
  async function sendOne(id: number, send: (mail: NoticeMail) => Promise<void>, round: DeliveryRound): Promise<void> {
    const row = await claimed(id);
    try {
      await send({
        to: { email: row.email, fullName: row.full_name },
        kind: row.kind,
        data: JSON.parse(row.data) as Record<string, unknown>,
        createdAt: row.created_at,
      });
    } catch (error) {
      const reason = (error instanceof Error ? error.message : String(error)).slice(0, 500);
      const now = clock.now();
      const giveUp = row.attempts >= options.attempts;
      const wait = Math.min(LONGEST_WAIT_SECONDS, options.retrySeconds * 2 ** (row.attempts - 1));
      const retryAt = giveUp ? null : later(now, wait);
      await db
        .updateTable('notices')
        .set({ last_error: reason, next_try_at: retryAt, given_up_at: giveUp ? now.toISOString() : null })
        .where('id', '=', id)
        .execute();
      report.failed({ id, kind: row.kind, attempts: row.attempts, reason, retryAt });
      if (giveUp) round.givenUp += 1;
      else round.failed += 1;
      return;
    }
    // Outside the try: a mail that went out is never counted as failed. Should this mark fail (the
    // database gone), the round's failure is logged and the notice is mailed again once its claim ends:
    // at least once, never lost.
    await db.updateTable('notices').set({ sent_at: clock.now().toISOString(), next_try_at: null, last_error: null }).where('id', '=', id).execute();
    round.sent += 1;
  }

  /** One round: every notice due now, a batch at a time, a turn of the event loop between two batches. */
  async function deliverDue(): Promise<DeliveryRound> {
    const round: DeliveryRound = { sent: 0, failed: 0, givenUp: 0 };
    const now = clock.now();
    const nowIso = now.toISOString();
    if (mailer.mode === 'none') {
      const count = await markNotMailed(db, nowIso);
      if (count > 0) report.notMailed(count);
      return round;
    }
    let afterId = 0;
    for (;;) {
      const ids = await dueIds(db, nowIso, afterId, batch);
      for (const { id } of ids) {
        const at = clock.now();
        if (await claim(db, id, at.toISOString(), later(at, CLAIM_SECONDS))) await sendOne(id, (mail) => mailer.send(mail), round);
      }
      if (ids.length < batch) return round;
      afterId = ids.at(-1)!.id;
      await new Promise<void>((resolve) => setImmediate(resolve));
    }
  }

  return { deliverDue };
}
