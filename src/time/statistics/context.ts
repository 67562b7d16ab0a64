// What every statistics request of an account reads first, once (docs/performance.md): the settings,
// the schedules and the running entry, and the instant the figures are worked out for. The figures
// below take this context instead of reading them again, so a request sends each statement once.
import type { Kysely } from 'kysely';
import type { Database, TimeEntryRow } from '../../db/types.js';
import { settingsSchedulesAndRunningOf, type Settings } from '../settings/settings.js';
import { ScheduleTimeline } from '../schedules.js';
import type { StatisticsDeps } from './types.js';

export interface AccountContext {
  userId: number;
  settings: Settings;
  timeline: ScheduleTimeline;
  /** The entry without an end, if one runs. */
  running: TimeEntryRow | undefined;
  /** The end of the entry before the running one, read on first use (the break before it). */
  previousEnd(): Promise<number | undefined>;
  nowMs: number;
}

/** Reads an account's context: one statement (the settings with the zones, the schedules, the running entry; ../settings/account-rows.ts). */
export async function accountContext(deps: Pick<StatisticsDeps, 'db' | 'clock'>, userId: number): Promise<AccountContext> {
  return (await accountContexts(deps, [userId]))[0]!;
}

/** The contexts of several accounts (a lead's overview of a team): the same statement, for all of them. */
export async function accountContexts({ db, clock }: Pick<StatisticsDeps, 'db' | 'clock'>, userIds: readonly number[]): Promise<AccountContext[]> {
  if (userIds.length === 0) return [];
  const read = await settingsSchedulesAndRunningOf(clock, db, userIds);
  const nowMs = clock.now().getTime();
  return userIds.map((userId) => {
    const { settings, schedules, running } = read.get(userId)!;
    let previous: Promise<number | undefined> | undefined;
    return {
      userId,
      settings,
      timeline: new ScheduleTimeline(schedules),
      running,
      previousEnd: () => (previous ??= running ? endBefore(db, userId, running.start_at) : Promise.resolve(undefined)),
      nowMs,
    };
  });
}

/** The end of the user's last entry that started before `startAt`, if any. */
async function endBefore(db: Kysely<Database>, userId: number, startAt: string): Promise<number | undefined> {
  const [previous] = await db
    .selectFrom('time_entries')
    .select('end_at')
    .where('user_id', '=', userId)
    .where('start_at', '<', startAt)
    .orderBy('start_at', 'desc')
    .limit(1)
    .execute();
  return previous?.end_at ? Date.parse(previous.end_at) : undefined;
}
