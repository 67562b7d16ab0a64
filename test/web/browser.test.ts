// The browser client end to end: Debian's Chromium against a real `timetrack serve --dev` on a temporary
// database (docs/web-client.md). Needs `npm run build` (it writes dist/web); skipped without Chromium.
import fs from 'node:fs';
import path from 'node:path';
import { DateTime } from 'luxon';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../support/app.js';
import { browserAvailable, browserRequired, CHROMIUM, launchBrowser, recordedContext, SCREENSHOTS, seriousAccessibilityViolations } from '../support/browser.js';
import { PROJECT_ROOT, runCli } from '../support/cli.js';
import { startServer, type RunningServer } from '../support/server.js';

const FLOW_TIMEOUT = 240_000;
const PASSWORD = 'a quiet morning walk';
const NEW_PASSWORD = 'evening tea by the river';

if (!browserAvailable && !browserRequired) console.log(`Browser suite skipped: ${CHROMIUM} is missing (apt-get install chromium).`);

describe.runIf(!browserAvailable && browserRequired)('the browser suite, required here', () => {
  it(`needs ${CHROMIUM}`, () => {
    throw new Error(`TIMETRACK_REQUIRE_BROWSER=1 but ${CHROMIUM} is missing: apt-get install chromium`);
  });
});

let counter = 0;
function person() {
  counter += 1;
  const id = `${process.pid}${counter}`;
  return { name: `Dana Example ${counter}`, email: `dana${id}@example.com`, username: `dana${id}` };
}

const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });
const token = (page: Page) => page.evaluate<string | null>("localStorage.getItem('timetrack.token')");

async function register(page: Page, baseUrl: string, who: ReturnType<typeof person>, password = PASSWORD) {
  await page.goto(`${baseUrl}/register`);
  await field(page, 'Full name').fill(who.name);
  await field(page, 'E-mail').fill(who.email);
  await field(page, 'Username (optional)').fill(who.username);
  await field(page, 'Password').fill(password);
  await button(page, 'Create account').click();
  await page.waitForURL(`${baseUrl}/login`);
}

async function signIn(page: Page, identifier: string, password = PASSWORD) {
  await field(page, 'E-mail or username').fill(identifier);
  await field(page, 'Password').fill(password);
  await button(page, 'Sign in').click();
}

async function openTab(page: Page, name: string) {
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name, exact: true }).click();
  await page.getByRole('heading', { name, exact: true, level: 2 }).waitFor();
}

function expectSameOrigin(requests: string[], baseUrl: string) {
  const elsewhere = requests.filter((url) => !url.startsWith(`${baseUrl}/`) && !url.startsWith('blob:') && !url.startsWith('data:'));
  expect(elsewhere).toEqual([]);
  expect(requests.length).toBeGreaterThan(0);
}

