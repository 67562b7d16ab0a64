// Closed months in the browser (docs/teams.md, "Closed months"; docs/web-client.md): the Month page
// says where the shown month stands and offers Submit once it is over; after an admin approved it the
// page says it is closed, and a change of one of its days (a booking dated in it) is refused with the
// sentence of MONTH_LOCKED. axe finds nothing on the page at 390 and 1280 px. Screenshots in a temp folder.
import path from 'node:path';
import { DateTime } from 'luxon';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { en } from '../../src/web/i18n/en.js';
import { makeTempDir, PASSWORD } from '../support/app.js';
import { accessibilityViolations, browserAvailable, browserRequired, launchBrowser, recordedContext } from '../support/browser.js';
import { createAccountWithCli, tempDb } from '../support/cli-accounts.js';
import { callJson, startServer, type RunningServer } from '../support/server.js';

const SHOTS = makeTempDir('timetrack-months-');
let browser: Browser;
let server: RunningServer;

const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

/** A request of the signed-in page's account; answers the status. */
function call(page: Page, method: string, url: string, body?: unknown): Promise<number> {
  return page.evaluate<number>(
    `fetch(${JSON.stringify(url)}, { method: ${JSON.stringify(method)}, headers: { 'Content-Type': 'application/json', Authorization: 'Bearer ' + localStorage.getItem('timetrack.token') }, body: ${JSON.stringify(body === undefined ? undefined : JSON.stringify(body))} }).then((response) => response.status)`,
  );
}

async function look(page: Page, name: string): Promise<void> {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 844 });
    await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: true });
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
    expect(await accessibilityViolations(page), `${name} at ${width}`).toEqual([]);
  }
}

describe.runIf(browserAvailable || browserRequired)('a closed month in the browser', () => {
  beforeAll(async () => {
    const db = tempDb();
    await createAccountWithCli(db, 'xena@example.com', ['--role', 'admin']);
    server = await startServer(db);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('Month shows the state and Submit; once approved, a change of its days says the month is closed', { timeout: 120_000 }, async () => {
    const { context } = await recordedContext(browser, { bypassCSP: true, timezoneId: 'UTC', locale: 'en-GB' });
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/register`);
    await field(page, 'Full name').fill('Max Member');
    await field(page, 'E-mail').fill('max@example.com');
    await field(page, 'Password').fill(PASSWORD);
    await button(page, 'Create account').click();
    await button(page, 'Start').waitFor();
    const last = DateTime.utc().startOf('month').minus({ months: 1 });
    const month = last.toFormat('yyyy-MM');
    expect(await call(page, 'PATCH', '/api/settings', { tracking_start: last.minus({ months: 1 }).toISODate(), timezone: 'UTC' })).toBe(200);
    const day = last.plus({ days: 9 }).toISODate()!;
    expect(await call(page, 'POST', '/api/time-entries', { start_at: `${day}T08:00:00Z`, end_at: `${day}T16:00:00Z` })).toBe(201);

    await page.goto(`${server.baseUrl}/#month`);
    await page.getByRole('heading', { name: 'Month', exact: true, level: 2 }).waitFor();
    // This month is not over: no Submit.
    await page.getByText(`${en.monthState.label}: ${en.monthState.states.open}`).waitFor();
    expect(await button(page, en.monthState.submit).count()).toBe(0);
    await page.getByRole('button', { name: en.month.previous }).click();
    await button(page, en.monthState.submit).waitFor();
    await look(page, 'month-open');
    await button(page, en.monthState.submit).click();
    await page.getByRole('status').getByText(en.monthState.submittedNow).waitFor();
    await page.getByText(`${en.monthState.label}: ${en.monthState.states.submitted}`).waitFor();
    expect(await button(page, en.monthState.submit).count()).toBe(0);

    const admin = (await callJson(server, 'POST', '/api/auth/login', { email: 'xena@example.com', password: PASSWORD })).body.token as string;
    const listed = (await callJson(server, 'GET', '/api/users?q=max', undefined, admin)).body as { users: Array<{ id: number; email: string }> };
    const maxId = listed.users.find((user) => user.email === 'max@example.com')!.id;
    expect((await callJson(server, 'POST', `/api/users/${maxId}/months/${month}/approve`, {}, admin)).status).toBe(200);

    await page.reload();
    await page.getByRole('heading', { name: 'Month', exact: true, level: 2 }).waitFor();
    await page.getByRole('button', { name: en.month.previous }).click();
    await page.getByText(`${en.monthState.label}: ${en.monthState.states.approved}`).waitFor();
    await page.getByText(en.monthState.closed).waitFor();
    await look(page, 'month-approved');

    // A booking dated in the closed month: refused, in the client's words.
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Settings', exact: true }).click();
    await page.getByRole('heading', { name: 'Settings', exact: true, level: 2 }).waitFor();
    await field(page, en.settings.bookingDate).fill(last.plus({ days: 11 }).toISODate()!);
    await field(page, en.settings.bookingMinutes).fill('-1:00');
    await button(page, en.settings.addBooking).click();
    await page.getByRole('alert').getByText(en.errors.MONTH_LOCKED).waitFor();
    await context.close();
  });
});
