// Leave requests on the Absences page (docs/teams.md, "Leave requests"; docs/web-client.md): Max, a
// member of Kitchen (which requires approval), asks for vacation and sees it waiting; withdraws one;
// once his lead approves another with a note, he sees the note and asks to cancel it (asked first),
// and sees the cancellation waiting. The same page in German names the states. Debian's Chromium
// against a real `serve`; axe finds nothing. Screenshots in a temp folder.
import { DateTime } from 'luxon';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, PASSWORD } from '../support/app.js';
import { accessibilityViolations, browserAvailable, browserRequired, launchBrowser, recordedContext } from '../support/browser.js';
import { kitchenWithLeaAndMax, tempDb } from '../support/cli-accounts.js';
import { callJson, startServer, type RunningServer } from '../support/server.js';

const SHOTS = makeTempDir('timetrack-requests-');
let browser: Browser;
let server: RunningServer;

async function look(page: Page, name: string) {
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
  expect(await accessibilityViolations(page), name).toEqual([]);
}

async function signedIn(email: string, locale: string): Promise<Page> {
  const { context } = await recordedContext(browser, { viewport: { width: 1280, height: 900 }, locale, timezoneId: 'UTC', bypassCSP: true });
  const { token } = (await callJson(server, 'POST', '/api/auth/login', { email, password: PASSWORD })).body;
  // The token is in storage before the client's first line runs. (Setting it from a loaded '/' raced the
  // client's own redirect to /login: when the redirect came after, the next goto to '/#absences' only
  // changed the hash, and the page stayed signed out.)
  await context.addInitScript(
    `if (location.origin === ${JSON.stringify(server.baseUrl)} && !localStorage.getItem('timetrack.token')) localStorage.setItem('timetrack.token', ${JSON.stringify(token)})`,
  );
  const page = await context.newPage();
  await page.goto(`${server.baseUrl}/#absences`);
  return page;
}

describe.runIf(browserAvailable || browserRequired)('leave requests on the Absences page', () => {
  beforeAll(async () => {
    const db = tempDb();
    await kitchenWithLeaAndMax(db);
    server = await startServer(db);
    browser = await launchBrowser();
  }, 120_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('waiting, withdrawn, approved with a note, cancellation asked for; in English and German', { timeout: 240_000 }, async () => {
    const max = (await callJson(server, 'POST', '/api/auth/login', { email: 'max@example.com', password: PASSWORD })).body.token as string;
    const lea = (await callJson(server, 'POST', '/api/auth/login', { email: 'lea@example.com', password: PASSWORD })).body.token as string;
    // Two requests of next week's Monday and Tuesday (from this week on, so the list shows them).
    const monday = DateTime.utc().startOf('week').plus({ weeks: 1 });
    const ask = async (date: DateTime) =>
      (await callJson(server, 'POST', '/api/time-entries/absences', { date: date.toISODate(), type: 'vacation', note: 'Alps' }, max)).body.absence
        .request_id as number;
    const first = await ask(monday);
    const second = await ask(monday.plus({ days: 1 }));

    const page = await signedIn('max@example.com', 'en-GB');
    const row = (id: number) => page.locator(`#booking-${id}`);
    await row(first).getByText('Waiting for approval').waitFor();
    // The year's figures count the two days as asked for, not yet as planned.
    await expect(page.locator('#vacation-requested dd').textContent()).resolves.toBe('2 days');
    await expect(row(second).getByRole('button', { name: 'Withdraw' })).toBeDefined();
    await look(page, '01-waiting');
    await row(first).getByRole('button', { name: 'Withdraw' }).click();
    await page.getByText('Request withdrawn.').first().waitFor();
    await row(first).waitFor({ state: 'detached' });

    await callJson(server, 'POST', `/api/requests/${second}/approve`, { note: 'Have a good trip' }, lea);
    await page.reload();
    await row(second).getByText('Approved').waitFor();
    await row(second).getByText('Note from your lead: Have a good trip').waitFor();
    await row(second).getByRole('button', { name: 'Request cancellation' }).click();
    await row(second).getByText('Ask for this vacation to be cancelled?').waitFor();
    await look(page, '02-cancel-question');
    await row(second).getByRole('button', { name: 'Request cancellation' }).click();
    await row(second).getByText('Cancellation requested').waitFor();
    expect(await row(second).getByRole('button').count()).toBe(0);
    const stored = (await callJson(server, 'GET', '/api/requests', undefined, max)).body.requests.map((r: { id: number; state: string }) => [r.id, r.state]);
    expect(stored).toEqual([
      [second, 'cancel_requested'],
      [first, 'withdrawn'],
    ]);

    const german = await signedIn('max@example.com', 'de-DE');
    await german.locator(`#booking-${second}`).getByText('Stornierung beantragt').waitFor();
    await german.locator(`#booking-${second}`).getByText('Notiz Ihrer Teamleitung: Have a good trip').waitFor();
    await look(german, '03-german');
  });
});
