// The settings, schedules and running entries of accounts read in one statement, a union
// (src/time/settings/account-rows.ts; docs/decisions/0011-account-reads-in-one-union.md), equal what
// three plain reads of the same tables give, on both engines: an account with a settings row, two
// zones, three schedules and a running entry beside one that has stored nothing of its own.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { accountRowsOf } from '../../src/time/settings/account-rows.js';
import { account, createTestApp, type TestApp } from '../support/app.js';

let t: TestApp;
let full: number;
let bare: number;
beforeAll(async () => {
  t = await createTestApp();
  const { accounts, settings, timeEntries } = t.ctx.services;
  full = (await accounts.createAccount(account({ email: 'full@example.com' }))).id;
  bare = (await accounts.createAccount(account({ email: 'bare@example.com' }))).id;
  await settings.updateSettings(full, { holiday_region: 'DE-BY', min_break_minutes: 20, break_rules: [{ worked_over_minutes: 360, break_minutes: 30 }] });
  const db = t.ctx.db;
  const at = '2026-03-01T08:00:00.000Z';
  await db.deleteFrom('zone_history').where('user_id', 'in', [full, bare]).execute();
  await db.deleteFrom('target_schedules').where('user_id', 'in', [full, bare]).execute();
  await db
    .insertInto('zone_history')
    .values([
      { user_id: full, valid_from: '2026-02-01', timezone: 'Pacific/Auckland', created_at: at },
      { user_id: full, valid_from: '2025-01-01', timezone: 'Europe/Berlin', created_at: at },
    ])
    .execute();
  const week = (minutes: number) => ({
    target_mon_minutes: minutes,
    target_tue_minutes: minutes,
    target_wed_minutes: minutes,
    target_thu_minutes: minutes,
    target_fri_minutes: minutes,
    target_sat_minutes: 0,
    target_sun_minutes: 0,
  });
  await db
    .insertInto('target_schedules')
    .values([
      { user_id: full, valid_from: '2026-01-01', created_at: at, ...week(420) },
      { user_id: full, valid_from: '2024-06-01', created_at: at, ...week(480) },
      { user_id: full, valid_from: '2025-03-01', created_at: at, ...week(240) },
    ])
    .execute();
  await timeEntries.createEntry(full, { start_at: '2026-03-02T07:00:00Z' });
});
afterAll(async () => {
  await t.close();
});

/** The same rows from three plain reads, in the order the union gives them. */
async function threeReads(userIds: number[]) {
  const db = t.ctx.db;
  const settings = await db
    .selectFrom('users')
    .leftJoin('user_settings', 'user_settings.user_id', 'users.id')
    .leftJoin('zone_history', 'zone_history.user_id', 'users.id')
    .select([
      'users.id',
      'users.created_at',
      'user_settings.holiday_region',
      'user_settings.overtime_offset_minutes',
      'user_settings.tracking_start',
      'user_settings.break_rules',
      'user_settings.min_break_minutes',
      'user_settings.vacation_half_days_per_year',
      'user_settings.vacation_carry_over_max_half_days',
      'user_settings.vacation_taken_before_tracking_half_days',
      'user_settings.timer_limit_minutes',
      'user_settings.user_id as settings_row',
      'user_settings.suggest_timer_limit',
      'user_settings.reminders_enabled',
      'zone_history.valid_from as zone_from',
      'zone_history.timezone as zone',
    ])
    .where('users.id', 'in', userIds)
    .orderBy('users.id')
    .orderBy('zone_history.valid_from')
    .execute();
  const schedules = await db
    .selectFrom('target_schedules')
    .select([
      'id',
      'user_id',
      'valid_from',
      'target_mon_minutes',
      'target_tue_minutes',
      'target_wed_minutes',
      'target_thu_minutes',
      'target_fri_minutes',
      'target_sat_minutes',
      'target_sun_minutes',
    ])
    .where('user_id', 'in', userIds)
    .orderBy('user_id')
    .orderBy('valid_from')
    .execute();
  const running = await db
    .selectFrom('time_entries')
    .select(['id', 'user_id', 'start_at', 'end_at', 'note', 'created_at', 'updated_at', 'auto_stopped'])
    .where('user_id', 'in', userIds)
    .where('end_at', 'is', null)
    .orderBy('user_id')
    .execute();
  return { settings, schedules, running };
}

it('reads what three plain reads do, of one account and of several', async () => {
  for (const userIds of [[full], [bare], [full, bare], [bare, full]]) {
    const expected = await threeReads(userIds);
    expect(await accountRowsOf(t.ctx.db, userIds, { running: true })).toEqual(expected);
    expect(await accountRowsOf(t.ctx.db, userIds, { running: false })).toEqual({ ...expected, running: [] });
  }
  // What the case is about is there: two zones and three schedules in order, one running entry.
  const { settings, schedules, running } = await accountRowsOf(t.ctx.db, [full], { running: true });
  expect(settings.map((row) => row.zone)).toEqual(['Europe/Berlin', 'Pacific/Auckland']);
  expect(schedules.map((row) => [row.valid_from, row.target_mon_minutes])).toEqual([
    ['2024-06-01', 480],
    ['2025-03-01', 240],
    ['2026-01-01', 420],
  ]);
  expect(running.map((row) => row.start_at)).toEqual(['2026-03-02T07:00:00.000Z']);
});
