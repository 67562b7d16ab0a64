// Notices (docs/notices.md): what an account is told, once. A service records one inside its own
// transaction with `recordNotice` (a second one with the same key records nothing), the account reads
// its own under the bell (newest first, with the unread count) and marks them read; the notice job
// mails each one once (./notices-delivery.ts).
import type { Kysely } from 'kysely';
import { ServiceError } from '../common/errors.js';
import type { Clock } from '../common/clock.js';
import type { Database } from '../db/types.js';

export interface NoticeInput {
  userId: number;
  /** `missing-day`, `lead-digest`, or a kind of the leave requests and months. */
  kind: string;
  /** Unique across all notices: `missing-day:<user>:<date>`, `request-decided:<request>:<state>`, … */
  key: string;
  data: Record<string, unknown>;
  /** When it was recorded (default: now). */
  at?: Date;
}

/**
 * Records a notice in the caller's transaction (or any executor): true when recorded, false when one
 * with this key exists (then nothing changes). It is mailed by the notice job, never here.
 */
export async function recordNotice(trx: Kysely<Database>, notice: NoticeInput): Promise<boolean> {
  const result = await trx
    .insertInto('notices')
    .values({
      user_id: notice.userId,
      kind: notice.kind,
      key: notice.key,
      data: JSON.stringify(notice.data),
      created_at: (notice.at ?? new Date()).toISOString(),
    })
    .onConflict((conflict) => conflict.column('key').doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export interface Notice {
  id: number;
  kind: string;
  data: Record<string, unknown>;
  created_at: string;
  read_at: string | null;
}

/** The most notices a list answers (the newest). */
export const NOTICES_LISTED = 50;

export interface NoticeListDeps {
  database: { db: Kysely<Database> };
  clock: Clock;
}

/** An account's own notices: the list, and marking them read. */
export function createNoticeList({ database, clock }: NoticeListDeps) {
  const { db } = database;

  async function list(userId: number): Promise<{ notices: Notice[]; unread: number }> {
    const rows = await db
      .selectFrom('notices')
      .select(['id', 'kind', 'data', 'created_at', 'read_at'])
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .limit(NOTICES_LISTED)
      .execute();
    const { count } = await db
      .selectFrom('notices')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .where('user_id', '=', userId)
      .where('read_at', 'is', null)
      .executeTakeFirstOrThrow();
    const notices = rows.map((row) => ({ ...row, data: JSON.parse(row.data) as Record<string, unknown> }));
    return { notices, unread: Number(count) };
  }

  /** Marks one of the account's own notices read (again: no change); NOT_FOUND for another account's. */
  async function markRead(userId: number, noticeId: number): Promise<void> {
    const found = await db.selectFrom('notices').select('read_at').where('id', '=', noticeId).where('user_id', '=', userId).executeTakeFirst();
    if (!found) throw new ServiceError('NOT_FOUND', 'No such notice');
    if (found.read_at !== null) return;
    await db.updateTable('notices').set({ read_at: clock.now().toISOString() }).where('id', '=', noticeId).where('read_at', 'is', null).execute();
  }

  /** Marks every unread notice of the account read; answers how many. */
  async function markAllRead(userId: number): Promise<number> {
    const result = await db
      .updateTable('notices')
      .set({ read_at: clock.now().toISOString() })
      .where('user_id', '=', userId)
      .where('read_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  return { list, markRead, markAllRead };
}