describe.runIf(browserAvailable)('the browser client', () => {
  let browser: Browser;
  let server: RunningServer;
  let dbPath: string;
  let baseUrl: string;

  beforeAll(async () => {
    dbPath = path.join(makeTempDir('timetrack-web-'), 'timetrack.db');
    server = await startServer(dbPath, {}, ['--dev']);
    baseUrl = server.baseUrl;
    browser = await launchBrowser();
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('register → sign in → reload → Start/Stop → week → entries → absence → settings → password → CSV → sign out', { timeout: FLOW_TIMEOUT }, async () => {
    const { context, requests, cspViolations } = await recordedContext(browser);
    const page = await context.newPage();
    const who = person();

    // A refused registration keeps what was typed and says why in words.
    await page.goto(`${baseUrl}/register`);
    await field(page, 'Full name').fill(who.name);
    await field(page, 'E-mail').fill(who.email);
    await field(page, 'Password').fill('password123');
    await button(page, 'Create account').click();
    await expect.poll(() => page.getByRole('alert').first().textContent()).toMatch(/too common/);
    expect(await field(page, 'Full name').inputValue()).toBe(who.name);
    expect(await field(page, 'E-mail').inputValue()).toBe(who.email);

    await register(page, baseUrl, who);
    await page.getByText('Your account is ready. Sign in.').waitFor();
    await signIn(page, who.username, 'not the password');
    await page.getByText('The e-mail, username or password is not right.').waitFor();
    expect(await field(page, 'E-mail or username').inputValue()).toBe(who.username);
    await signIn(page, who.username);
    await page.waitForURL(`${baseUrl}/`);
    await button(page, 'Start').waitFor();
    expect(await token(page)).toBeTruthy();

    // The session survives a reload; a signed-in user is sent from /login and /register to /.
    await page.reload();
    await button(page, 'Start').waitFor();
    for (const signedOutOnly of ['/login', '/register']) {
      await page.goto(`${baseUrl}${signedOutOnly}`);
      await page.waitForURL(`${baseUrl}/`);
      await button(page, 'Start').waitFor();
    }

    await field(page, 'Note (optional)').fill('writing the report');
    await button(page, 'Start').click();
    await button(page, 'Stop').waitFor();
    await expect.poll(() => page.getByLabel('Running time').textContent()).toMatch(/^0:00:\d\d$/);
    await page.getByText('writing the report').waitFor();
    await button(page, 'Stop').click();
    await button(page, 'Start').waitFor();

    // One entry of 1:30 by hand, in the account's zone (UTC until the settings change it).
    const now = DateTime.utc().startOf('minute');
    const start = now.hour >= 3 ? now.minus({ hours: 3 }) : now.minus({ hours: 26 });
    await openTab(page, 'Entries');
    if (start.startOf('week').toISODate() !== now.startOf('week').toISODate()) await button(page, 'Previous week').click();
    const addForm = page.locator('form.entry-form').last();
    await addForm.getByLabel('Start', { exact: true }).fill(start.toFormat("yyyy-LL-dd'T'HH:mm"));
    await addForm.getByLabel('End (empty while running)', { exact: true }).fill(start.plus({ minutes: 90 }).toFormat("yyyy-LL-dd'T'HH:mm"));
    await addForm.getByLabel('Note', { exact: true }).fill('by hand');
    await button(page, 'Add entry').click();
    await page.getByText('by hand').waitFor();
    await expect.poll(() => page.locator('ul.entries > li').count()).toBeGreaterThanOrEqual(1);

    // An overlapping entry is explained in words, and the form keeps what was typed.
    await addForm.getByLabel('Start', { exact: true }).fill(start.plus({ minutes: 30 }).toFormat("yyyy-LL-dd'T'HH:mm"));
    await addForm.getByLabel('End (empty while running)', { exact: true }).fill(start.plus({ minutes: 60 }).toFormat("yyyy-LL-dd'T'HH:mm"));
    await button(page, 'Add entry').click();
    await addForm.getByText('This time overlaps another entry.', { exact: false }).waitFor();
    expect(await addForm.getByLabel('Start', { exact: true }).inputValue()).toBe(start.plus({ minutes: 30 }).toFormat("yyyy-LL-dd'T'HH:mm"));

    // Edit a note; delete the zero-minute timer entry after a confirmation.
    const handEntry = page.locator('ul.entries > li', { hasText: 'by hand' });
    await handEntry.getByRole('button', { name: 'Edit' }).click();
    await page.locator('ul.entries').getByLabel('Note', { exact: true }).fill('by hand, edited');
    await button(page, 'Save entry').click();
    await page.getByText('by hand, edited').waitFor();
    if (start.startOf('week').toISODate() !== now.startOf('week').toISODate()) await button(page, 'This week').click();
    const timerEntry = page.locator('ul.entries > li', { hasText: 'writing the report' });
    await timerEntry.getByRole('button', { name: 'Delete' }).click();
    await timerEntry.getByRole('button', { name: 'Keep it' }).click();
    await timerEntry.getByRole('button', { name: 'Delete' }).click();
    await timerEntry.getByRole('button', { name: 'Yes, delete' }).click();
    await expect.poll(() => page.locator('ul.entries > li', { hasText: 'writing the report' }).count()).toBe(0);

    // The week shows the minutes.
    await openTab(page, 'Week');
    if (start.startOf('week').toISODate() !== now.startOf('week').toISODate()) await button(page, 'Previous week').click();
    await expect.poll(() => page.locator('tfoot td').nth(1).textContent()).toBe('1:30');

    // An absence, marked in the week; the same day twice is refused in words.
    await openTab(page, 'Absences');
    const monday = now.startOf('week').toISODate() as string;
    await field(page, 'Date').fill(monday);
    await page.getByLabel('Type').selectOption('vacation');
    await button(page, 'Add absence').click();
    await page.getByRole('button', { name: `Remove Vacation on ${monday}` }).waitFor();
    await button(page, 'Add absence').click();
    await page.getByText('There is already an absence on this day.').waitFor();
    await openTab(page, 'Week');
    await button(page, 'This week').click();
    await page.locator('tbody tr').first().getByText('Vacation').waitFor();

    // The week renders from at most 4 API requests, on a fresh load too.
    await page.goto(`${baseUrl}/#week`);
    await page.reload();
    await page.locator('tfoot').waitFor();
    await page.waitForLoadState('networkidle');
    const before = requests.length;
    await page.reload();
    await page.locator('tfoot').waitFor();
    await page.waitForLoadState('networkidle');
    const weekRequests = requests.slice(before).filter((url) => url.startsWith(`${baseUrl}/api/`));
    expect(weekRequests.length).toBeLessThanOrEqual(4);

    // A setting: the time zone list suggests the browser's zone; Monday's target changes.
    await openTab(page, 'Settings');
    expect(await field(page, 'Time zone').inputValue()).toBe('Europe/Berlin');
    await field(page, 'Monday').fill('7:30');
    await button(page, 'Save settings').click();
    await page.getByText('Settings saved.').waitFor();
    await field(page, 'Monday').fill('seven');
    await button(page, 'Save settings').click();
    await page.getByText('The target for Monday must be a duration like 8:00.').waitFor();
    await page.reload();
    await button(page, 'Save settings').waitFor();
    expect(await field(page, 'Monday').inputValue()).toBe('7:30');
    expect(await field(page, 'Time zone').inputValue()).toBe('Europe/Berlin');

    // Change the password (a wrong current one is said in words).
    await field(page, 'Current password').fill('not it at all');
    await field(page, 'New password').fill(NEW_PASSWORD);
    await field(page, 'New password again').fill(NEW_PASSWORD);
    await button(page, 'Change password').click();
    await page.getByText('The current password is not right.').waitFor();
    await field(page, 'Current password').fill(PASSWORD);
    await button(page, 'Change password').click();
    await page.getByText('Password changed.', { exact: false }).waitFor();

    // The CSV export arrives as a file, fetched with the Authorization header.
    const download = page.waitForEvent('download');
    await button(page, 'Download CSV').click();
    const file = await (await download).path();
    expect(fs.readFileSync(file, 'utf8')).toContain('by hand, edited');

    await button(page, 'Sign out').click();
    await page.waitForURL(`${baseUrl}/login`);
    await page.getByText('You are signed out.').waitFor();
    expect(await token(page)).toBeNull();
    await page.goto(`${baseUrl}/`);
    await page.waitForURL(`${baseUrl}/login`);
    await signIn(page, who.email, NEW_PASSWORD);
    await button(page, 'Start').waitFor();

    expectSameOrigin(requests, baseUrl);
    expect(requests.some((url) => /[?&]token=|access_token/.test(url))).toBe(false);
    expect(cspViolations).toEqual([]);
    await context.close();
  });

  it('password forgot (dev mode) → the reset page from the link → the new password works; a used token is refused in words', { timeout: FLOW_TIMEOUT }, async () => {
    const { context, requests, cspViolations } = await recordedContext(browser);
    const page = await context.newPage();
    const who = person();
    await register(page, baseUrl, who);

    await page.goto(`${baseUrl}/password-forgot`);
    await field(page, 'E-mail').fill(who.email);
    await button(page, 'Send reset link').click();
    await page.getByText('If an account has this address', { exact: false }).waitFor();
    const resetToken = (await page.locator('.token code').textContent()) ?? '';
    expect(resetToken.length).toBeGreaterThan(20);
    await page.getByRole('link', { name: 'Open the reset page' }).click();

    // The token leaves the address bar as soon as the page has read it.
    await page.waitForURL(`${baseUrl}/password-reset`);
    await field(page, 'New password').fill(NEW_PASSWORD);
    await field(page, 'New password again').fill('something else entirely');
    await button(page, 'Set new password').click();
    await page.getByText('The two passwords are not the same.').waitFor();
    await field(page, 'New password again').fill(NEW_PASSWORD);
    await button(page, 'Set new password').click();
    await page.waitForURL(`${baseUrl}/login`);
    await page.getByText('Your password is changed. Sign in with the new one.').waitFor();
    await signIn(page, who.email, PASSWORD);
    await page.getByText('The e-mail, username or password is not right.').waitFor();
    await signIn(page, who.email, NEW_PASSWORD);
    await button(page, 'Start').waitFor();
    await page.evaluate('localStorage.clear()');

    // The same link again (a fresh load, as from the e-mail): refused with a sentence.
    await page.goto(`${baseUrl}/password-reset?token=${encodeURIComponent(resetToken)}`);
    expect(new URL(page.url()).search).toBe('');
    await field(page, 'New password').fill('yet another good password');
    await field(page, 'New password again').fill('yet another good password');
    await button(page, 'Set new password').click();
    await page.getByText('This reset link is invalid, expired or already used. Request a new one.').waitFor();
    expect(page.url()).toBe(`${baseUrl}/password-reset`);

    expectSameOrigin(requests, baseUrl);
    expect(cspViolations).toEqual([]);
    await context.close();
  });

  it('`timetrack token revoke --user` while signed in: the next action lands on /login with the token gone', { timeout: FLOW_TIMEOUT }, async () => {
    const { context, requests } = await recordedContext(browser);
    const page = await context.newPage();
    const who = person();
    await register(page, baseUrl, who);
    // Keyboard only: the fields and the button in tab order, Enter submits.
    await field(page, 'E-mail or username').focus();
    await page.keyboard.type(who.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(PASSWORD);
    await page.keyboard.press('Tab');
    expect(await page.evaluate<string>('document.activeElement.textContent')).toBe('Sign in');
    await page.keyboard.press('Enter');
    await button(page, 'Start').waitFor();
    expect(await token(page)).toBeTruthy();

    const revoke = await runCli(['token', 'revoke', '--user', who.email, '--db', dbPath]);
    expect(revoke.exitCode).toBe(0);
    // The statistics routes answer a revoked token without user data (never 401): that signs out too.
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Week' }).click();
    await page.waitForURL(`${baseUrl}/login`);
    await page.getByText('Your session has ended. Sign in again.').waitFor();
    expect(await token(page)).toBeNull();

    // The same through a strict route, which answers 401 itself.
    await signIn(page, who.email);
    await button(page, 'Start').waitFor();
    expect((await runCli(['token', 'revoke', '--user', who.email, '--db', dbPath])).exitCode).toBe(0);
    await button(page, 'Start').click();
    await page.waitForURL(`${baseUrl}/login`);
    await page.getByText('Your session has ended. Sign in again.').waitFor();
    expect(await token(page)).toBeNull();
    expectSameOrigin(requests, baseUrl);
    await context.close();
  });

  it('the first load of /login transfers at most 60 KB (HTML, script and style, compressed)', { timeout: FLOW_TIMEOUT }, async () => {
    const { context } = await recordedContext(browser);
    const page = await context.newPage();
    const loaded: Promise<number>[] = [];
    page.on('requestfinished', (request) => loaded.push(request.sizes().then((sizes) => sizes.responseBodySize + sizes.responseHeadersSize)));
    await page.goto(`${baseUrl}/login`);
    await button(page, 'Sign in').waitFor();
    await page.waitForLoadState('networkidle');
    const total = (await Promise.all(loaded)).reduce((sum, size) => sum + size, 0);
    expect(total).toBeGreaterThan(1000);
    expect(total).toBeLessThanOrEqual(60 * 1024);
    await context.close();
  });

  it('every page at 1280×800 and 390×844: screenshots, and no serious or critical axe-core finding in light or dark', { timeout: FLOW_TIMEOUT }, async () => {
    const who = person();
    const pages: [string, string, (page: Page) => Promise<unknown>][] = [
      ['login', '/login', (page) => button(page, 'Sign in').waitFor()],
      ['register', '/register', (page) => button(page, 'Create account').waitFor()],
      ['password-forgot', '/password-forgot', (page) => button(page, 'Send reset link').waitFor()],
      ['password-reset', '/password-reset?token=example', (page) => button(page, 'Set new password').waitFor()],
      ['today', '/', (page) => button(page, 'Start').waitFor()],
      ['week', '/#week', (page) => page.locator('tfoot').waitFor()],
      ['entries', '/#entries', (page) => button(page, 'Add entry').waitFor()],
      ['absences', '/#absences', (page) => button(page, 'Add absence').waitFor()],
      ['settings', '/#settings', (page) => button(page, 'Save settings').waitFor()],
    ];
    const visitAll = async (page: Page, visit: (name: string) => Promise<void>) => {
      for (const [name, url, ready] of pages) {
        if (name === 'today') {
          await page.goto(`${baseUrl}/login`);
          await signIn(page, who.email);
        } else {
          await page.goto(`${baseUrl}${url}`);
        }
        await ready(page);
        await visit(name);
      }
      await page.evaluate('localStorage.clear()');
    };
    const setup = await recordedContext(browser);
    await register(await setup.context.newPage(), baseUrl, who);
    await setup.context.close();

    for (const viewport of [
      { width: 1280, height: 800 },
      { width: 390, height: 844 },
    ]) {
      const { context, requests, cspViolations } = await recordedContext(browser, { viewport });
      const page = await context.newPage();
      await visitAll(page, async (name) => {
        await page.screenshot({ path: path.join(SCREENSHOTS, `${name}-${viewport.width}x${viewport.height}.png`), fullPage: true });
        // Nothing wider than the screen: the layout works down to a phone.
        expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(viewport.width);
      });
      expectSameOrigin(requests, baseUrl);
      expect(cspViolations).toEqual([]);
      await context.close();
    }

    // axe-core is injected as a script, which the CSP forbids: only these contexts bypass it.
    for (const colorScheme of ['light', 'dark'] as const) {
      const { context } = await recordedContext(browser, { bypassCSP: true, colorScheme });
      const page = await context.newPage();
      const findings: string[] = [];
      await visitAll(page, async (name) => {
        for (const finding of await seriousAccessibilityViolations(page)) findings.push(`${name} (${colorScheme}): ${finding}`);
      });
      expect(findings).toEqual([]);
      await context.close();
    }

    if (process.env.UPDATE_DOCS_SCREENSHOTS === '1') {
      for (const colorScheme of ['light', 'dark'] as const) {
        const { context } = await recordedContext(browser, { viewport: { width: 480, height: 720 }, colorScheme });
        const page = await context.newPage();
        await page.goto(`${baseUrl}/login`);
        await signIn(page, who.email);
        await button(page, 'Start').waitFor();
        await page.screenshot({ path: path.join(PROJECT_ROOT, 'docs', 'screenshots', `today-${colorScheme}.png`) });
        await context.close();
      }
    }
  });
});

describe.runIf(browserAvailable)('the browser client against a small sign-in rate limit', () => {
  let browser: Browser;
  let server: RunningServer;

  beforeAll(async () => {
    server = await startServer(path.join(makeTempDir('timetrack-web-limit-'), 'timetrack.db'), { RATE_LIMIT_AUTH: '8' }, ['--dev']);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('a lockout and a rate limit appear as sentences, and the form keeps what was typed', { timeout: FLOW_TIMEOUT }, async () => {
    const who = person();
    const registered = await fetch(`${server.baseUrl}/api/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: who.email, password: PASSWORD, full_name: who.name }),
    });
    expect(registered.status).toBe(201);
    const { context, requests } = await recordedContext(browser);
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/login`);
    const alert = page.getByRole('alert').first();
    for (let attempt = 1; attempt <= 4; attempt++) {
      await signIn(page, who.email, `wrong password ${attempt}`);
      await expect.poll(() => alert.textContent()).toBe('The e-mail, username or password is not right.');
      await page.evaluate("document.querySelector('[role=alert]').replaceChildren()");
    }
    await signIn(page, who.email, 'wrong password 5');
    await expect.poll(() => alert.textContent()).toBe('Too many failed sign-ins: this account is locked. Try again in 15 minutes.');
    expect(await field(page, 'E-mail or username').inputValue()).toBe(who.email);

    // Eight sign-in requests a minute from this address: the ninth is turned away.
    for (let attempt = 6; attempt <= 8; attempt++) await signIn(page, who.email, PASSWORD);
    await expect.poll(() => alert.textContent()).toMatch(/^Too many attempts from this address\. Try again in (\d+ seconds|1 minute)\.$/);
    expect(await token(page)).toBeNull();
    expectSameOrigin(requests, server.baseUrl);
    await context.close();
  });
});
