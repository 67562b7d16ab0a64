// Team › Calendar in Chromium (docs/web-client.md, "Team"; docs/teams.md, "Team calendar"): the lead
// Lea and the members Max and Mia of Kitchen, at 390 and 1280 px, light and dark, English and German.
// The lead sees Mia's vacation with its kind; Max sees his own sick half day with its kind and Mia's
// vacation only as away. Public holidays of Mia's region are shaded as the API says; the month switcher
// changes the month; the grid is reached with the keyboard and scrolls in its box with the names kept
// in view, and the page itself never scrolls sideways. Screenshots under /tmp.
import { DateTime } from 'luxon';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PASSWORD } from '../support/app.js';
import { browserAvailable, browserRequired, launchBrowser, recordedContext } from '../support/browser.js';
import { kitchenWithLeaAndMax, tempDb } from '../support/cli-accounts.js';
import { cliInProcess } from '../support/cli-in-process.js';
import { request } from '../support/requests.js';
import { startServer, type RunningServer } from '../support/server.js';

const run = browserAvailable || browserRequired;
let server: RunningServer;
let browser: Browser;
let leadToken: string;
let teamId: number;
/** This month in Berlin, and the days of Mia's vacation and Max's sick half day in it. */
const month = DateTime.now().setZone('Europe/Berlin').toFormat('yyyy-MM');
const vacationDay = 10;
const sickDay = 12;

async function tokenOf(email: string): Promise<string> {
  return (await request(server, 'POST', '/api/auth/login', { payload: { email, password: PASSWORD } })).json().token as string;
}

