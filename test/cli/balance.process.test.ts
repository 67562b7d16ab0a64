// `timetrack balance book|show` through the built binary (docs/cli.md): bookings with the audit trail's
// actor, and the balance month by month, equal to what the API answers.
import os from 'node:os';
import { DateTime } from 'luxon';
import { afterEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp, TestClock } from '../support/app.js';
import { cli, expectFailure } from '../support/cli-accounts.js';
import { cliInProcess } from '../support/cli-in-process.js';
import { addEntry, signIn } from '../support/requests.js';

let t: TestApp | undefined;
afterEach(async () => {
  await t?.close();
});

describe('timetrack balance', () => {
  it('books a payout and a correction (audited with the actor), refuses bad ones, and shows the month-by-month balance', async () => {
    // The account (through the API of an app on the same database): no targets, tracking from 1 January last year.
    const year = DateTime.utc().year - 1;
    t = await createTestApp({ clock: new TestClock(new Date()) });
    const db = t.dbPath;
    const ann = await signIn(t);
    const none = { mon: 0, tue: 0, wed: 0, thu: 0, fri: 0, sat: 0, sun: 0 };
    await ann.call('PATCH', '/api/settings', { tracking_start: `${year}-01-01`, weekly_target_minutes: none, targets_valid_from: `${year}-01-01` });
    await addEntry(ann, `${year}-03-10T08:00:00Z`, `${year}-03-10T10:00:00Z`);
    const booked = await cli(db, [
      '--json',
      'balance',
      'book',
      'ann@example.com',
      '--date',
      `${year}-06-30`,
      '--minutes',
      '-600',
      '--kind',
      'payout',
      '--note',
      'paid with June',
    ]);
    expect(booked.stderr).toBe('');
    expect(JSON.parse(String(booked.stdout))).toEqual({
      booking: { id: expect.any(Number), date: `${year}-06-30`, minutes: -600, kind: 'payout', note: 'paid with June' },
    });
    const text = await cliInProcess(db, ['balance', 'book', 'ann@example.com', '--date', `${year}-02-10`, '--minutes', '+90', '--kind', 'correction']);
    expect(text.exitCode).toBe(0);
    expect(String(text.stdout)).toMatch(new RegExp(`^booked correction of \\+1:30 \\(90 minutes\\) on ${year}-02-10 for ann@example.com`));

    expectFailure(
      await cli(db, ['balance', 'book', 'ann@example.com', '--date', `${year}-06-30`, '--minutes', '600', '--kind', 'payout']),
      1,
      /a payout takes minutes off the balance/,
    );
    expectFailure(
      await cliInProcess(db, ['balance', 'book', 'ann@example.com', '--date', `${year}-06-30`, '--minutes', '1.5h', '--kind', 'correction']),
      2,
      /--minutes/,
    );
    expectFailure(
      await cliInProcess(db, ['balance', 'book', 'nobody@example.com', '--date', `${year}-06-30`, '--minutes', '-1', '--kind', 'payout']),
      3,
      /no account/,
    );

    const audit = JSON.parse(String((await cliInProcess(db, ['--json', 'audit', 'list', '--user', 'ann@example.com'])).stdout)) as {
      events: Array<{ action: string; actor: string; detail: Record<string, unknown> }>;
    };
    const bookings = audit.events.filter((event) => event.action === 'balance_booked');
    expect(bookings).toHaveLength(2);
    expect(bookings[1]).toMatchObject({ actor: `os:${os.userInfo().username}`, detail: { date: `${year}-06-30`, minutes: -600, kind: 'payout' } });

    // February +90 (booked), March +120 (worked), June −600 (paid out).
    const shown = JSON.parse(String((await cli(db, ['--json', 'balance', 'show', 'ann@example.com', '--year', String(year)])).stdout));
    expect(shown).toMatchObject({ year, since: `${year}-01-01`, offset_minutes: 0, balance_before_minutes: 0 });
    expect(shown.months.map((month: { month: string }) => month.month)).toEqual(
      Array.from({ length: 12 }, (_, i) => `${year}-${String(i + 1).padStart(2, '0')}`),
    );
    expect(shown.months.map((month: { balance_minutes: number }) => month.balance_minutes)).toEqual([0, 90, 120, 0, 0, -600, 0, 0, 0, 0, 0, 0]);
    expect(shown.months.map((month: { balance_end_minutes: number }) => month.balance_end_minutes)).toEqual([
      0, 90, 210, 210, 210, -390, -390, -390, -390, -390, -390, -390,
    ]);
    expect(shown.months[5]).toMatchObject({ target_minutes: 0, worked_minutes: 0, booked_minutes: -600 });
    expect(shown.bookings).toHaveLength(2);
    // This year starts with what last year left; the API's balance agrees with the CLI.
    const thisYear = JSON.parse(String((await cliInProcess(db, ['--json', 'balance', 'show', 'ann@example.com'])).stdout));
    expect(thisYear).toMatchObject({ year: year + 1, balance_before_minutes: -390 });
    expect(thisYear.months.at(-1).balance_end_minutes).toBe((await ann.call('GET', '/api/stats/overtime')).json().balance_minutes);
    const human = await cliInProcess(db, ['balance', 'show', 'ann@example.com', '--year', String(year)]);
    expect(String(human.stdout)).toMatch(new RegExp(`${year}-06 .*booked\\s+-600 .*balance\\s+-6:30`));
    expect(String(human.stdout)).toMatch(/payout\s+-10:00\s+paid with June/);
    expectFailure(await cliInProcess(db, ['balance', 'show', 'ann@example.com', '--year', '26']), 2, /--year/);
  });
});
