// Moving a person between instances with the real binary: `user export` on one database, `user
// import` on another (settings, entries, absences come along; no secret does), a second import with
// --skip-existing changes nothing, and the API hands the signed-in person the same document.
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OPERATOR } from '../../src/teams/index.js';
import { createTestApp, type TestApp } from '../support/app.js';
import { runCli } from '../support/cli.js';
import { runCliInProcess } from '../support/cli-in-process.js';
import { tempDb } from '../support/cli-accounts.js';
import { addEntry, type SignedIn, signIn } from '../support/requests.js';

let t: TestApp;
let ann: SignedIn;

beforeEach(async () => {
  t = await createTestApp();
  t.clock.set('2026-03-10T12:00:00.000Z');
  ann = await signIn(t, 'ann@example.com');
  await ann.call('PATCH', '/api/settings', {
    timezone: 'Europe/Berlin',
    timezone_valid_from: '1970-01-01',
    holiday_region: 'DE-BY',
    weekly_target_minutes: { fri: 300 },
  });
  await addEntry(ann, '2026-03-02T08:00:00Z', '2026-03-02T12:00:00Z', 'first');
  await addEntry(ann, '2026-03-03T08:00:00Z', '2026-03-03T09:30:00Z', 'second');
  expect((await ann.call('POST', '/api/time-entries/absences', { date: '2026-03-05', type: 'vacation', note: 'away' })).statusCode).toBeLessThan(300);
  expect((await ann.call('POST', '/api/time-entries/absences', { date: '2026-03-06', type: 'sick', portion: 'half' })).statusCode).toBeLessThan(300);
  expect((await ann.call('POST', '/api/settings/schedules', { valid_from: '2030-01-07', weekly_target_minutes: { mon: 360 } })).statusCode).toBe(201);
  expect((await ann.call('POST', '/api/time-entries/bookings', { date: '2026-03-09', minutes: -90, kind: 'payout', note: 'paid' })).statusCode).toBe(201);
  expect(
    (
      await ann.call('PATCH', '/api/settings', {
        break_rules: [{ worked_over_minutes: 360, break_minutes: 30 }],
        vacation_days_per_year: 27.5,
        vacation_taken_before_tracking_days: 2.5,
        timer_limit_minutes: 720,
      })
    ).statusCode,
  ).toBe(200);
});
afterEach(async () => {
  await t.close();
});

