// The browser client end to end: Debian's Chromium against a real `timetrack serve --dev` on a temporary
// database (docs/web-client.md). Needs `npm run build` (it writes dist/web); skipped without Chromium.
import fs from 'node:fs';
import path from 'node:path';
import { DateTime } from 'luxon';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../support/app.js';
import { browserAvailable, browserRequired, CHROMIUM, launchBrowser, recordedContext, SCREENSHOTS, accessibilityViolations } from '../support/browser.js';
import { PROJECT_ROOT, runCli } from '../support/cli.js';
import { planEntry } from '../support/entry-plan.js';
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

/** One Chromium for the whole file, launched once (each test opens a context of its own, as a new profile). */
let sharedBrowser: Promise<Browser> | undefined;
const fileBrowser = () => (sharedBrowser ??= launchBrowser());
afterAll(async () => {
  await (await sharedBrowser)?.close();
});

let counter = 0;
function person() {
  counter += 1;
  const id = `${process.pid}${counter}`;
  return { name: `Dana Example ${counter}`, email: `dana${id}@example.com`, username: `dana${id}` };
}

const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
const field = (scope: Pick<Page, 'getByLabel'>, label: string) => scope.getByLabel(label, { exact: true });
const token = (page: Page) => page.evaluate<string | null>("localStorage.getItem('timetrack.token')");

/** Registers from the page's browser; registering signs in (lands on Today). */
async function register(page: Page, baseUrl: string, who: ReturnType<typeof person>, password = PASSWORD) {
  await page.goto(`${baseUrl}/register`);
  await field(page, 'Full name').fill(who.name);
  await field(page, 'E-mail').fill(who.email);
  await field(page, 'Username (optional)').fill(who.username);
  await field(page, 'Password').fill(password);
  await button(page, 'Create account').click();
  await page.waitForURL(`${baseUrl}/`);
  await button(page, 'Start').waitFor();
}

