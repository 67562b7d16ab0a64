// The bell in Chromium (docs/web-client.md, "The bell"): the header shows the unread count; the bell is
// reached and opened with the keyboard, lists the account's own notices newest first in the client's
// language, marks one read (the count goes down) and all read, and Escape closes it with focus back on
// the bell. axe finds nothing with the list open. Needs `npm run build`.
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, PASSWORD } from '../support/app.js';
import { accessibilityViolations, browserAvailable, browserRequired, launchBrowser, recordedContext } from '../support/browser.js';
import { tempDb } from '../support/cli-accounts.js';
import { queryRows } from '../support/database.js';
import { callJson, startServer, type RunningServer } from '../support/server.js';

const run = browserAvailable || browserRequired;
let browser: Browser;
let server: RunningServer | undefined;
const shots = makeTempDir('timetrack-bell-shots-');

beforeAll(async () => {
  if (run) browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A notice recorded behind the application's back, as the reminder job records one. */
async function plantNotice(db: string, email: string, key: string, date: string): Promise<void> {
  await queryRows(db, "insert into notices (user_id, kind, key, data, created_at) select id, 'missing-day', ?, ?, ? from users where email = ?", [
    key,
    JSON.stringify({ date, target_minutes: 480 }),
    `${date}T08:00:00.000Z`,
    email,
  ]);
}

describe.runIf(run)('the bell', () => {
  it('shows the unread count, opens with the keyboard, marks read, closes with Escape; axe in en and de', { timeout: 120_000 }, async () => {
    const db = tempDb();
    server = await startServer(db, {});
    const email = 'ann@example.com';
    expect((await callJson(server, 'POST', '/api/auth/register', { email, password: PASSWORD, full_name: 'Ann', timezone: 'Europe/Berlin' })).status).toBe(201);
    await plantNotice(db, email, 'missing-day:ann:1', '2026-11-02');
    await plantNotice(db, email, 'missing-day:ann:2', '2026-11-03');

    for (const locale of ['de-DE', 'en-GB']) {
      const { context } = await recordedContext(browser, { viewport: { width: 390, height: 844 }, locale, bypassCSP: true });
      const page = await context.newPage();
      await page.goto(`${server.baseUrl}/login`);
      await page.locator('input[name=email]').fill(email);
      await page.locator('input[name=password]').fill(PASSWORD);
      await page.locator('form button[type=submit]').click();
      const bell = page.locator('button.bell-button');
      await expect
        .poll(() => bell.getAttribute('aria-label'), { timeout: 15_000 })
        .toBe(locale === 'en-GB' ? 'Notices, 2 unread' : 'Mitteilungen, 2 ungelesen');
      await bell.focus();
      await page.keyboard.press('Enter');
      await page.locator('#notices li').nth(1).waitFor();
      if (locale === 'en-GB') {
        // Newest first, in words.
        const items = await page.locator('#notices li p').allTextContents();
        expect(items[0]).toContain('Nothing recorded on Tue 3 Nov');
        expect(items[1]).toContain('Nothing recorded on Mon 2 Nov');
        await page.screenshot({ path: path.join(shots, 'bell-open-390.png') });
      }
      expect(await accessibilityViolations(page)).toEqual([]);
      await page.keyboard.press('Escape');
      await page.locator('#notices').waitFor({ state: 'detached' });
      expect(await page.evaluate<string>('document.activeElement.className')).toBe('bell-button');
      await context.close();
    }

    const { context } = await recordedContext(browser, { viewport: { width: 1280, height: 844 }, locale: 'en-GB', bypassCSP: true });
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/login`);
    await page.locator('input[name=email]').fill(email);
    await page.locator('input[name=password]').fill(PASSWORD);
    await page.locator('form button[type=submit]').click();
    const bell = page.getByRole('button', { name: 'Notices, 2 unread' });
    await bell.click();
    await page.getByRole('button', { name: 'Mark read' }).first().click();
    await page.getByRole('button', { name: 'Notices, 1 unread' }).waitFor();
    await page.getByRole('button', { name: 'Mark all read' }).click();
    await page.getByRole('button', { name: 'Notices', exact: true }).waitFor();
    expect(await page.getByRole('button', { name: 'Mark read' }).count()).toBe(0);
    await context.close();
  });
});