describe('user export and import', () => {
  it('carries fields, settings, schedules, entries, absences and bookings to another database, without secrets; --skip-existing makes a re-run harmless', async () => {
    const exported = await runCliInProcess(['--db', t.dbPath, 'user', 'export', 'ann@example.com']);
    expect(exported.exitCode).toBe(0);
    const document = JSON.parse(String(exported.stdout));
    expect(document).toMatchObject({
      format: 'timetrack-account',
      version: 2,
      user: { email: 'ann@example.com', full_name: expect.any(String) },
      settings: { timezone: 'Europe/Berlin', holiday_region: 'DE-BY', weekly_target_minutes: expect.objectContaining({ fri: 300 }) },
      entries: [
        { start_at: '2026-03-02T08:00:00.000Z', end_at: '2026-03-02T12:00:00.000Z', note: 'first' },
        { start_at: '2026-03-03T08:00:00.000Z', end_at: '2026-03-03T09:30:00.000Z', note: 'second' },
      ],
      absences: [
        { date: '2026-03-05', type: 'vacation', portion: 'full', note: 'away' },
        { date: '2026-03-06', type: 'sick', portion: 'half', note: '' },
      ],
      bookings: [{ date: '2026-03-09', minutes: -90, kind: 'payout', note: 'paid' }],
    });
    expect(document.settings).toMatchObject({
      break_rules: [{ worked_over_minutes: 360, break_minutes: 30 }],
      vacation_days_per_year: 27.5,
      vacation_taken_before_tracking_days: 2.5,
      timer_limit_minutes: 720,
    });
    expect(document.schedules.map((schedule: { valid_from: string }) => schedule.valid_from)).toEqual([document.settings.tracking_start, '2030-01-07']);
    expect(String(exported.stdout)).not.toMatch(/argon2|password|token|"id"/);

    const file = path.join(t.dir, 'ann.json');
    fs.writeFileSync(file, String(exported.stdout));
    const target = tempDb();
    expect((await runCliInProcess(['--db', target, 'migrate'])).exitCode).toBe(0);
    const imported = await runCli(['--db', target, '--json', 'user', 'import', file]);
    expect(imported.stderr).toBe('');
    expect(JSON.parse(String(imported.stdout))).toMatchObject({ created: true, entries: 2, absences: 2, skipped_entries: 0, bookings: 1 });
    const again = await runCliInProcess(['--db', target, '--json', 'user', 'import', file]);
    expect(again.exitCode).toBe(1);
    expect(again.stderr).toMatch(/entries\[1\]: The entry would overlap entry/);
    const skipping = await runCliInProcess(['--db', target, '--json', 'user', 'import', '--skip-existing', file]);
    expect(skipping.exitCode).toBe(0);
    expect(JSON.parse(String(skipping.stdout))).toMatchObject({
      created: false,
      entries: 0,
      skipped_entries: 2,
      absences: 0,
      skipped_absences: 2,
      bookings: 0,
      skipped_bookings: 1,
    });

    const copy = JSON.parse(String((await runCliInProcess(['--db', target, 'user', 'export', 'ann@example.com'])).stdout));
    expect({ ...copy, exported_at: undefined, user: { ...copy.user, created_at: undefined } }).toEqual({
      ...document,
      exported_at: undefined,
      user: { ...document.user, created_at: undefined },
    });
    const audit = JSON.parse(String((await runCliInProcess(['--db', target, '--json', 'audit', 'list'])).stdout)) as { events: Array<{ action: string }> };
    expect(audit.events.map((event) => event.action)).toContain('account_imported');
  });

  it('a document from before schedules and bookings: its weekly targets hold from the tracking start on', async () => {
    const document = JSON.parse(String((await runCliInProcess(['--db', t.dbPath, 'user', 'export', 'ann@example.com'])).stdout));
    delete document.schedules;
    delete document.bookings;
    delete document.settings.targets_valid_from;
    delete document.settings.vacation_taken_before_tracking_days;
    for (const absence of document.absences) delete absence.portion;
    document.settings.weekly_target_minutes = { mon: 420, tue: 420, wed: 420, thu: 420, fri: 300, sat: 0, sun: 0 };
    const file = path.join(t.dir, 'old.json');
    fs.writeFileSync(file, JSON.stringify(document));
    const target = tempDb();
    expect((await runCliInProcess(['--db', target, 'migrate'])).exitCode).toBe(0);
    const imported = await runCli(['--db', target, '--json', 'user', 'import', file]);
    expect(imported.stderr).toBe('');
    expect(JSON.parse(String(imported.stdout))).toMatchObject({ created: true, absences: 2, bookings: 0 });
    const copy = JSON.parse(String((await runCliInProcess(['--db', target, 'user', 'export', 'ann@example.com'])).stdout));
    expect(copy.schedules).toEqual([{ valid_from: document.settings.tracking_start, weekly_target_minutes: document.settings.weekly_target_minutes }]);
    expect(copy.absences.map((absence: { portion: string }) => absence.portion)).toEqual(['full', 'full']);
    expect(copy.settings.vacation_taken_before_tracking_days).toBeNull();
  });

  it('absences booked together stay one booking; a document without request_id imports each absence as its own', async () => {
    const range = await ann.call('POST', '/api/time-entries/absences', { from: '2026-03-16', to: '2026-03-18', type: 'vacation', note: 'trip' });
    expect(range.statusCode).toBe(201);
    const document = JSON.parse(String((await runCliInProcess(['--db', t.dbPath, 'user', 'export', 'ann@example.com'])).stdout));
    type Booked = { date: string; request_id?: number };
    /** The absences' dates, grouped by booking. */
    const bookings = (absences: Booked[]) => {
      const groups = new Map<string, string[]>();
      for (const absence of absences) {
        const key = String(absence.request_id ?? absence.date);
        groups.set(key, [...(groups.get(key) ?? []), absence.date]);
      }
      return [...groups.values()];
    };
    expect(bookings(document.absences)).toEqual([['2026-03-05'], ['2026-03-06'], ['2026-03-16', '2026-03-17', '2026-03-18']]);

    const file = path.join(t.dir, 'grouped.json');
    fs.writeFileSync(file, JSON.stringify(document));
    const target = tempDb();
    expect((await runCliInProcess(['--db', target, 'migrate'])).exitCode).toBe(0);
    expect((await runCli(['--db', target, 'user', 'import', file])).exitCode).toBe(0);
    const copy = JSON.parse(String((await runCliInProcess(['--db', target, 'user', 'export', 'ann@example.com'])).stdout));
    expect(bookings(copy.absences)).toEqual(bookings(document.absences));

    for (const absence of document.absences) delete absence.request_id;
    fs.writeFileSync(file, JSON.stringify(document));
    const older = tempDb();
    expect((await runCliInProcess(['--db', older, 'migrate'])).exitCode).toBe(0);
    expect((await runCliInProcess(['--db', older, 'user', 'import', file])).exitCode).toBe(0);
    const oldCopy = JSON.parse(String((await runCliInProcess(['--db', older, 'user', 'export', 'ann@example.com'])).stdout));
    expect(bookings(oldCopy.absences)).toHaveLength(5);
  });

  it('vacation still waiting for approval is written with its state and left out on import, which says how many days', async () => {
    const { accounts, teams } = t.ctx.services;
    const lea = await accounts.createAccount({ email: 'lea@example.com', password: 'correct horse battery staple', full_name: 'Lea' });
    await t.ctx.services.people.setRole(lea.id, 'lead');
    const kitchen = await teams.create(OPERATOR, 'Kitchen');
    await teams.putMember(OPERATOR, kitchen.id, lea.id, 'lead');
    await teams.putMember(OPERATOR, kitchen.id, ann.userId, 'member');
    const asked = await ann.call('POST', '/api/time-entries/absences', { from: '2026-03-23', to: '2026-03-24', type: 'vacation' });
    expect(asked.json().absences.map((absence: { state: string }) => absence.state)).toEqual(['requested', 'requested']);
    const document = JSON.parse(String((await runCliInProcess(['--db', t.dbPath, 'user', 'export', 'ann@example.com'])).stdout));
    expect(document.absences.map((absence: { date: string; state: string }) => [absence.date, absence.state])).toEqual([
      ['2026-03-05', 'approved'],
      ['2026-03-06', 'approved'],
      ['2026-03-23', 'requested'],
      ['2026-03-24', 'requested'],
    ]);
    const file = path.join(t.dir, 'requested.json');
    fs.writeFileSync(file, JSON.stringify(document));
    const target = tempDb();
    expect((await runCliInProcess(['--db', target, 'migrate'])).exitCode).toBe(0);
    const imported = await runCliInProcess(['--db', target, 'user', 'import', file]);
    expect(imported.exitCode).toBe(0);
    expect(String(imported.stdout)).toMatch(/2 absences \(0 already there, 2 days of vacation still waiting for approval left out\)/);
    const copy = JSON.parse(String((await runCliInProcess(['--db', target, 'user', 'export', 'ann@example.com'])).stdout));
    expect(copy.absences.map((absence: { date: string }) => absence.date)).toEqual(['2026-03-05', '2026-03-06']);
  });

  it('zones: a version 2 document carries the history; a version 1 document counts its timezone on every day', async () => {
    expect(
      (await ann.call('PATCH', '/api/settings', { tracking_start: '2026-03-01', timezone: 'Asia/Tokyo', timezone_valid_from: '2026-03-04' })).statusCode,
    ).toBe(200);
    const document = JSON.parse(String((await runCliInProcess(['--db', t.dbPath, 'user', 'export', 'ann@example.com'])).stdout));
    const start = document.settings.tracking_start as string;
    expect(document.zones).toEqual([
      { valid_from: start, timezone: 'Europe/Berlin' },
      { valid_from: '2026-03-04', timezone: 'Asia/Tokyo' },
    ]);
    expect(document.settings.zones).toBeUndefined();
    const importInto = async (content: unknown) => {
      const file = path.join(t.dir, `zones-${Math.random()}.json`);
      fs.writeFileSync(file, JSON.stringify(content));
      const target = tempDb();
      expect((await runCliInProcess(['--db', target, 'migrate'])).exitCode).toBe(0);
      expect((await runCliInProcess(['--db', target, '--json', 'user', 'import', file])).stderr).toBe('');
      return JSON.parse(String((await runCliInProcess(['--db', target, 'user', 'export', 'ann@example.com'])).stdout));
    };
    expect((await importInto(document)).zones).toEqual(document.zones);
    const old = { ...document, version: 1, zones: undefined };
    expect((await importInto(old)).zones).toEqual([{ valid_from: start, timezone: 'Asia/Tokyo' }]);
    const badFile = path.join(t.dir, 'bad-zone.json');
    fs.writeFileSync(badFile, JSON.stringify({ ...document, zones: [document.zones[0], { valid_from: '2026-03-04', timezone: 'Mars/Base' }] }));
    const target = tempDb();
    expect((await runCliInProcess(['--db', target, 'migrate'])).exitCode).toBe(0);
    const bad = await runCliInProcess(['--db', target, 'user', 'import', badFile]);
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toMatch(/zones\[2\]\.timezone: timezone must be an IANA time zone/);
  });

  it('names the field of a bad schedule or booking, and writes nothing', async () => {
    const document = JSON.parse(String((await runCliInProcess(['--db', t.dbPath, 'user', 'export', 'ann@example.com'])).stdout));
    document.schedules[1].weekly_target_minutes.tue = 2000;
    document.bookings[0].minutes = 90;
    const file = path.join(t.dir, 'bad.json');
    fs.writeFileSync(file, JSON.stringify(document));
    const target = tempDb();
    expect((await runCliInProcess(['--db', target, 'migrate'])).exitCode).toBe(0);
    const imported = await runCliInProcess(['--db', target, 'user', 'import', file]);
    expect(imported.exitCode).toBe(1);
    expect(imported.stderr).toMatch(/schedules\[2\]\.weekly_target_minutes\.tue: /);
    expect(imported.stderr).toMatch(/bookings\[1\]\.minutes: a payout/);
    expect((await runCliInProcess(['--db', target, 'user', 'list'])).stdout).not.toContain('ann@example.com');
  });

  it('the API hands the signed-in person the same document', async () => {
    const response = await ann.call('GET', '/api/settings/export');
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-disposition']).toBe('attachment; filename="timetrack-account.json"');
    const cliDocument = JSON.parse(String((await runCliInProcess(['--db', t.dbPath, 'user', 'export', 'ann@example.com'])).stdout));
    expect({ ...response.json(), exported_at: undefined }).toEqual({ ...cliDocument, exported_at: undefined });
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/settings/export' });
    expect(anonymous.statusCode).toBe(401);
  });
});
