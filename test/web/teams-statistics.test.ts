// The Team page in Chromium (docs/web-client.md, "Team"; docs/teams.md, "The lead's view"): a lead and
// a member side by side at 390 and 1280 px. The lead's navigation has Team; the table shows every
// member's figures and stays inside the page (it scrolls in its box); a member's Week and Month open
// read-only with that member's own figures. The member's Team is the team's calendar only (no figures of
// anyone: test/web/teams-calendar.test.ts). Screenshots under /tmp.
import { DateTime } from 'luxon';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PASSWORD } from '../support/app.js';
import { browserAvailable, browserRequired, launchBrowser, recordedContext } from '../support/browser.js';
import { kitchenWithLeaAndMax, tempDb } from '../support/cli-accounts.js';
import { request } from '../support/requests.js';
import { startServer, type RunningServer } from '../support/server.js';

const run = browserAvailable || browserRequired;
let server: RunningServer;
let browser: Browser;
let memberToken: string;
let memberId: number;

beforeAll(async () => {
  if (!run) return;
  const db = tempDb();
  await kitchenWithLeaAndMax(db);
  server = await startServer(db);
  browser = await launchBrowser();
  for (const email of ['lea@example.com', 'max@example.com']) {
    const login = (await request(server, 'POST', '/api/auth/login', { payload: { email, password: PASSWORD } })).json();
    const token = login.token as string;
    const yesterday = DateTime.utc().minus({ days: 1 }).startOf('day');
    expect(
      (
        await request(server, 'PATCH', '/api/settings', {
          token,
          payload: { timezone: 'Europe/Berlin', timezone_valid_from: '1970-01-01', tracking_start: yesterday.minus({ days: 20 }).toISODate() },
        })
      ).statusCode,
    ).toBe(200);
    if (email.startsWith('max')) {
      [memberToken, memberId] = [token, login.user.id as number];
      const entry = { start_at: yesterday.set({ hour: 7 }).toISO(), end_at: yesterday.set({ hour: 12, minute: 15 }).toISO() };
      expect((await request(server, 'POST', '/api/time-entries', { token, payload: entry })).statusCode).toBe(201);
    }
  }
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function signedIn(email: string, width: number): Promise<Page> {
  const { context } = await recordedContext(browser, { viewport: { width, height: 844 } });
  const page = await context.newPage();
  await page.goto(`${server.baseUrl}/login`);
  await page.getByLabel('E-mail or username', { exact: true }).fill(email);
  await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await page.getByRole('link', { name: 'Settings', exact: true }).waitFor();
  return page;
}

it.runIf(run)("a lead sees Team with the members and their figures; a member's Team has no figures (390 and 1280 px)", { timeout: 240_000 }, async () => {
  for (const width of [390, 1280]) {
    const [lead, member] = [await signedIn('lea@example.com', width), await signedIn('max@example.com', width)];
    // The member's Team is the calendar: no table of figures, no switch to the week overview.
    await member.getByRole('link', { name: 'Team', exact: true }).click();
    await member.locator('table.calendar').waitFor();
    expect(await member.locator('table.team').count()).toBe(0);
    expect(await member.locator('.view-switch').count()).toBe(0);
    await lead.getByRole('link', { name: 'Team', exact: true }).click();
    const table = lead.locator('table.team');
    await table.waitFor();
    const rows = table.locator('tbody tr');
    await expect.poll(() => rows.count()).toBe(2);
    // Max's row: the week's figures are those of Max's own week answer.
    const monday = DateTime.now().setZone('Europe/Berlin').startOf('week').toISODate();
    const own = (await request(server, 'GET', `/api/stats/week?date=${monday}`, { token: memberToken })).json();
    const worked = own.totals.worked_minutes as number;
    // Leads first, then by e-mail address: Max is the second row.
    const maxRow = rows.nth(1);
    expect(await maxRow.locator('td').first().textContent()).toContain(`${Math.floor(worked / 60)}:${String(worked % 60).padStart(2, '0')}`);
    // The page itself never scrolls sideways: a wide table scrolls in its box.
    expect(await lead.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    await lead.screenshot({ path: `/tmp/team-overview-${width}.png`, fullPage: true });
    await member.screenshot({ path: `/tmp/team-overview-member-${width}.png` });

    // Max's Week and Month, read-only, from /api/users/:id/stats.
    await maxRow.getByRole('button', { name: 'Week', exact: true }).click();
    const figures = lead.locator('.person-figures');
    await figures.locator('tfoot').waitFor();
    expect(await figures.locator('tbody tr').count()).toBe(7);
    expect(await figures.getByRole('heading').textContent()).toMatch(/: Week$/);
    await maxRow.getByRole('button', { name: 'Month', exact: true }).click();
    await expect.poll(() => figures.locator('tbody tr').count()).toBeGreaterThan(27);
    const download = lead.waitForEvent('download');
    await maxRow.getByRole('button', { name: 'Month PDF', exact: true }).click();
    expect((await download).suggestedFilename()).toMatch(/^timesheet-\d{4}-\d{2}\.pdf$/);
    await lead.context().close();
    await member.context().close();
  }
  expect(memberId).toBeGreaterThan(0);
});
