// The lead's Approvals in the browser, walked by three people side by side (docs/web-client.md,
// "Approvals"; docs/teams.md, "Leave requests", "Closed months"): Max asks for a vacation day on the
// Absences page; Lea, his lead, finds it under Team → Approvals (in German, on a phone) and approves
// it with a note in one click, and Max sees it approved with the note. Max submits last month; Lea
// opens his month from the list and approves it; a change of one of its days is then refused to Max in
// words; Xena, an admin, reopens it with a reason from the team's week, and Max's change goes through.
// Debian's Chromium against a real `serve`; screenshots at 390 and 1280 px in a temp folder; axe finds
// nothing on each.
import path from 'node:path';
import { DateTime } from 'luxon';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { de } from '../../src/web/i18n/de.js';
import { en } from '../../src/web/i18n/en.js';
import { teamLayerDe } from '../../src/web/i18n/team-layer-de.js';
import { teamLayerEn } from '../../src/web/i18n/team-layer-en.js';
import { makeTempDir, PASSWORD } from '../support/app.js';
import { accessibilityViolations, browserAvailable, browserRequired, launchBrowser, recordedContext } from '../support/browser.js';
import { cliInProcess } from '../support/cli-in-process.js';
import { createAccountWithCli, tempDb } from '../support/cli-accounts.js';
import { callJson, startServer, type RunningServer } from '../support/server.js';

const SHOTS = makeTempDir('timetrack-approvals-');
let browser: Browser;
let server: RunningServer;
const tokens: Record<string, string> = {};

async function look(page: Page, name: string): Promise<void> {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: true });
    expect(await page.evaluate<number>('document.documentElement.scrollWidth'), `${name} at ${width}`).toBeLessThanOrEqual(width);
    expect(await accessibilityViolations(page), `${name} at ${width}`).toEqual([]);
  }
}

/** A page signed in as `email` (the token in storage before the client's first line), at `hash`. */
async function signedIn(email: string, locale: string, hash: string, width = 1280): Promise<Page> {
  const { context } = await recordedContext(browser, { viewport: { width, height: 900 }, locale, timezoneId: 'UTC', bypassCSP: true });
  const token = tokens[email]!;
  await context.addInitScript(
    `if (location.origin === ${JSON.stringify(server.baseUrl)} && !localStorage.getItem('timetrack.token')) localStorage.setItem('timetrack.token', ${JSON.stringify(token)})`,
  );
  const page = await context.newPage();
  await page.goto(`${server.baseUrl}/${hash}`);
  return page;
}

const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
const section = (page: Page, name: string) => page.getByRole('navigation').getByRole('link', { name, exact: true }).click();