/** Forgets the session in this browser context and opens /login. */
async function signedOut(page: Page, baseUrl: string) {
  await page.evaluate('localStorage.clear()');
  await page.goto(`${baseUrl}/login`);
  await button(page, 'Sign in').waitFor();
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

/** Calls the API from the page with its session's token; answers the JSON. */
function apiCall(page: Page, method: string, url: string, body?: unknown): Promise<any> {
  return page.evaluate<any>(
    `fetch(${JSON.stringify(url)}, { method: ${JSON.stringify(method)}, headers: { 'Content-Type': 'application/json', Authorization: 'Bearer ' + localStorage.getItem('timetrack.token') }, body: ${
      body === undefined ? 'undefined' : JSON.stringify(JSON.stringify(body))
    } }).then(async (response) => { if (!response.ok) throw new Error(response.status + ' ' + (await response.text())); return response.json(); })`,
  );
}

/** A day as the client writes it in English: "Wed 25 Nov". */
const shortDay = (day: DateTime) => day.setLocale('en-GB').toLocaleString({ weekday: 'short', day: 'numeric', month: 'short' });
/** A balance as the client writes it: "+1:15", "-0:30", "0:00". */
const signedHours = (minutes: number) =>
  `${minutes > 0 ? '+' : minutes < 0 ? '-' : ''}${Math.floor(Math.abs(minutes) / 60)}:${String(Math.abs(minutes) % 60).padStart(2, '0')}`;

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
    // Housekeeping every 2 seconds: the forgotten-timer test waits for it.
    server = await startServer(dbPath, { HOUSEKEEPING_INTERVAL: '2s' }, ['--dev']);
    baseUrl = server.baseUrl;
    browser = await fileBrowser();
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
  });
  afterAll(async () => {
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
    // The account's tracking start: the day it was made, in its zone (docs/time-model.md).
    const trackingStart = DateTime.now().setZone('Europe/Berlin').toISODate() as string;
    expect(await token(page)).toBeTruthy();
    await signedOut(page, baseUrl);
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
    // The running time is in the tab's title.
    await expect.poll(() => page.title()).toMatch(/^0:00:\d\d running · Today · timetrack$/);
    await button(page, 'Stop').click();
    await button(page, 'Start').waitFor();
    // Shorter than a minute: dropped, with an undo that brings it back.
    await page.getByText('The timer ran less than a minute, so no entry was kept.').first().waitFor();
    await button(page, 'Undo').click();
    await page.getByText('The short entry is back.').waitFor();

    // One entry of 1:30 by hand: a date, a start and a typed duration, in the account's zone (Europe/Berlin, the browser's).
    // Where it goes is built from the clock (test/support/entry-plan.ts, tested at every hour of a week):
    // within one day, clear of clock changes, before the timer's entry; last week on a Monday morning.
    const berlinNow = () => DateTime.now().setZone('Europe/Berlin');
    const now = berlinNow().startOf('minute');
    const { start, minutes, thisWeek } = planEntry(now);
    await openTab(page, 'Entries');
    const addForm = page.locator('form.entry-form').last();
    // New entries default to today (the date of now, or of a moment later should midnight just have passed) and a time.
    expect([now.toISODate(), berlinNow().toISODate()]).toContain(await addForm.getByLabel('Date', { exact: true }).inputValue());
    expect(await addForm.getByLabel('Start', { exact: true }).inputValue()).toMatch(/^\d\d:\d\d$/);
    await addForm.getByLabel('Date', { exact: true }).fill(start.toISODate() as string);
    await addForm.getByLabel('Start', { exact: true }).fill(start.toFormat('HH:mm'));
    await addForm.getByLabel('Duration', { exact: true }).fill(`${minutes / 60}h`);
    await addForm.getByLabel('Note', { exact: true }).fill('by hand');
    await button(page, 'Add entry').click();
    const span = `${start.toFormat('HH:mm')}–${start.plus({ minutes }).toFormat('HH:mm')}`;
    // Confirmed quietly in the live region.
    await expect.poll(() => page.locator('main [aria-live=polite][role=status]').textContent()).toBe(`Entry ${span} added.`);
    await page.getByText('by hand').waitFor();

    // An overlapping entry names the entry it hits, and the form keeps what was typed.
    await addForm.getByLabel('Date', { exact: true }).fill(start.toISODate() as string);
    await addForm.getByLabel('Start', { exact: true }).fill(start.plus({ minutes: 30 }).toFormat('HH:mm'));
    await addForm.getByLabel('End', { exact: true }).fill(start.plus({ minutes: 60 }).toFormat('HH:mm'));
    await button(page, 'Add entry').click();
    await addForm
      .getByText(
        `This time overlaps your entry ${DateTime.fromISO(start.toISODate() as string)
          .setLocale('en-GB')
          .toLocaleString({ weekday: 'short', day: 'numeric', month: 'short' })} ${span}.`,
        { exact: false },
      )
      .waitFor();
    expect(await addForm.getByLabel('Start', { exact: true }).inputValue()).toBe(start.plus({ minutes: 30 }).toFormat('HH:mm'));

    // Edit a note (the button names its entry); focus comes back to the changed row.
    // Focus the person moved is theirs: a click into Note the moment the form opens stays in Note (the
    // form's own focus on its first field comes a task later and must not take it back).
    const focusedAfterEdit = await page.evaluate<string | undefined>(`(async () => {
      document.querySelector('button[aria-label="Edit entry ${span}"]').click();
      const note = () => document.querySelector('ul.entries input[name=note]');
      for (let i = 0; i < 10 && !note(); i++) await Promise.resolve();
      note().focus();
      await new Promise((resolve) => setTimeout(resolve, 50));
      return document.activeElement?.name;
    })()`);
    expect(focusedAfterEdit).toBe('note');
    await page.locator('ul.entries').getByLabel('Note', { exact: true }).fill('by hand, edited');
    await button(page, 'Save entry').click();
    await page.getByText('by hand, edited').waitFor();
    await expect.poll(() => page.evaluate<string>('document.activeElement.id')).toMatch(/^entry-\d+$/);
    // Delete the short timer entry after a confirmation; Escape closes the confirmation.
    if (!thisWeek) await button(page, 'This week').click();
    const timerEntry = page.locator('ul.entries > li', { hasText: 'writing the report' });
    await timerEntry.getByRole('button', { name: /^Delete entry / }).click();
    await timerEntry.getByRole('button', { name: 'Keep it' }).waitFor();
    await page.keyboard.press('Escape');
    await timerEntry.getByRole('button', { name: /^Delete entry / }).click();
    await timerEntry.getByRole('button', { name: 'Yes, delete' }).click();
    await expect.poll(() => page.locator('ul.entries > li', { hasText: 'writing the report' }).count()).toBe(0);
    await expect.poll(() => page.evaluate<string>('document.activeElement.id')).toBe('view-title');

    // The week shows the minutes.
    await openTab(page, 'Week');
    if (!thisWeek) await button(page, 'Previous week').click();
    // The total counts complete days only (docs/time-model.md): an entry of today is in its day's row,
    // not yet in the total, and neither is one before the tracking start (just after midnight the
    // entry goes to yesterday, which is before the day the account was made).
    const complete = (start.toISODate() as string) < (now.toISODate() as string) && (start.toISODate() as string) >= trackingStart;
    await expect.poll(() => page.locator('tfoot td').nth(0).textContent()).toBe(complete ? '1:30' : '0:00');
    // The day's bar and the 12-week balance are pictures with their figures as text.
    await page.getByRole('img', { name: /: 1:30 of / }).waitFor();
    await expect.poll(() => page.locator('#trend-summary li').count()).toBe(12);

    // An absence, marked in the week; the same day twice is refused in words.
    await openTab(page, 'Absences');
    const monday = now.startOf('week').toISODate() as string;
    expect([now.toISODate(), berlinNow().toISODate()]).toContain(await field(page, 'Date').inputValue());
    await field(page, 'Date').fill(monday);
    await page.getByLabel('Type').selectOption('vacation');
    await button(page, 'Add absence').click();
    await page.getByRole('button', { name: `Remove Vacation on ${monday}` }).waitFor();
    await button(page, 'Add absence').click();
    await page.getByText('There is already an absence on this day.').waitFor();
    await openTab(page, 'Week');
    await button(page, 'This week').click();
    await page.locator('tbody tr').first().getByText('Vacation').waitFor();

    // The week's table renders from 3 API requests on a fresh load (me, settings, the week, together);
    // the 12-week chart asks for the balance and the 11 weeks before afterwards, the bell for the notices.
    await page.goto(`${baseUrl}/#week`);
    await page.reload();
    await page.locator('tfoot').waitFor();
    await page.waitForLoadState('networkidle');
    const before = requests.length;
    await page.reload();
    await page.locator('tfoot').waitFor();
    await page.waitForLoadState('networkidle');
    const weekRequests = requests.slice(before).filter((url) => url.startsWith(`${baseUrl}/api/`));
    expect(
      weekRequests
        .slice(0, 3)
        .map((url) => new URL(url).pathname)
        .sort(),
    ).toEqual(['/api/auth/me', '/api/settings', '/api/stats/week']);
    expect(weekRequests.length).toBeLessThanOrEqual(3 + 12 + 1);

    // Settings: the account is in the browser's zone since registration; targets take decimal hours and say they apply to every week.
    await openTab(page, 'Settings');
    expect(await field(page, 'Time zone').inputValue()).toBe('Europe/Berlin');
    await page.getByText('New targets apply from the date you choose', { exact: false }).waitFor();
    await field(page, 'Monday').fill('7.5');
    await page.getByLabel('Holiday region').selectOption('DE-BY');
    await button(page, 'Save settings').click();
    await page.getByText('Settings saved.').first().waitFor();
    // A wrong value is marked on its field, explained beside it and focused, with the sentence: a busy
    // renderer (a loaded CI machine) runs animation frames late, here 300 ms, and the focus must not wait
    // for one (it once did, and this walk failed now and then). Enter on the focused button submits: a
    // click's own checks wait for frames.
    await field(page, 'Monday').fill('seven');
    await page.evaluate(`window.timelyFrame = window.requestAnimationFrame;
      window.requestAnimationFrame = (callback) => setTimeout(() => window.timelyFrame(callback), 300);`);
    await button(page, 'Save settings').focus();
    await page.keyboard.press('Enter');
    await page.getByText('The target for Monday must be hours such as 8, 7.5 or 7:30.').waitFor();
    expect(await field(page, 'Monday').evaluate((input) => input === input.ownerDocument.activeElement)).toBe(true);
    await page.evaluate('window.requestAnimationFrame = window.timelyFrame');
    expect(await field(page, 'Monday').getAttribute('aria-invalid')).toBe('true');
    await page.reload();
    await button(page, 'Save settings').waitFor();
    expect(await field(page, 'Monday').inputValue()).toBe('7.5');
    expect(await page.getByLabel('Holiday region').inputValue()).toBe('DE-BY');
    expect(await field(page, 'Time zone').inputValue()).toBe('Europe/Berlin');

    // Change the password (a wrong current one is said in words); "Also revoke my API tokens" is ticked.
    const passwordForm = page.locator('form', { has: button(page, 'Change password') });
    expect(await passwordForm.getByLabel('Also revoke my API tokens').isChecked()).toBe(true);
    await field(passwordForm, 'Current password').fill('not it at all');
    await field(page, 'New password').fill(NEW_PASSWORD);
    await field(page, 'New password again').fill(NEW_PASSWORD);
    await button(page, 'Change password').click();
    await page.getByText('The current password is not right.').waitFor();
    await field(passwordForm, 'Current password').fill(PASSWORD);
    await button(page, 'Change password').click();
    await page.getByText('Password changed.', { exact: false }).waitFor();

    // The CSV export arrives as a file, fetched with the Authorization header.
    const download = page.waitForEvent('download');
    await button(page, 'Download CSV').click();
    const file = await (await download).path();
    expect(fs.readFileSync(file, 'utf8')).toContain('by hand, edited');

    await page.locator('header').getByRole('button', { name: 'Sign out' }).click();
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

  it(
    'password forgot (dev mode) → the reset page from the link → the new password works; a used token is refused in words',
    { timeout: FLOW_TIMEOUT },
    async () => {
      const { context, requests, cspViolations } = await recordedContext(browser);
      const page = await context.newPage();
      const who = person();
      await register(page, baseUrl, who);
      await signedOut(page, baseUrl);

      await page.goto(`${baseUrl}/password-forgot`);
      await field(page, 'E-mail').fill(who.email);
      await button(page, 'Send reset link').click();
      await page.getByText('If an account has this address', { exact: false }).waitFor();
      const resetToken = (await page.locator('.token code').textContent()) ?? '';
      expect(resetToken.length).toBeGreaterThan(20);
      await page.getByRole('link', { name: 'Open the reset page' }).click();

      // The token leaves the address bar as soon as the page has read it, and survives a reload.
      await page.waitForURL(`${baseUrl}/password-reset`);
      await page.reload();
      await button(page, 'Set new password').waitFor();
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
    },
  );

  it('`timetrack token revoke --user` while signed in: the next action lands on /login with the token gone', { timeout: FLOW_TIMEOUT }, async () => {
    const { context, requests } = await recordedContext(browser);
    const page = await context.newPage();
    const who = person();
    await register(page, baseUrl, who);
    await signedOut(page, baseUrl);
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

  it(
    "two tabs, one account: a sign-in, a switch or a sign-out in one tab is followed at once by the other, which never sends the other account's token",
    { timeout: FLOW_TIMEOUT },
    async () => {
      const ben = person();
      const carl = person();
      const { context } = await recordedContext(browser);
      const tabA = await context.newPage();
      await register(tabA, baseUrl, carl);
      await signedOut(tabA, baseUrl);
      await register(tabA, baseUrl, ben);
      const tabB = await context.newPage();
      await tabB.goto(`${baseUrl}/#entries`);
      await tabB.locator('header .user').getByText(ben.name).waitFor();
      await button(tabB, 'Add entry').waitFor();

      // Tab B sends with the token of the account it shows, and only that one.
      const sent: { url: string; token: string | undefined }[] = [];
      tabB.on('request', (request) => request.url().includes('/api/') && sent.push({ url: request.url(), token: request.headers().authorization }));
      const benToken = await token(tabA);

      // In tab A: sign out, then in as Carl.
      await tabA.locator('header').getByRole('button', { name: 'Sign out' }).click();
      await tabA.waitForURL(`${baseUrl}/login`);
      await tabB.waitForURL(`${baseUrl}/login`);
      await tabB.getByText('You signed out in another tab.').waitFor();
      await signIn(tabA, carl.email);
      await button(tabA, 'Start').waitFor();
      const carlToken = await token(tabA);
      // Tab B follows: Carl's name, Carl's data, never Ben's screen with Carl's token.
      await tabB.locator('header .user').getByText(carl.name).waitFor();
      expect(await tabB.locator('header .user').textContent()).toBe(carl.name);
      for (const request of sent) expect(request.token === undefined || request.token === `Bearer ${carlToken}`, request.url).toBe(true);
      expect(sent.some((request) => request.token === `Bearer ${benToken}`)).toBe(false);

      await context.close();
    },
  );

  it(
    'a registration from a browser in America/Los_Angeles: the account starts in that zone, Today shows the date and the zone; another zone gets one quiet line offering to switch',
    { timeout: FLOW_TIMEOUT },
    async () => {
      const who = person();
      const { context } = await recordedContext(browser, { timezoneId: 'America/Los_Angeles', locale: 'en-US' });
      const page = await context.newPage();
      await register(page, baseUrl, who);
      const la = DateTime.now().setZone('America/Los_Angeles');
      await page.getByText(`times in America/Los_Angeles`, { exact: false }).waitFor();
      expect(await page.locator('.subtitle').textContent()).toContain(la.setLocale('en-US').toLocaleString(DateTime.DATE_HUGE));
      expect(await page.getByText('This device is in').count()).toBe(0);
      // End of work carries its day when it is not today, and says "reached" once past.
      const end = (await page.locator('.figures div', { hasText: 'End of work' }).first().locator('dd.value').textContent()) ?? '';
      expect(end).toMatch(/^(reached at )?((tomorrow|yesterday|[A-Z][a-z]{2}) )?\d{1,2}:\d\d\s?[AP]M$/);
      await openTab(page, 'Settings');
      expect(await field(page, 'Time zone').inputValue()).toBe('America/Los_Angeles');
      expect(await field(page, 'Tracking start').inputValue()).toBe(la.toISODate());
      await context.close();

      // The same account on a device in Berlin: a quiet line offers the device's zone.
      const berlin = await recordedContext(browser);
      const other = await berlin.context.newPage();
      await other.goto(`${baseUrl}/login`);
      await signIn(other, who.email);
      await other.getByText('This device is in Europe/Berlin; your account counts days in America/Los_Angeles.').waitFor();
      // It asks from when (test/web/zone-history-statistics.test.ts); from today, the default, here.
      await button(other, 'Use Europe/Berlin').click();
      await button(other, 'Use Europe/Berlin').click();
      await other.getByText('Your account counts days in Europe/Berlin from today on; every past day keeps its figures.').waitFor();
      // From Berlin's today, which starts at the next midnight in Los Angeles when Berlin's date is a day ahead.
      const zoneNow =
        DateTime.now().setZone('Europe/Berlin').toISODate() === DateTime.now().setZone('America/Los_Angeles').toISODate()
          ? 'Europe/Berlin'
          : 'America/Los_Angeles';
      await other.getByText(`times in ${zoneNow}`, { exact: false }).waitFor();
      await berlin.context.close();
    },
  );

  it(
    'this month: today "today, so far", a later day "not yet", never a deficit; Today, Week and Month show one balance through yesterday',
    { timeout: FLOW_TIMEOUT },
    async () => {
      const who = person();
      const { context } = await recordedContext(browser);
      const page = await context.newPage();
      await register(page, baseUrl, who);
      const today = DateTime.now().setZone('Europe/Berlin').startOf('day');
      const yesterday = today.minus({ days: 1 });
      // Tracked from ten days ago, with an offset and a morning's work three days ago.
      await apiCall(page, 'PATCH', '/api/settings', { tracking_start: today.minus({ days: 10 }).toISODate(), overtime_offset_minutes: 75 });
      const worked = today.minus({ days: 3 }).set({ hour: 9 });
      await apiCall(page, 'POST', '/api/time-entries', { start_at: worked.toUTC().toISO(), end_at: worked.plus({ hours: 4 }).toUTC().toISO() });
      const overtime = await apiCall(page, 'GET', '/api/stats/overtime');
      const sheet = await apiCall(page, 'GET', `/api/stats/month?month=${today.toFormat('yyyy-MM')}`);
      expect(sheet.balance_after_minutes).toBe(overtime.balance_minutes);
      const through = `Balance through ${shortDay(yesterday)}`;
      const expected = `${through}: ${signedHours(overtime.balance_minutes)}`;

      await page.goto(`${baseUrl}/#month`);
      await page.reload();
      await page.locator('.running-balance').waitFor();
      expect(await page.locator('.running-balance').textContent()).toBe(expected);
      const balanceOf = (row: ReturnType<Page['locator']>) => row.locator('td').last().textContent();
      expect(await balanceOf(page.locator('tbody tr.today'))).toBe('today, so far');
      // A later day of this month (there is none on its last day).
      if (today.plus({ days: 1 }).month === today.month) {
        const later = page.locator('tbody tr.future');
        for (let index = 0; index < (await later.count()); index++) expect(await balanceOf(later.nth(index))).toBe('not yet');
      }
      // The total sums the complete days and says through which day.
      if (today.day > 1) {
        expect(await page.locator('tfoot .total-balance').textContent()).toBe(signedHours(sheet.totals.balance_minutes));
        await page
          .locator('tfoot')
          .getByText(`through ${shortDay(yesterday)}`, { exact: true })
          .waitFor();
        // The sum leaves out the offset carried in: it must not carry the running balance's words beside another figure.
        expect(await page.locator('tfoot').textContent()).not.toContain(through);
      }
      await page.getByText('A day counts in the balance once it is over; today and later days: not yet.').waitFor();

      await page.goto(`${baseUrl}/#week`);
      await page.locator('.running-balance').waitFor();
      expect(await page.locator('.running-balance').textContent()).toBe(expected);
      expect(await balanceOf(page.locator('tbody tr.today'))).toBe('today, so far');
      for (const cell of await page.locator('tbody tr.future td:last-child').allTextContents()) expect(cell).toBe('not yet');

      await openTab(page, 'Today');
      expect(await page.locator('.figures div', { hasText: through }).locator('dd.value').textContent()).toBe(signedHours(overtime.balance_minutes));
      await context.close();
    },
  );

  it("Entries: an entry across midnight counts on both days, a break deduction shows, and each day's total is Week's", { timeout: FLOW_TIMEOUT }, async () => {
    const who = person();
    const { context } = await recordedContext(browser);
    const page = await context.newPage();
    await register(page, baseUrl, who);
    const monday = DateTime.now().setZone('Europe/Berlin').startOf('week').minus({ weeks: 1 });
    await apiCall(page, 'PATCH', '/api/settings', {
      tracking_start: monday.toISODate(),
      break_rules: [{ worked_over_minutes: 360, break_minutes: 30 }],
    });
    const add = (start: DateTime, minutes: number) =>
      apiCall(page, 'POST', '/api/time-entries', { start_at: start.toUTC().toISO(), end_at: start.plus({ minutes }).toUTC().toISO() });
    // Last week: Tuesday 22:00 to Wednesday 02:30, and Thursday 08:00–15:30 without a break (30 minutes deducted).
    await add(monday.plus({ days: 1 }).set({ hour: 22 }), 270);
    await add(monday.plus({ days: 3 }).set({ hour: 8 }), 450);
    const days = [1, 2, 3].map((offset) => monday.plus({ days: offset }));

    await page.reload();
    await openTab(page, 'Week');
    await button(page, 'Previous week').click();
    await page.locator('tbody tr th').first().getByText(shortDay(monday)).waitFor();
    await page.waitForLoadState('networkidle');
    const weekRows = page.locator('tbody tr');
    const weekWorked = await Promise.all(
      days.map((day) =>
        weekRows
          .nth(day.weekday - 1)
          .locator('td')
          .first()
          .textContent(),
      ),
    );
    expect(weekWorked).toEqual(['2:00', '2:30', '7:00']);

    await openTab(page, 'Entries');
    await page.locator(`#day-${days[0]!.toISODate()}`).waitFor();
    const totals = await Promise.all(days.map((day) => page.locator(`#day-${day.toISODate()} .day-total`).textContent()));
    expect(totals).toEqual([`${weekWorked[0]} worked`, `${weekWorked[1]} worked`, `${weekWorked[2]} worked · 0:30 break deducted`]);
    // The night's entry shows on Wednesday too, as its continuation.
    await page
      .locator('section.day', { has: page.locator(`#day-${days[1]!.toISODate()}`) })
      .getByText('continued from the day before')
      .waitFor();
    await context.close();
  });

  it(
    'a double click on Start sends one request and shows no error; focus moves to the heading of a new view, to Stop after Start',
    { timeout: FLOW_TIMEOUT },
    async () => {
      const who = person();
      const { context } = await recordedContext(browser);
      const page = await context.newPage();
      await register(page, baseUrl, who);
      const starts: string[] = [];
      page.on('request', (request) => request.url().endsWith('/api/time-entries/start') && starts.push(request.method()));
      await button(page, 'Start').dblclick();
      await button(page, 'Stop').waitFor();
      await page.waitForLoadState('networkidle');
      expect(starts).toEqual(['POST']);
      expect(await page.locator('[role=alert]:not(:empty)').count()).toBe(0);
      await expect.poll(() => page.evaluate<string>('document.activeElement.textContent')).toBe('Stop');
      const stops: string[] = [];
      page.on('request', (request) => request.url().endsWith('/api/time-entries/stop') && stops.push(request.method()));
      await button(page, 'Stop').dblclick();
      await button(page, 'Start').waitFor();
      await page.waitForLoadState('networkidle');
      expect(stops).toEqual(['POST']);
      for (const name of ['Week', 'Entries', 'Absences', 'Settings', 'Today']) {
        await openTab(page, name);
        await expect.poll(() => page.evaluate<string>('document.activeElement.id')).toBe('view-title');
        expect(await page.title()).toBe(`${name} · timetrack`);
      }
      // A skip link first in the tab order of a fresh page; it moves focus to the view's heading.
      await page.reload();
      await button(page, 'Start').waitFor();
      await page.keyboard.press('Tab');
      expect(await page.evaluate<string>('document.activeElement.textContent')).toBe('Skip to content');
      await page.keyboard.press('Enter');
      expect(await page.evaluate<string>('document.activeElement.id')).toBe('view-title');
      await context.close();
    },
  );

  it(
    'first paint to Start without a chain of waits: with a slow API, every request of Today leaves before the first is answered',
    { timeout: FLOW_TIMEOUT },
    async () => {
      const who = person();
      const { context } = await recordedContext(browser);
      const setup = await context.newPage();
      await register(setup, baseUrl, who);
      await button(setup, 'Start').waitFor();
      await setup.close();
      // A slow API (1.5 s an answer); the page's own files come at once.
      const DELAY_MS = 1500;
      await context.route('**/api/**', async (route) => {
        await new Promise((resolve) => setTimeout(resolve, DELAY_MS));
        await route.continue();
      });
      const page = await context.newPage();
      const asked: string[] = [];
      const askedBeforeFirstAnswer: string[] = [];
      let answered = false;
      page.on('request', (request) => {
        const { pathname } = new URL(request.url());
        if (!pathname.startsWith('/api/')) return;
        asked.push(pathname);
        if (!answered) askedBeforeFirstAnswer.push(pathname);
      });
      page.on('response', (response) => {
        if (new URL(response.url()).pathname.startsWith('/api/')) answered = true;
      });
      await page.goto(`${baseUrl}/`);
      await page.locator('button.big.start:not([disabled])').waitFor();
      // The session, the settings and Today's three figures, all on their way at once, and nothing after.
      const today = ['/api/auth/me', '/api/settings', '/api/stats/overtime', '/api/stats/today', '/api/time-entries', '/api/time-entries/current'];
      // One wait, not a chain of them: every request was sent before the first answer came back (an
      // order of events, not a time, so that a loaded machine does not decide).
      expect(askedBeforeFirstAnswer.sort()).toEqual(today);
      // The bell's count comes after the settings: never on the way of the first paint.
      await expect.poll(() => asked.includes('/api/notices')).toBe(true);
      expect(asked.sort()).toEqual([...today, '/api/notices'].sort());
      await context.close();
    },
  );

  it('a second click on Start after the first was answered, while the view still reloads, sends nothing', { timeout: FLOW_TIMEOUT }, async () => {
    const who = person();
    const { context } = await recordedContext(browser);
    const page = await context.newPage();
    await register(page, baseUrl, who);
    await button(page, 'Start').waitFor();
    // The reload after Start is held back: the Start button stays on screen after the start was answered.
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/api/time-entries/current', async (route) => {
      await held;
      await route.continue();
    });
    const starts: string[] = [];
    page.on('request', (request) => request.url().endsWith('/api/time-entries/start') && starts.push(request.method()));
    const answered = page.waitForResponse((response) => response.url().endsWith('/api/time-entries/start'));
    await button(page, 'Start').click();
    expect((await answered).status()).toBe(201);
    await button(page, 'Start').click({ force: true });
    await page.waitForTimeout(300);
    release();
    await button(page, 'Stop').waitFor();
    expect(starts).toEqual(['POST']);
    expect(await page.locator('[role=alert]:not(:empty)').count()).toBe(0);
    await context.close();
  });

  it('phones: no horizontal scroll at 320 and 390 px (a long note wraps), the navigation in one row at 360 px', { timeout: FLOW_TIMEOUT }, async () => {
    const who = person();
    const setup = await recordedContext(browser);
    const first = await setup.context.newPage();
    await register(first, baseUrl, who);
    await openTab(first, 'Entries');
    await first.getByLabel('Duration', { exact: true }).fill('0:30');
    await first.getByLabel('Note', { exact: true }).fill('a-very-long-note-without-any-spaces-'.repeat(6));
    await first.getByLabel('Start', { exact: true }).fill('00:05');
    await button(first, 'Add entry').click();
    await first.getByText('a-very-long-note', { exact: false }).first().waitFor();
    await setup.context.close();
    for (const width of [320, 360, 390]) {
      const { context } = await recordedContext(browser, { viewport: { width, height: 740 } });
      const page = await context.newPage();
      await page.goto(`${baseUrl}/login`);
      await signIn(page, who.email);
      await button(page, 'Start').waitFor();
      const tops = await page.locator('nav a').evaluateAll((links) => links.map((link) => (link as unknown as { offsetTop: number }).offsetTop));
      expect(new Set(tops).size, `nav rows at ${width}`).toBe(1);
      for (const name of ['Today', 'Week', 'Entries', 'Absences', 'Settings']) {
        await openTab(page, name);
        await page.waitForLoadState('networkidle');
        expect(await page.evaluate<number>('document.documentElement.scrollWidth'), `${name} at ${width}`).toBeLessThanOrEqual(width);
      }
      await context.close();
    }
  });

  it('German: every sentence, date and number in German, and a switch in Settings', { timeout: FLOW_TIMEOUT }, async () => {
    const who = person();
    const { context } = await recordedContext(browser, { locale: 'de-DE' });
    const page = await context.newPage();
    await page.goto(`${baseUrl}/register`);
    await page.getByRole('heading', { name: 'Konto anlegen' }).waitFor();
    await field(page, 'Vollständiger Name').fill(who.name);
    await field(page, 'E-Mail').fill(who.email);
    await field(page, 'Passwort').fill(PASSWORD);
    await page.getByRole('button', { name: 'Konto anlegen' }).click();
    await page.getByRole('button', { name: 'Start', exact: true }).waitFor();
    expect(await page.evaluate<string>('document.documentElement.lang')).toBe('de');
    await page.getByRole('link', { name: 'Woche', exact: true }).click();
    await page.getByRole('button', { name: 'Diese Woche' }).waitFor();
    const monday = DateTime.now()
      .setZone('Europe/Berlin')
      .startOf('week')
      .setLocale('de-DE')
      .toLocaleString({ weekday: 'short', day: 'numeric', month: 'short' });
    await page.locator('.week-label').getByText(monday, { exact: false }).waitFor();
    // Today's balance is not counted yet: "today, so far" in German.
    await page.locator('tbody tr.today').getByText('heute, bisher').waitFor();
    await page.screenshot({ path: path.join(SCREENSHOTS, 'week-de-1280x800.png'), fullPage: true });
    await page.getByRole('link', { name: 'Konto', exact: true }).click();
    await page.getByLabel('Sprache').selectOption('en');
    await page.getByRole('heading', { name: 'Settings', level: 2 }).waitFor();
    expect(await page.evaluate<string>('document.documentElement.lang')).toBe('en');
    await context.close();
  });

  it(
    'the working-time account: break rules with the German preset, vacation days, a timer limit, targets from a date, bookings, absence ranges and half days with the vacation figures, the Month view with its files, the auto-stop notice and its fix',
    { timeout: FLOW_TIMEOUT },
    async () => {
      const { context, requests, cspViolations } = await recordedContext(browser);
      const page = await context.newPage();
      const who = person();
      await register(page, baseUrl, who);

      // Settings: the German preset, 30 vacation days, 12 hours for a forgotten timer, Monday 6 h from next
      // Monday, and no missing-day reminder (its tick reached with Tab from the timer's field, unticked with Space).
      await openTab(page, 'Settings');
      const reminders = page.getByRole('checkbox', { name: 'Remind me of a working day with nothing recorded', exact: true });
      expect(await reminders.isChecked()).toBe(true);
      await button(page, 'German rules (6 h → 30 min, 9 h → 45 min)').click();
      expect(await field(page, 'Rule 1: more than (hours)').inputValue()).toBe('6');
      expect(await field(page, 'Rule 2: break (minutes)').inputValue()).toBe('45');
      await field(page, 'Vacation days per year').fill('30');
      await field(page, 'Stop a forgotten timer after (hours)').fill('12');
      await field(page, 'Stop a forgotten timer after (hours)').press('Tab');
      await page.keyboard.press('Space');
      expect(await reminders.isChecked()).toBe(false);
      const nextMonday = DateTime.now().setZone('Europe/Berlin').startOf('week').plus({ weeks: 1 });
      await field(page, 'Monday').fill('6');
      await field(page, 'Targets valid from').fill(nextMonday.toISODate() as string);
      await button(page, 'Save settings').click();
      await page.getByText('Settings saved.').first().waitFor();
      await expect.poll(() => page.getByText(/^From .* a week$/).count()).toBe(2);
      // The earliest schedule counts for the days before its first too: it says so, not the day it was stored.
      await page.getByText('From the tracking start: 40:00 a week', { exact: true }).waitFor();
      await page.reload();
      await button(page, 'Save settings').waitFor();
      expect(await field(page, 'Rule 1: break (minutes)').inputValue()).toBe('30');
      expect(await field(page, 'Rule 2: more than (hours)').inputValue()).toBe('9');
      expect(await field(page, 'Vacation days per year').inputValue()).toBe('30');
      expect(await field(page, 'Stop a forgotten timer after (hours)').inputValue()).toBe('12');
      expect(await reminders.isChecked()).toBe(false);
      expect(await apiCall(page, 'GET', '/api/settings')).toMatchObject({ reminders_enabled: false });
      // Today's targets stay as they were until next Monday.
      expect(await field(page, 'Monday').inputValue()).toBe('8');
      await page.getByRole('button', { name: `Remove the schedule from ${nextMonday.toISODate()}` }).click();
      await button(page, 'Yes, remove').click();
      await expect.poll(() => page.getByText(/^From .* a week$/).count()).toBe(1);

      // A booking in Settings: a payout typed as hours is taken off the balance.
      await field(page, 'Hours (h:mm, negative to take off)').fill('1:30');
      await button(page, 'Add booking').click();
      await page.getByText(/Payout -1:30/).waitFor();
      await page.getByRole('button', { name: /^Remove the booking of / }).click();
      await page.getByText('No bookings yet.').waitFor();

      // Absences: a range of two weeks in one request, removed in one action after a question; a half day; the vacation figures.
      await openTab(page, 'Absences');
      await page.getByText('Allowance').waitFor();
      const first = nextMonday.plus({ weeks: 1 });
      await page.getByLabel('Several days').check();
      await field(page, 'First day').fill(first.toISODate() as string);
      await field(page, 'Last day').fill(first.plus({ days: 11 }).toISODate() as string);
      await button(page, 'Add absence').click();
      // Beyond what remains of an allowance pro rata from the tracking start: asked once, then booked.
      const live = page.locator('main [aria-live=polite][role=status]');
      await expect.poll(async () => (await page.locator('#vacation-warning').count()) > 0 || /days added/.test((await live.textContent()) ?? '')).toBe(true);
      if ((await page.locator('#vacation-warning').count()) > 0) await button(page, 'Book anyway').click();
      await expect.poll(() => live.textContent()).toMatch(/^10 days added\./);
      const rangeButton = page.getByRole('button', { name: `Remove Vacation from ${first.toISODate()} to ${first.plus({ days: 11 }).toISODate()}` });
      await rangeButton.waitFor();
      await expect.poll(async () => (await page.locator('.vacation').textContent()) ?? '').toMatch(/Planned10 days/);
      await rangeButton.click();
      await button(page, 'Yes, remove').click();
      await expect.poll(() => page.locator('main [aria-live=polite][role=status]').textContent()).toBe('10 days removed.');
      await page.getByLabel('One day').check();
      await field(page, 'Date').fill(first.toISODate() as string);
      await page.getByLabel('Half day').check();
      await button(page, 'Add absence').click();
      await page.getByText('Vacation (half day)').waitFor();
      await expect.poll(async () => (await page.locator('.vacation').textContent()) ?? '').toMatch(/Planned0.5 days/);

      // Week names the half day as Month and the timesheet do (its target is half the day's).
      await openTab(page, 'Week');
      for (let weeks = 0; weeks < 2; weeks++) {
        const label = await page.locator('.week-label').textContent();
        await page.getByRole('button', { name: 'Next week', exact: true }).click();
        await expect.poll(() => page.locator('.week-label').textContent()).not.toBe(label);
      }
      await page.locator('table.week tbody .off-name').getByText('Vacation (half day)', { exact: true }).waitFor();

      // The Month view, reached from Week, with its files.
      await page.getByRole('link', { name: 'Month view' }).click();
      await page.getByRole('heading', { name: 'Month', level: 2 }).waitFor();
      await page.locator('table.month tfoot').waitFor();
      const pdfDownload = page.waitForEvent('download');
      await button(page, 'Download PDF').click();
      const pdfFile = await (await pdfDownload).path();
      expect(fs.readFileSync(pdfFile).subarray(0, 5).toString()).toBe('%PDF-');
      const csvDownload = page.waitForEvent('download');
      await button(page, 'Download CSV').click();
      expect(fs.readFileSync(await (await csvDownload).path(), 'utf8')).toMatch(/^date,weekday,first_start,last_end/);
      // Next month, all of it still to come: targets, but no deficit, as in Week.
      await page.getByRole('button', { name: 'Next month' }).click();
      await expect.poll(() => page.locator('table.month tbody tr.future').count()).toBeGreaterThanOrEqual(28);
      expect(await page.locator('table.month tbody td').filter({ hasText: /^-/ }).count()).toBe(0);
      expect(await page.locator('table.month tbody td').filter({ hasText: 'not yet' }).count()).toBe(await page.locator('table.month tbody tr').count());
      // No complete day: the total has no balance yet either.
      expect(await page.locator('table.month tfoot td').last().textContent()).toBe('not yet');
      await page.getByText('A day counts in the balance once it is over; today and later days: not yet.').waitFor();

      // A timer forgotten since 14 hours ago: the server stops it at 12 hours; Today says so and fixes the end in one click.
      const started = DateTime.now().minus({ hours: 14 }).startOf('minute');
      const created = await page.evaluate<number>(
        `fetch('/api/time-entries', { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: 'Bearer ' + localStorage.getItem('timetrack.token') }, body: JSON.stringify({ start_at: '${started.toUTC().toISO()}' }) }).then((response) => response.status)`,
      );
      expect(created).toBe(201);
      await openTab(page, 'Today');
      await expect
        .poll(
          async () => {
            await page.reload();
            await page.locator('button.big').waitFor();
            return page.getByText('was stopped at', { exact: false }).count();
          },
          { timeout: 30_000 },
        )
        .toBe(1);
      const realEnd = started.plus({ hours: 8 }).setZone('Europe/Berlin');
      await field(page, 'Real end').fill(realEnd.toFormat('HH:mm'));
      await button(page, 'Save end').click();
      await page.getByText('The end is saved.').first().waitFor();
      await expect.poll(() => page.getByText('was stopped at', { exact: false }).count()).toBe(0);

      expectSameOrigin(requests, baseUrl);
      expect(cspViolations).toEqual([]);
      await context.close();
    },
  );

  it(
    'every page and state at 1280, 390 and 320 px: screenshots, no horizontal scroll, and no axe-core violation of any impact in light or dark',
    { timeout: FLOW_TIMEOUT },
    async () => {
      const who = person();
      // Ready when a part of the page is there, whatever the language.
      const pages: [string, string, (page: Page) => Promise<unknown>][] = [
        ['login', '/login', (page) => page.locator('form button[type=submit]').waitFor()],
        ['register', '/register', (page) => page.locator('form button[type=submit]').waitFor()],
        ['password-forgot', '/password-forgot', (page) => page.locator('form button[type=submit]').waitFor()],
        ['password-reset', '/password-reset?token=example', (page) => page.locator('form button[type=submit]').waitFor()],
        ['today', '/', (page) => page.locator('button.big').waitFor()],
        ['week', '/#week', (page) => page.locator('#trend-summary').waitFor({ state: 'attached' })],
        ['entries', '/#entries', (page) => page.locator('form.entry-form').waitFor()],
        ['absences', '/#absences', (page) => page.locator('#absence-type').waitFor()],
        ['month', '/#month', (page) => page.locator('table.month tfoot').waitFor()],
        ['settings', '/#settings', (page) => page.locator('#holiday-region option').nth(2).waitFor({ state: 'attached' })],
      ];
      const visitAll = async (page: Page, visit: (name: string) => Promise<void>) => {
        for (const [name, url, ready] of pages) {
          if (name === 'today') {
            await page.goto(`${baseUrl}/login`);
            await page.locator('input[name=email]').fill(who.email);
            await page.locator('input[name=password]').fill(PASSWORD);
            await page.locator('form button[type=submit]').click();
          } else {
            await page.goto(`${baseUrl}${url}`);
          }
          await ready(page);
          await visit(name);
        }
        // States: a running timer, the undo note of a dropped quick Start/Stop, an entry being edited.
        // By class and pattern, not by English text: one of the runs is in German.
        await page.goto(`${baseUrl}/`);
        await page.locator('button.big.start').click();
        await page.locator('button.big.stop').waitFor();
        await visit('today-running');
        await page.locator('button.big.stop').click();
        await page.getByRole('button', { name: /^(Undo|Rückgängig)$/ }).waitFor();
        await visit('today-dropped');
        await page.goto(`${baseUrl}/#entries`);
        await page
          .getByRole('button', { name: /^(Edit entry .*|Eintrag .* bearbeiten)$/ })
          .first()
          .click();
        await page.locator('form.entry-form').first().waitFor();
        await visit('entries-editing');
        await page.keyboard.press('Escape');
        await page.goto(`${baseUrl}/#settings`);
        await page.locator('#holiday-region option').nth(2).waitFor({ state: 'attached' });
        // A state with an error beside its field.
        await page.locator('input[name="weekly_target_minutes.mon"]').fill('seven');
        await page.locator('form button.primary').first().click();
        await page.locator('.field-error').first().waitFor();
        await visit('settings-error');
        await page.evaluate('localStorage.clear()');
      };
      const setup = await recordedContext(browser);
      const first = await setup.context.newPage();
      await register(first, baseUrl, who);
      // Something to show in every view: a finished entry today, or yesterday in the first 1.5 hours of a
      // day in Berlin (the browser's zone), when 00:10–01:25 today has not ended yet.
      await first.goto(`${baseUrl}/#entries`);
      const berlin = DateTime.now().setZone('Europe/Berlin');
      if (berlin.hour * 60 + berlin.minute < 90) await first.getByLabel('Date', { exact: true }).fill(berlin.minus({ days: 1 }).toISODate() as string);
      await first.getByLabel('Start', { exact: true }).fill('00:10');
      await first.getByLabel('Duration', { exact: true }).fill('1:15');
      await first.getByLabel('Note', { exact: true }).fill('early start');
      await button(first, 'Add entry').click();
      await first.getByText('early start').waitFor();
      await setup.context.close();

      for (const viewport of [
        { width: 1280, height: 800 },
        { width: 390, height: 844 },
        { width: 320, height: 640 },
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
      for (const [colorScheme, width, locale] of [
        ['light', 1280, 'en-GB'],
        ['dark', 1280, 'en-GB'],
        ['light', 390, 'de-DE'],
        ['dark', 390, 'en-US'],
      ] as const) {
        const { context } = await recordedContext(browser, { bypassCSP: true, colorScheme, locale, viewport: { width, height: 844 } });
        const page = await context.newPage();
        const findings: string[] = [];
        await visitAll(page, async (name) => {
          for (const finding of await accessibilityViolations(page)) findings.push(`${name} (${colorScheme}, ${width}, ${locale}): ${finding}`);
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
    },
  );
});

describe.runIf(browserAvailable)('the browser client on a server that cannot send mail (production mode, no SMTP)', () => {
  let browser: Browser;
  let server: RunningServer;

  beforeAll(async () => {
    server = await startServer(path.join(makeTempDir('timetrack-web-nomail-'), 'timetrack.db'));
    browser = await fileBrowser();
  });
  afterAll(async () => {
    await server?.stop();
  });

  it('the forgot page says to ask the administrator instead of promising a link', { timeout: FLOW_TIMEOUT }, async () => {
    const { context } = await recordedContext(browser);
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/password-forgot`);
    await field(page, 'E-mail').fill('someone@example.com');
    await button(page, 'Send reset link').click();
    await page.getByText('This server cannot send e-mail. Ask your administrator to reset your password for you.').waitFor();
    expect(await page.getByText('a reset link is on its way', { exact: false }).count()).toBe(0);
    await context.close();
  });
});

describe.runIf(browserAvailable)('the browser client against a small sign-in rate limit', () => {
  let browser: Browser;
  let server: RunningServer;

  beforeAll(async () => {
    server = await startServer(path.join(makeTempDir('timetrack-web-limit-'), 'timetrack.db'), { RATE_LIMIT_AUTH: '8' }, ['--dev']);
    browser = await fileBrowser();
  });
  afterAll(async () => {
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
    await expect.poll(() => alert.textContent()).toMatch(/^Too many requests in a short time\. Try again in (\d+ seconds|1 minute)\.$/);
    expect(await token(page)).toBeNull();
    expectSameOrigin(requests, server.baseUrl);
    await context.close();
  });
});
