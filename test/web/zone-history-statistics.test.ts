// The Today prompt for another device zone asks from when (docs/time-model.md, Time zone history):
// "from today" is the default, "all my days" says that it recounts every past day; after saving, the
// confirmation takes the focus where the prompt was, and last week's figures are what they were.
import path from 'node:path';
import { DateTime } from 'luxon';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeTempDir } from '../support/app.js';
import { browserAvailable, browserRequired, launchBrowser, recordedContext } from '../support/browser.js';
import { request } from '../support/requests.js';
import { startServer, type RunningServer } from '../support/server.js';

const PASSWORD = 'a quiet morning walk';
const run = browserAvailable || browserRequired;
let server: RunningServer;
let browser: Browser;

beforeAll(async () => {
  if (!run) return;
  server = await startServer(path.join(makeTempDir('timetrack-zone-web-'), 'timetrack.db'));
  browser = await launchBrowser();
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });

it.runIf(run)('Today asks from when the device zone counts; "from today" keeps last week\'s figures', { timeout: 240_000 }, async () => {
  const email = `traveller${process.pid}@example.com`;
  const payload = { email, password: PASSWORD, full_name: 'Tia Traveller', timezone: 'America/Los_Angeles' };
  expect((await request(server, 'POST', '/api/auth/register', { payload })).statusCode).toBe(201);
  const token = (await request(server, 'POST', '/api/auth/login', { payload: { email, password: PASSWORD } })).json().token as string;
  const call = (method: 'GET' | 'POST' | 'PATCH', url: string, body?: unknown) => request(server, method, url, { payload: body, token });
  const lastMonday = DateTime.utc().startOf('week').minus({ weeks: 1 });
  expect((await call('PATCH', '/api/settings', { tracking_start: lastMonday.minus({ weeks: 1 }).toISODate() })).statusCode).toBe(200);
  // Last week, every weekday 15:00–23:30 UTC: a day's work in Los Angeles, across midnight in Berlin.
  for (let day = 0; day < 5; day++) {
    const date = lastMonday.plus({ days: day }).toISODate();
    expect((await call('POST', '/api/time-entries', { start_at: `${date}T15:00:00Z`, end_at: `${date}T23:30:00Z` })).statusCode).toBe(201);
  }
  const lastWeek = async () => (await call('GET', `/api/stats/week?date=${lastMonday.toISODate()}`)).json();
  const before = await lastWeek();
  expect(before.totals.worked_minutes).toBe(5 * 510);

  const { context } = await recordedContext(browser);
  const page = await context.newPage();
  await page.goto(`${server.baseUrl}/login`);
  await page.getByLabel('E-mail or username', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await button(page, 'Sign in').click();
  await page.getByText('This device is in Europe/Berlin; your account counts days in America/Los_Angeles.').waitFor();
  await button(page, 'Use Europe/Berlin').click();
  const fromWhen = page.getByRole('group', { name: 'From when?' });
  await fromWhen.waitFor();
  expect(await fromWhen.getByLabel('From today').isChecked()).toBe(true);
  expect(await fromWhen.getByLabel('All my days').isChecked()).toBe(false);
  await fromWhen.getByText('All my days counts every past day again in the new zone', { exact: false }).waitFor();
  await button(page, 'Use Europe/Berlin').click();

  const confirmation = page.getByText('Your account counts days in Europe/Berlin from today on; every past day keeps its figures.');
  await confirmation.waitFor();
  await page.waitForFunction("document.activeElement?.hasAttribute('data-zone-confirmation') === true");
  expect(await confirmation.isVisible()).toBe(true);
  expect(await page.getByText('This device is in').count()).toBe(0);
  const settings = (await call('GET', '/api/settings')).json();
  expect(settings.zones.map((zone: { timezone: string }) => zone.timezone)).toEqual(['America/Los_Angeles', 'Europe/Berlin']);
  expect(await lastWeek()).toEqual(before);
  await context.close();
});
