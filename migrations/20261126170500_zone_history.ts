// The time zone becomes a history: each zone applies from a date on, and a day counts in the zone in
// force on it (docs/time-model.md, Time zone history). Every account's zone becomes one entry from its
// tracking start (or the day the account was made, in that zone), so no day moves and no figure
// changes; user_settings.timezone is no longer read. Frozen in time: uses Kysely<any> and its own copy
// of the date rule.
import type { Kysely } from 'kysely';
import { DateTime } from 'luxon';
import { dateType, instantType } from './dialect.js';

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('zone_history')
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('valid_from', dateType(db), (col) => col.notNull())
    .addColumn('timezone', 'text', (col) => col.notNull())
    .addColumn('created_at', instantType(db), (col) => col.notNull())
    .addPrimaryKeyConstraint('zone_history_one_per_day', ['user_id', 'valid_from'])
    .execute();

  const now = new Date().toISOString();
  const users: Array<Record<string, unknown>> = await db
    .selectFrom('users')
    .leftJoin('user_settings', 'user_settings.user_id', 'users.id')
    .select(['users.id as id', 'users.created_at as created_at', 'user_settings.timezone as timezone', 'user_settings.tracking_start as tracking_start'])
    .execute();
  for (const user of users) {
    const zone = (user.timezone as string | null) ?? 'UTC';
    const trackingStart = user.tracking_start as string | Date | null;
    const validFrom =
      trackingStart instanceof Date
        ? trackingStart.toISOString().slice(0, 10)
        : (trackingStart ?? (DateTime.fromMillis(new Date(user.created_at as string | Date).getTime(), { zone }).toISODate() as string));
    await db.insertInto('zone_history').values({ user_id: user.id, valid_from: validFrom, timezone: zone, created_at: now }).execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('zone_history').execute();
}
