// Where focus lands after an action, and where its confirmation shows (docs/web-client.md, Client rules):
// after signing in the heading of the section shown, after the password step of two-factor sign-in the
// code field, after Save in Settings and after signing out a device the confirmation beside the button
// (on screen on a 390 px phone), after adding an absence the confirmation under its button, after signing out the sign-in page's heading; and the vacation figures
// explained on Absences, with the one question before a booking beyond what remains. Debian's Chromium
// against a real `timetrack serve`; screenshots under /tmp. Needs `npm run build`.
import fs from 'node:fs';
import path from 'node:path';
import { DateTime } from 'luxon';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../support/app.js';
import { browserAvailable, launchBrowser, recordedContext } from '../support/browser.js';
import { startServer, type RunningServer } from '../support/server.js';
import { totpCode } from '../support/totp.js';

const PASSWORD = 'a quiet morning walk';
const SHOTS = '/tmp/vacation-focus-screenshots';
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

async function api(server: RunningServer, method: string, url: string, body?: unknown, token?: string): Promise<any> {
  const response = await fetch(`${server.baseUrl}${url}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return response.json();
}

const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

/** The page's globals, seen from this test program, which has no DOM types. */
type PageGlobals = any;

/** Waits until the focused element matches `selector` (focus may land a moment after the page changed). */
async function focusedOn(page: Page, selector: string): Promise<void> {
  await page.waitForFunction((wanted: string) => (globalThis as PageGlobals).document.activeElement?.matches(wanted) === true, selector, { timeout: 15_000 });
}

/** Whether the element is wholly inside the viewport, as the person sees the page now. */
function inViewport(page: Page, selector: string): Promise<boolean> {
  return page.evaluate((wanted: string) => {
    const window = globalThis as PageGlobals;
    const box = window.document.querySelector(wanted).getBoundingClientRect();
    return box.height > 0 && box.top >= 0 && box.left >= 0 && box.bottom <= window.innerHeight && box.right <= window.innerWidth;
  }, selector);
}

/** The focused element's text or attribute. */
function focused(page: Page, attribute?: string): Promise<string | null> {
  return page.evaluate((name: string | undefined) => {
    const active = (globalThis as PageGlobals).document.activeElement;
    return name === undefined ? active?.textContent : active?.getAttribute(name);
  }, attribute);
}

async function signIn(page: Page, server: RunningServer, email: string): Promise<void> {
  await page.goto(`${server.baseUrl}/login`);
  await field(page, 'E-mail or username').fill(email);
  await field(page, 'Password').fill(PASSWORD);
  await button(page, 'Sign in').click();
}

describe.runIf(browserAvailable)('focus and confirmations after actions', () => {
  let browser: Browser;
  let server: RunningServer;
  let counter = 0;
  beforeAll(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    browser = await launchBrowser();
    server = await startServer(path.join(makeTempDir('timetrack-web-focus-'), 'timetrack.db'));
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  /** A new account (zone Europe/Berlin), and a token of another session of it. */
  async function account(): Promise<{ email: string; token: string }> {
    counter += 1;
    const email = `focus${counter}@example.com`;
    await api(server, 'POST', '/api/auth/register', { email, password: PASSWORD, full_name: `Focus ${counter}`, timezone: 'Europe/Berlin' });
    const { token } = await api(server, 'POST', '/api/auth/login', { email, password: PASSWORD });
    return { email, token };
  }

  for (const viewport of [PHONE, DESKTOP]) {
    it(`sign in, Save settings, sign out a device, sign out at ${viewport.width} px`, { timeout: 180_000 }, async () => {
      const { email } = await account();
      const { context } = await recordedContext(browser, { viewport });
      const page = await context.newPage();
      await signIn(page, server, email);
      await focusedOn(page, 'h2#view-title');
      expect(await focused(page)).toBe('Today');

      // Save at the foot of a long page: the confirmation shows beside the button, and takes focus.
      await page.goto(`${server.baseUrl}/#settings`);
      await button(page, 'Save settings').scrollIntoViewIfNeeded();
      await button(page, 'Save settings').click();
      await focusedOn(page, '#settings-saved');
      expect(await page.locator('#settings-saved').textContent()).toBe('Settings saved.');
      expect(await inViewport(page, '#settings-saved')).toBe(true);
      expect(await inViewport(page, 'button[type="submit"].primary')).toBe(true);
      await page.screenshot({ path: path.join(SHOTS, `settings-saved-${viewport.width}.png`) });

      // Another device of the account, signed out from the list: its row goes, the confirmation takes focus.
      await api(server, 'POST', '/api/auth/login', { email, password: PASSWORD });
      await page.reload();
      const other = page.getByRole('button', { name: /^Sign out .*, last used / }).first();
      await other.scrollIntoViewIfNeeded();
      await other.click();
      await focusedOn(page, '#sessions-confirmation');
      expect(await page.locator('#sessions-confirmation').textContent()).toMatch(/is signed out\.$/);
      expect(await inViewport(page, '#sessions-confirmation')).toBe(true);
      await page.screenshot({ path: path.join(SHOTS, `device-signed-out-${viewport.width}.png`) });

      // Sign out: the sign-in page's heading.
      await page.locator('header').getByRole('button', { name: 'Sign out', exact: true }).click();
      await focusedOn(page, 'main.auth h1');
      expect(await focused(page)).toBe('Sign in');
      await page.screenshot({ path: path.join(SHOTS, `signed-out-${viewport.width}.png`) });
      await context.close();
    });
  }

  it('the password step of two-factor sign-in leads to the code field', { timeout: 120_000 }, async () => {
    const { email, token } = await account();
    const { secret } = await api(server, 'POST', '/api/auth/2fa/setup', { password: PASSWORD }, token);
    await api(server, 'POST', '/api/auth/2fa/enable', { code: totpCode(secret, Date.now()) }, token);
    const { context } = await recordedContext(browser, { viewport: PHONE });
    const page = await context.newPage();
    await signIn(page, server, email);
    await focusedOn(page, 'input[name="code"]');
    expect(await focused(page, 'autocomplete')).toBe('one-time-code');
    await page.screenshot({ path: path.join(SHOTS, `two-factor-code-${PHONE.width}.png`) });
    await field(page, 'Code from your app').fill(totpCode(secret, Date.now() + 30_000));
    await button(page, 'Verify').click();
    await focusedOn(page, 'h2#view-title');
    await context.close();
  });

  for (const viewport of [PHONE, DESKTOP]) {
    it(`Absences explains the allowance and asks once before a vacation beyond what remains (${viewport.width} px)`, { timeout: 120_000 }, async () => {
      const { email, token } = await account();
      // Tracking from the first of last month: two or more months of 30 days a year, pro rata.
      const today = DateTime.now().setZone('Europe/Berlin');
      const start = today.startOf('month').minus({ months: today.month === 1 ? 0 : 1 });
      const months = 13 - start.month;
      await api(
        server,
        'PATCH',
        '/api/settings',
        { tracking_start: start.toISODate(), vacation_days_per_year: 30, vacation_taken_before_tracking_days: 1 },
        token,
      );
      const allowance = Math.floor((60 * months) / 12 + 0.5) / 2;
      const { context } = await recordedContext(browser, { viewport });
      const page = await context.newPage();
      await signIn(page, server, email);
      await focusedOn(page, 'h2#view-title');
      await page.goto(`${server.baseUrl}/#absences`);
      const basis = page.getByRole('list', { name: 'How the allowance is worked out' });
      await basis.waitFor();
      const shown = (value: number) => (value === 1 ? '1 day' : `${value} days`);
      expect(await basis.textContent()).toContain(`30 days a year × ${months} of 12 months`);
      expect(await basis.textContent()).toContain(`= ${shown(allowance)}`);
      expect(await basis.textContent()).toContain('1 day taken this year before tracking started');

      // A range longer than what remains: warned once, beside the button; the second press books it.
      const from = today.plus({ days: 1 }).toISODate()!;
      const to = today.plus({ days: 70 }).toISODate()!;
      await page.getByLabel('Several days').check();
      await field(page, 'First day').fill(from);
      await field(page, 'Last day').fill(to);
      await button(page, 'Add absence').click();
      const warning = page.locator('#vacation-warning');
      await warning.waitFor();
      expect(await warning.textContent()).toMatch(/^This vacation counts \d+ days in \d{4}, but .* remain\./);
      expect(await inViewport(page, '#vacation-warning')).toBe(true);
      expect((await api(server, 'GET', '/api/time-entries/absences', undefined, token)).absences).toEqual([]);
      await page.screenshot({ path: path.join(SHOTS, `vacation-warning-${viewport.width}.png`), fullPage: viewport === DESKTOP });
      await button(page, 'Book anyway').click();
      await page
        .locator('p.notice.info')
        .getByText(/days added\. It is more than the vacation that remains\./)
        .waitFor({ state: 'attached' });
      // The button was disabled while it ran: the confirmation beside it takes focus (not the page's body), wholly on screen.
      await focusedOn(page, '#absence-added');
      expect(await inViewport(page, '#absence-added')).toBe(true);
      expect((await api(server, 'GET', '/api/time-entries/absences', undefined, token)).absences.length).toBeGreaterThan(10);
      await page.screenshot({ path: path.join(SHOTS, `vacation-booked-${viewport.width}.png`), fullPage: true });
      await context.close();
    });
  }
});
