// Weekly targets become a history: each user's targets are schedules, each valid from a date, and a
// day counts with the schedule in force on it (docs/time-model.md). Every user's current targets
// become one schedule from their tracking start, so no figure changes; the target columns of
// user_settings are no longer read. Frozen in time: uses Kysely<any> and its own copy of the date rule.
import { sql, type Kysely } from 'kysely';
import { DateTime } from 'luxon';
import { dateType, generatedId, instantType } from './dialect.js';

const WEEKDAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
const DEFAULTS: Record<(typeof WEEKDAYS)[number], number> = { mon: 480, tue: 480, wed: 480, thu: 480, fri: 480, sat: 0, sun: 0 };

export async function up(db: Kysely<any>): Promise<void> {
  let table = db.schema
    .createTable('target_schedules')
    .addColumn('id', 'integer', generatedId(db))
    .addColumn('user_id', 'integer', (col) => col.notNull().references('users.id').onDelete('cascade'))
    .addColumn('valid_from', dateType(db), (col) => col.notNull())
    .addColumn('created_at', instantType(db), (col) => col.notNull());
  for (const day of WEEKDAYS) {
    table = table.addColumn(`target_${day}_minutes`, 'integer', (col) => col.notNull().check(sql.raw(`target_${day}_minutes between 0 and 1440`)));
  }
  await table.addUniqueConstraint('target_schedules_one_per_day', ['user_id', 'valid_from']).execute();

  const now = new Date().toISOString();
  const users: Array<Record<string, unknown>> = await db
    .selectFrom('users')
    .leftJoin('user_settings', 'user_settings.user_id', 'users.id')
    .select([
      'users.id as id',
      'users.created_at as created_at',
      'user_settings.timezone as timezone',
      'user_settings.tracking_start as tracking_start',
      ...WEEKDAYS.map((day) => `user_settings.target_${day}_minutes as ${day}`),
    ])
    .execute();
  for (const user of users) {
    const zone = (user.timezone as string | null) ?? 'UTC';
    const validFrom = (user.tracking_start as string | null) ?? (DateTime.fromMillis(Date.parse(String(user.created_at)), { zone }).toISODate() as string);
    const targets = Object.fromEntries(WEEKDAYS.map((day) => [`target_${day}_minutes`, (user[day] as number | null) ?? DEFAULTS[day]]));
    await db
      .insertInto('target_schedules')
      .values({ user_id: user.id, valid_from: validFrom, created_at: now, ...targets })
      .execute();
  }
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('target_schedules').execute();
}
