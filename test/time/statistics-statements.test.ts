// How many statements each statistics request sends (docs/performance.md): each is a round trip on
// PostgreSQL, so a request reads the account's settings, schedules and running entry once and passes
// them down, and a balance over years is one statement (the aggregates in one union). Counted where each engine's driver runs a
// statement (better-sqlite3's Statement, pg's Client), as test/bench/queries.mjs counts them.
import { createRequire } from 'node:module';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../support/app.js';
import { signIn, type SignedIn } from '../support/requests.js';

const require = createRequire(import.meta.url);
let counting = false;
let statements = 0;
const restore: Array<() => void> = [];

beforeAll(() => {
  const Sqlite = require('better-sqlite3') as new (file: string) => { prepare(sql: string): object; close(): void };
  const memory = new Sqlite(':memory:');
  const statementPrototype = Object.getPrototypeOf(memory.prepare('select 1')) as Record<string, (...args: unknown[]) => unknown>;
  memory.close();
  for (const method of ['all', 'get', 'run', 'iterate']) {
    const original = statementPrototype[method]!;
    statementPrototype[method] = function (this: unknown, ...args: unknown[]) {
      if (counting) statements += 1;
      return original.apply(this, args);
    };
    restore.push(() => (statementPrototype[method] = original));
  }
  const pg = require('pg') as { Client: { prototype: Record<string, (...args: unknown[]) => unknown> } };
  const originalQuery = pg.Client.prototype.query!;
  pg.Client.prototype.query = function (this: unknown, ...args: unknown[]) {
    if (counting) statements += 1;
    return originalQuery.apply(this, args);
  };
  restore.push(() => (pg.Client.prototype.query = originalQuery));
});
afterAll(() => {
  for (const undo of restore) undo();
});

let t: TestApp;
let ann: SignedIn;
beforeEach(async () => {
  t = await createTestApp();
  t.clock.set('2026-03-11T12:00:00.000Z');
  ann = await signIn(t);
  const { settings, timeEntries, absences } = t.ctx.services;
  await settings.updateSettings(ann.userId, { timezone: 'Europe/Berlin', holiday_region: 'DE-BY', tracking_start: '2025-01-01' });
  for (const date of ['2026-03-09', '2026-03-10', '2025-12-30']) {
    await timeEntries.createEntry(ann.userId, { start_at: `${date}T08:00:00Z`, end_at: `${date}T16:00:00Z` });
  }
  await absences.createAbsence(ann.userId, { date: '2025-12-31', type: 'vacation' });
});
afterEach(async () => {
  await t.close();
});

/** The statements one request sends (after a first one, so that nothing of the process's start is counted). */
async function statementsOf(request: () => Promise<unknown>): Promise<number> {
  await request();
  statements = 0;
  counting = true;
  try {
    await request();
  } finally {
    counting = false;
  }
  return statements;
}

it('each statistics request reads the account once: overtime 2 statements, today 6, week 4, month 6 (without a running entry)', async () => {
  const { statistics } = t.ctx.services;
  expect({
    overtime: await statementsOf(() => statistics.overtime(ann.userId)),
    today: await statementsOf(() => statistics.today(ann.userId)),
    week: await statementsOf(() => statistics.weekOverview(ann.userId)),
    month: await statementsOf(() => statistics.monthFigures(ann.userId)),
  }).toEqual({ overtime: 2, today: 6, week: 4, month: 6 });
});

it('with a running entry, today and the balance read its days and the entry before it once', async () => {
  const { statistics, timeEntries } = t.ctx.services;
  // Started yesterday: its days lie in the balance through yesterday and in today.
  await timeEntries.createEntry(ann.userId, { start_at: '2026-03-10T18:00:00Z' });
  expect({
    overtime: await statementsOf(() => statistics.overtime(ann.userId)),
    today: await statementsOf(() => statistics.today(ann.userId)),
  }).toEqual({ overtime: 4, today: 7 });
});