describe.runIf(browserAvailable || browserRequired)('Approvals: a lead and a member side by side, and an admin', () => {
  beforeAll(async () => {
    const db = tempDb();
    await createAccountWithCli(db, 'xena@example.com', ['--role', 'admin', '--name', 'Xena Admin']);
    await createAccountWithCli(db, 'lea@example.com', ['--role', 'lead', '--name', 'Lea Lead']);
    await createAccountWithCli(db, 'max@example.com', ['--name', 'Max Meyer']);
    for (const args of [
      ['team', 'create', 'Kitchen'],
      ['team', 'add', 'Kitchen', 'lea@example.com', '--lead'],
      ['team', 'add', 'Kitchen', 'max@example.com'],
    ]) {
      expect((await cliInProcess(db, args)).exitCode).toBe(0);
    }
    server = await startServer(db);
    for (const email of ['xena@example.com', 'lea@example.com', 'max@example.com']) {
      tokens[email] = (await callJson(server, 'POST', '/api/auth/login', { email, password: PASSWORD })).body.token as string;
    }
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('a request approved with a note; a month approved from the list, then refused a change in words; an admin reopens it', { timeout: 300_000 }, async () => {
    const maxToken = tokens['max@example.com']!;
    const lastMonth = DateTime.utc().startOf('month').minus({ months: 1 });
    const month = lastMonth.toFormat('yyyy-MM');
    const worked = lastMonth.plus({ days: 9 }).toISODate()!;
    const settings = { timezone: 'UTC', tracking_start: lastMonth.minus({ months: 1 }).toISODate(), vacation_days_per_year: 30 };
    expect((await callJson(server, 'PATCH', '/api/settings', settings, maxToken)).status).toBe(200);
    expect((await callJson(server, 'POST', '/api/time-entries', { start_at: `${worked}T08:00:00Z`, end_at: `${worked}T16:00:00Z` }, maxToken)).status).toBe(
      201,
    );

    // Max asks for next week's Wednesday off.
    const day = DateTime.utc().startOf('week').plus({ weeks: 1, days: 2 }).toISODate()!;
    const max = await signedIn('max@example.com', 'en-GB', '#absences');
    await max.getByLabel(en.absences.date, { exact: true }).fill(day);
    await button(max, en.absences.add).click();
    await max.getByText(en.absences.state.requested, { exact: true }).first().waitFor();
    // And, through the API, for the Friday of the week after.
    const friday = DateTime.utc().startOf('week').plus({ weeks: 2, days: 4 }).toISODate()!;
    const second = (await callJson(server, 'POST', '/api/time-entries/absences', { date: friday, type: 'vacation' }, maxToken)).body.absence
      .request_id as number;

    // Lea, in German on a phone: Team → Freigaben (2) → the first request → a note → Genehmigen.
    const lea = await signedIn('lea@example.com', 'de-DE', '#team', 390);
    const approvals = teamLayerDe.approvals;
    await button(lea, approvals.part(2)).click();
    const request = lea.locator('.waiting-requests li').filter({ hasText: 'Max Meyer' }).first();
    await request.waitFor();
    await request.getByLabel(approvals.noteLabel('Max Meyer')).fill('Schöne Reise');
    await look(lea, '01-lead-request');
    await request.getByRole('button', { name: new RegExp(`^${approvals.approve}:`) }).click();
    await lea.getByText(approvals.approved('Max Meyer')).first().waitFor();
    // The second was decided elsewhere meanwhile (Xena, on another device): Lea's click says so in words, and the list follows.
    const xenaToken = tokens['xena@example.com']!;
    expect((await callJson(server, 'POST', `/api/requests/${second}/reject`, {}, xenaToken)).status).toBe(200);
    await lea
      .locator(`#waiting-request-${second}`)
      .getByRole('button', { name: new RegExp(`^${approvals.approve}:`) })
      .click();
    await lea.getByRole('alert').getByText(de.errors.ALREADY_DECIDED).waitFor();
    await lea.getByText(approvals.noRequests).waitFor();
    // The count beside Approvals follows (it reloads after the decision).
    await lea.getByRole('button', { name: approvals.part(undefined), exact: true }).waitFor();

    // Max sees it approved, with the note.
    await max.reload();
    const row = max.locator('.absences li').filter({ hasText: en.absences.state.approved });
    await row.getByText(en.absences.leadNote('Schöne Reise')).waitFor();

    // Max submits last month on Month.
    await max.goto(`${server.baseUrl}/#month`);
    await max.getByRole('heading', { name: en.tabs.month, exact: true, level: 2 }).waitFor();
    await button(max, en.month.previous).click();
    await button(max, en.monthState.submit).click();
    await max.getByText(`${en.monthState.label}: ${en.monthState.states.submitted}`).waitFor();

    // Lea: the month waits; she opens it (its figures one click away), then approves it.
    await lea.reload();
    await button(lea, approvals.part(1)).click();
    const monthName = DateTime.fromISO(`${month}-01`).setLocale('de-DE').toLocaleString({ month: 'long', year: 'numeric' });
    await button(lea, approvals.showMonthNamed('Max Meyer', monthName)).click();
    await lea.getByRole('heading', { name: `Max Meyer: ${monthName}`, level: 3 }).waitFor();
    await lea.getByText(`${de.monthState.label}: ${de.monthState.states.submitted}`).waitFor();
    await look(lea, '02-lead-month');
    await lea
      .locator('#person-month-state')
      .getByRole('button', { name: teamLayerDe.monthDecision.approveNamed('Max Meyer', monthName) })
      .click();
    await lea.getByText(`${de.monthState.label}: ${de.monthState.states.approved}`).waitFor();
    await lea.getByText(approvals.noMonths).waitFor();

    // Max: a booking dated in the approved month is refused in words.
    await section(max, en.tabs.settings);
    await max.getByLabel(en.settings.bookingDate, { exact: true }).fill(lastMonth.plus({ days: 11 }).toISODate()!);
    await max.getByLabel(en.settings.bookingMinutes, { exact: true }).fill('-1:00');
    await button(max, en.settings.addBooking).click();
    await max.getByRole('alert').getByText(en.errors.MONTH_LOCKED).waitFor();

    // Xena, an admin: Team → Max's month → Reopen… with a reason.
    const xena = await signedIn('xena@example.com', 'en-GB', '#team');
    await xena.locator('table.team tr').filter({ hasText: 'Max Meyer' }).getByRole('button', { name: en.tabs.month, exact: true }).click();
    const heading = xena.locator('#person-title');
    await heading.waitFor();
    const englishMonth = DateTime.fromISO(`${month}-01`).setLocale('en-GB').toLocaleString({ month: 'long', year: 'numeric' });
    if (!(await heading.textContent())?.includes(englishMonth)) await xena.locator('.person-figures').getByRole('button', { name: en.month.previous }).click();
    await xena.getByRole('heading', { name: `Max Meyer: ${englishMonth}`, level: 3 }).waitFor();
    await xena.getByText(`${en.monthState.label}: ${en.monthState.states.approved}`).waitFor();
    await button(xena, teamLayerEn.monthDecision.reopen).click();
    await button(xena, teamLayerEn.monthDecision.reopenNow).click();
    await xena.getByText(en.fields.reason).first().waitFor();
    await xena.getByLabel(teamLayerEn.monthDecision.reasonLabel).fill('Tuesday was sick leave, not work');
    await look(xena, '03-admin-reopen');
    await button(xena, teamLayerEn.monthDecision.reopenNow).click();
    await xena.getByText(`${en.monthState.label}: ${en.monthState.states.open}`).waitFor();
    await xena.getByText(teamLayerEn.monthDecision.reopened('Max Meyer', englishMonth)).first().waitFor();

    // Max's change now goes through.
    await button(max, en.settings.addBooking).click();
    await expect
      .poll(async () => (await callJson(server, 'GET', `/api/time-entries/bookings?from=${month}-01`, undefined, maxToken)).body.bookings.length, {
        timeout: 15_000,
      })
      .toBe(1);
  });
});