beforeAll(async () => {
  if (!run) return;
  const db = tempDb();
  await kitchenWithLeaAndMax(db);
  server = await startServer(db);
  browser = await launchBrowser();
  const mia = { email: 'mia@example.com', password: PASSWORD, full_name: 'Mia Member', timezone: 'Europe/Berlin' };
  expect((await request(server, 'POST', '/api/auth/register', { payload: mia })).statusCode).toBe(201);
  expect((await cliInProcess(db, ['team', 'add', 'Kitchen', 'mia@example.com'])).exitCode).toBe(0);
  const miaToken = await tokenOf('mia@example.com');
  const maxToken = await tokenOf('max@example.com');
  leadToken = await tokenOf('lea@example.com');
  const patch = { timezone: 'Europe/Berlin', timezone_valid_from: '1970-01-01', holiday_region: 'DE-BY', tracking_start: `${month}-01` };
  for (const token of [miaToken, maxToken, leadToken])
    expect((await request(server, 'PATCH', '/api/settings', { token, payload: patch })).statusCode).toBe(200);
  const vacation = { date: `${month}-${vacationDay}`, type: 'vacation' };
  const asked = await request(server, 'POST', '/api/time-entries/absences', { token: miaToken, payload: vacation });
  expect(asked.statusCode).toBe(201);
  const sick = { date: `${month}-${sickDay}`, type: 'sick', portion: 'half' };
  expect((await request(server, 'POST', '/api/time-entries/absences', { token: maxToken, payload: sick })).statusCode).toBe(201);
  teamId = ((await request(server, 'GET', '/api/teams', { token: leadToken })).json().teams as Array<{ id: number }>)[0]!.id;
  // The team requires approval (docs/teams.md, "Leave requests"): Mia's vacation counts, and shows to Max, once Lea approved it.
  const approved = await request(server, 'POST', `/api/requests/${asked.json().absence.request_id}/approve`, { token: leadToken, payload: {} });
  expect(approved.statusCode).toBe(200);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function signedIn(email: string, width: number, locale: string, colorScheme: 'light' | 'dark'): Promise<Page> {
  const { context } = await recordedContext(browser, { viewport: { width, height: 844 }, locale, colorScheme });
  const page = await context.newPage();
  await page.goto(`${server.baseUrl}/login`);
  await page.locator('input[name=email]').fill(email);
  await page.locator('input[name=password]').fill(PASSWORD);
  await page.locator('form button[type=submit]').click();
  await page.locator('button.big').waitFor();
  return page;
}

/** A member's Team page, which is its calendar. */
async function openCalendar(page: Page): Promise<void> {
  await page.locator('header nav a[href="#team"]').click();
  await page.locator('table.calendar tbody tr').first().waitFor();
}

/** The cell of row `row` (0: Lea, 1: Max, 2: Mia) on day `day` of the month. */
const cell = (page: Page, row: number, day: number) =>
  page
    .locator('table.calendar tbody tr')
    .nth(row)
    .locator('td')
    .nth(day - 1);

it.runIf(run)("a lead sees a member's vacation with its kind, a member sees it as away; holidays shaded; 390 and 1280 px", { timeout: 240_000 }, async () => {
  const api = (await request(server, 'GET', `/api/teams/${teamId}/calendar?month=${month}`, { token: leadToken })).json();
  const miaHolidays = (api.members[2].days as Array<{ holiday: string | null }>).filter((day) => day.holiday !== null).length;
  for (const [width, locale, scheme] of [
    [390, 'en-GB', 'light'],
    [1280, 'de-DE', 'dark'],
    [390, 'de-DE', 'dark'],
    [1280, 'en-GB', 'light'],
  ] as const) {
    const english = locale === 'en-GB';
    const lead = await signedIn('lea@example.com', width, locale, scheme);
    const member = await signedIn('max@example.com', width, locale, scheme);
    // The lead: the week overview first, the calendar a click away; Mia's vacation by its kind.
    await lead.locator('header nav a[href="#team"]').click();
    await lead.locator('table.team').waitFor();
    await lead.locator('.view-switch button').nth(1).click();
    await lead.locator('table.calendar tbody tr').first().waitFor();
    expect(await lead.locator('table.calendar tbody tr').count()).toBe(3);
    const miaVacation = cell(lead, 2, vacationDay);
    expect(await miaVacation.getAttribute('class')).toContain('kind-vacation');
    expect(await miaVacation.locator('.visually-hidden').textContent()).toContain(english ? 'Vacation' : 'Urlaub');
    expect(await cell(lead, 1, sickDay).locator('.visually-hidden').textContent()).toBe(english ? 'Sick, half day' : 'Krank, halber Tag');
    expect(await lead.locator('table.calendar tbody tr').nth(2).locator('td.public-holiday').count()).toBe(miaHolidays);

    // The member: Team has the calendar only; Mia's vacation is "away", Max's own sick half day has its kind.
    await openCalendar(member);
    expect(await member.locator('.view-switch').count()).toBe(0);
    expect(await member.locator('table.team').count()).toBe(0);
    const away = cell(member, 2, vacationDay);
    expect(await away.getAttribute('class')).toContain('kind-away');
    expect(await away.getAttribute('class')).not.toContain('vacation');
    expect(await away.locator('.visually-hidden').textContent()).toBe(english ? 'Away' : 'Abwesend');
    expect(await cell(member, 1, sickDay).locator('.visually-hidden').textContent()).toBe(english ? 'Sick, half day' : 'Krank, halber Tag');

    // Keyboard: from "This month" the next Tab is the grid, which then scrolls with the arrow keys.
    const thisMonth = member.locator('.team-calendar .week-nav button').nth(2);
    await thisMonth.focus();
    await member.keyboard.press('Tab');
    expect(await member.evaluate('document.activeElement.classList.contains("calendar-scroll")')).toBe(true);
    // The page never scrolls sideways; at 390 px the grid scrolls in its box and the names stay in view.
    expect(await member.evaluate('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    if (width === 390) {
      const region = member.locator('.calendar-scroll');
      expect(await region.evaluate((element) => element.scrollWidth > element.clientWidth)).toBe(true);
      for (let i = 0; i < 8; i++) await member.keyboard.press('ArrowRight');
      await expect.poll(() => region.evaluate((element) => element.scrollLeft)).toBeGreaterThan(100);
      const name = member.locator('table.calendar tbody tr').nth(2).locator('th');
      const [box, nameBox] = [await region.boundingBox(), await name.boundingBox()];
      expect(Math.abs(nameBox!.x - box!.x)).toBeLessThan(2);
    }
    await lead.screenshot({ path: `/tmp/team-calendar-lead-${width}-${locale}-${scheme}.png`, fullPage: true });
    await member.screenshot({ path: `/tmp/team-calendar-member-${width}-${locale}-${scheme}.png`, fullPage: true });

    // The month switcher: the month before has no absences of this month.
    await member.locator('.team-calendar .week-nav button').first().click();
    const before = DateTime.fromISO(`${month}-01`).minus({ months: 1 });
    await expect.poll(() => member.locator('table.calendar thead th').count()).toBe(before.daysInMonth! + 1);
    await expect.poll(() => member.locator('table.calendar td.absent').count()).toBe(0);
    await lead.context().close();
    await member.context().close();
  }
});
