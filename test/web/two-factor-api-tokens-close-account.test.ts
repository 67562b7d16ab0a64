// Settings → Two-factor sign-in, API tokens and Close account in the browser client
// (docs/web-client.md). Debian's Chromium against a real `timetrack serve`, at 390 px (each state also
// at 320 px), mostly by keyboard; focus lands on the heading of each new step or result; axe finds nothing in any state of
// these screens. Needs `npm run build`.
import fs from 'node:fs';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../support/app.js';
import { accessibilityViolations, browserAvailable, launchBrowser, recordedContext } from '../support/browser.js';
import { callJson as api, startServer, type RunningServer } from '../support/server.js';
import { totpCode } from '../support/totp.js';

const PASSWORD = 'a quiet morning walk';

async function registered(server: RunningServer, email: string): Promise<string> {
  await api(server, 'POST', '/api/auth/register', { email, password: PASSWORD, full_name: email.split('@')[0] });
  return (await api(server, 'POST', '/api/auth/login', { email, password: PASSWORD })).body.token;
}

const fitsWidth = (page: Page) => page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth');
type Scope = Pick<Page, 'getByRole' | 'getByLabel'>;
const button = (scope: Scope, name: string) => scope.getByRole('button', { name, exact: true });
const field = (scope: Scope, label: string) => scope.getByLabel(label, { exact: true });
/** A section of Settings by its heading. */
const section = (page: Page, name: string) => page.getByRole('region', { name, exact: true });
/** The text of the focused element (focus moves after a frame or a timer). */
const focused = (page: Page) =>
  page.evaluate<string>("document.activeElement ? (document.activeElement.getAttribute('aria-label') || document.activeElement.textContent || '').trim() : ''");
/** Presses Enter on an element reached by keyboard (focused as Tab would). */
async function press(locator: ReturnType<Page['getByRole']>): Promise<void> {
  await locator.focus();
  await locator.press('Enter');
}
/** Types into the focused input, as a keyboard user would after Tab. */
async function tabAndType(page: Page, value: string): Promise<void> {
  await page.keyboard.press('Tab');
  await page.keyboard.type(value);
}

/** The state on screen fits 390 px and 320 px without sideways scrolling and has no axe-core finding at either. */
async function checkScreen(page: Page): Promise<void> {
  const size = page.viewportSize() ?? { width: 390, height: 800 };
  for (const width of [size.width, 320]) {
    await page.setViewportSize({ width, height: size.height });
    expect(await fitsWidth(page), `fits ${width} px`).toBe(true);
    expect(await accessibilityViolations(page)).toEqual([]);
  }
  await page.setViewportSize(size);
}

async function openSettings(context: BrowserContext, server: RunningServer, email: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${server.baseUrl}/login`);
  await field(page, 'E-mail or username').fill(email);
  await field(page, 'Password').fill(PASSWORD);
  await button(page, 'Sign in').click();
  await button(page, 'Start').waitFor();
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Settings', exact: true }).click();
  await page.getByRole('heading', { name: 'Two-factor sign-in', level: 3 }).waitFor();
  return page;
}

describe.runIf(browserAvailable)('Settings: two-factor sign-in, API tokens, closing the account', () => {
  let browser: Browser;
  let server: RunningServer;
  beforeAll(async () => {
    browser = await launchBrowser();
    server = await startServer(path.join(makeTempDir('timetrack-web-'), 'timetrack.db'));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('sets up two-factor sign-in (QR code, key as text, a code, the recovery codes once), makes new codes, turns it off', { timeout: 180_000 }, async () => {
    const other = await registered(server, 'gus@example.com');
    const { context, cspViolations } = await recordedContext(browser, { viewport: { width: 390, height: 800 }, bypassCSP: true });
    const page = await openSettings(context, server, 'gus@example.com');
    await page.getByText('Two-factor sign-in is off.').waitFor();
    await checkScreen(page);

    // Set up, by keyboard: the step's heading takes focus, Tab reaches the password, Enter sends.
    await press(button(page, 'Set up two-factor sign-in'));
    await expect.poll(() => focused(page)).toBe('Set up two-factor sign-in');
    await checkScreen(page);
    await tabAndType(page, 'not my password');
    await page.keyboard.press('Enter');
    await page.getByRole('alert').filter({ hasText: 'The current password is not right.' }).waitFor();
    await field(section(page, 'Two-factor sign-in'), 'Current password').fill(PASSWORD);
    await page.keyboard.press('Enter');
    const qr = page.getByRole('img', { name: 'QR code for your authenticator app' });
    await qr.waitFor();
    const secret = ((await page.locator('code.secret').textContent()) ?? '').replace(/\s/g, '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await checkScreen(page);
    await field(page, 'Code from your app').fill(totpCode(secret, Date.now()));
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toBe('Recovery codes');
    const codes = await page.locator('ul.codes code').allTextContents();
    expect(codes).toHaveLength(10);
    await checkScreen(page);
    // Turning it on ended the other session.
    expect((await api(server, 'GET', '/api/auth/me', undefined, other)).status).toBe(401);
    await press(button(page, 'I have saved the codes'));
    await expect.poll(() => focused(page)).toBe('Two-factor sign-in');
    await page.getByText('Two-factor sign-in is on. 10 recovery codes left.').waitFor();
    await page.getByRole('status').filter({ hasText: 'Your other devices are signed out: there, sign in again with a code.' }).waitFor();
    expect(await page.locator('ul.codes').count()).toBe(0);
    await checkScreen(page);

    // New recovery codes: password and a code of a later step; shown once, the old ones void.
    await press(button(page, 'Make new recovery codes'));
    await expect.poll(() => focused(page)).toBe('Make new recovery codes');
    await checkScreen(page);
    await tabAndType(page, PASSWORD);
    await tabAndType(page, totpCode(secret, Date.now() + 30_000));
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toBe('Recovery codes');
    const fresh = await page.locator('ul.codes code').allTextContents();
    expect(fresh).toHaveLength(10);
    expect(fresh.filter((code) => codes.includes(code))).toEqual([]);
    await checkScreen(page);
    await press(button(page, 'I have saved the codes'));
    await page.getByRole('status').filter({ hasText: 'New recovery codes are made; the old ones no longer work.' }).waitFor();

    // Turn it off: an old recovery code is refused in words, a new one works.
    await press(button(page, 'Turn off two-factor sign-in'));
    await expect.poll(() => focused(page)).toBe('Turn off two-factor sign-in');
    const twoFactor = section(page, 'Two-factor sign-in');
    await field(twoFactor, 'Current password').fill(PASSWORD);
    await field(twoFactor, 'Code from your app or a recovery code').fill(codes[0]!);
    await page.keyboard.press('Enter');
    await page.getByRole('alert').filter({ hasText: 'This code is not right' }).waitFor();
    await checkScreen(page);
    await field(twoFactor, 'Code from your app or a recovery code').fill(fresh[0]!);
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Your other devices are signed out.' }).waitFor();
    await expect.poll(() => focused(page)).toBe('Two-factor sign-in');
    await page.getByText('Two-factor sign-in is off. When it is on').waitFor();
    expect((await api(server, 'POST', '/api/auth/login', { email: 'gus@example.com', password: PASSWORD })).body.token).toMatch(/\./);
    expect(cspViolations).toEqual([]);
    await context.close();
  });

  it('creates an API token (shown once, with Copy), lists it without the secret, revokes it after a confirmation', { timeout: 180_000 }, async () => {
    await registered(server, 'hal@example.com');
    const { context, cspViolations } = await recordedContext(browser, { viewport: { width: 390, height: 800 }, bypassCSP: true });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
    const page = await openSettings(context, server, 'hal@example.com');
    await page.getByText('You have no API tokens.').waitFor();
    await checkScreen(page);

    // A name the API refuses is marked beside its field (the current password is asked too).
    await field(section(page, 'API tokens'), 'Current password').fill(PASSWORD);
    await field(page, 'Name').fill(' '.repeat(3));
    await button(page, 'Create token').click();
    await page.locator('.field-error').filter({ hasText: 'Enter a name of 1 to 100 characters.' }).waitFor();
    await checkScreen(page);
    await field(page, 'Name').fill('nightly export');
    await page.getByLabel('Valid for').selectOption({ label: '30 days' });
    await page.getByLabel('Valid for').focus();
    // Tab to the password, Enter submits the form.
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page)).toBe('Your new API token');
    await page.getByText('Copy it now: it will not be shown again.').waitFor();
    const token = (await page.locator('.new-token code.token').textContent()) ?? '';
    expect(token).toMatch(/^ttpat_[A-Za-z0-9_-]{43}$/);
    await checkScreen(page);
    await press(button(page, 'Copy token'));
    await page.getByRole('status').filter({ hasText: 'The token is copied.' }).waitFor();
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(token);
    const listed = page.locator('ul.api-tokens li', { hasText: 'nightly export' });
    expect(await listed.textContent()).toMatch(/never used · expires/);
    // In the browser's zone (Berlin): near midnight UTC the date there is already the next one.
    const expiry = new Intl.DateTimeFormat('en', { dateStyle: 'medium', timeZone: 'Europe/Berlin' }).format(new Date(Date.now() + 30 * 86_400_000));
    expect(await listed.textContent()).toContain(expiry);
    // The token works for a script.
    expect((await api(server, 'GET', '/api/auth/me', undefined, token)).body.user.email).toBe('hal@example.com');
    await press(button(page, 'Done'));
    await expect.poll(() => focused(page)).toBe('API tokens');
    expect(await page.content()).not.toContain(token);

    // After a reload: listed with its last use, never the token.
    await page.reload();
    await page.getByRole('heading', { name: 'API tokens', level: 3 }).waitFor();
    await expect.poll(async () => (await page.locator('ul.api-tokens li').textContent()) ?? '').toMatch(/nightly export.*last used/);
    expect(await page.content()).not.toContain(token.slice(6));

    // Revoke: a confirmation that Escape closes (focus back on the row's button), then Yes.
    await press(page.getByRole('button', { name: 'Revoke the token nightly export' }));
    await page.getByText('Revoke “nightly export”? Scripts that use it stop working at once.').waitFor();
    await expect.poll(() => focused(page)).toBe('Keep it');
    await checkScreen(page);
    await page.keyboard.press('Escape');
    await expect.poll(() => focused(page)).toBe('Revoke the token nightly export');
    expect((await api(server, 'GET', '/api/auth/me', undefined, token)).status).toBe(200);
    await press(page.getByRole('button', { name: 'Revoke the token nightly export' }));
    await press(button(page, 'Yes, revoke'));
    await page.getByRole('status').filter({ hasText: 'The token “nightly export” is revoked.' }).waitFor();
    await expect.poll(() => focused(page)).toBe('API tokens');
    await page.getByText('You have no API tokens.').waitFor();
    expect((await api(server, 'GET', '/api/auth/me', undefined, token)).status).toBe(401);
    await checkScreen(page);
    expect(cspViolations).toEqual([]);
    await context.close();
  });

  it('closes the account: offers the export first, asks password, a code and a tick; the tab signs out saying so', { timeout: 180_000 }, async () => {
    const session = await registered(server, 'ivy@example.com');
    await api(
      server,
      'POST',
      '/api/time-entries',
      { start_at: '2026-03-02T08:00:00.000Z', end_at: '2026-03-02T12:00:00.000Z', note: 'kept in the export' },
      session,
    );
    const { secret } = (await api(server, 'POST', '/api/auth/2fa/setup', { password: PASSWORD }, session)).body;
    const { recovery_codes } = (await api(server, 'POST', '/api/auth/2fa/enable', { code: totpCode(secret, Date.now()) }, session)).body;
    const { context, cspViolations } = await recordedContext(browser, { viewport: { width: 390, height: 800 }, bypassCSP: true, acceptDownloads: true });
    const page = await context.newPage();
    await page.goto(`${server.baseUrl}/login`);
    await field(page, 'E-mail or username').fill('ivy@example.com');
    await field(page, 'Password').fill(PASSWORD);
    await button(page, 'Sign in').click();
    await field(page, 'Code from your app').fill(recovery_codes[0]);
    await button(page, 'Verify').click();
    await button(page, 'Start').waitFor();
    await page.goto(`${server.baseUrl}/#settings`);
    await page.getByRole('heading', { name: 'Close account', level: 3 }).waitFor();

    await press(button(page, 'Close my account…'));
    await expect.poll(() => focused(page)).toBe('First: download your data');
    await checkScreen(page);
    // The export first: the account document, streamed by the server, saved as a file.
    const [download] = await Promise.all([page.waitForEvent('download'), press(button(page, 'Download all my data'))]);
    expect(download.suggestedFilename()).toBe('timetrack-account.json');
    const document = fs.readFileSync(await download.path(), 'utf8');
    expect(document).toContain('ivy@example.com');
    expect(document).toContain('kept in the export');
    await page.getByRole('status').filter({ hasText: 'timetrack-account.json is downloaded.' }).waitFor();

    // Not ticked: said beside the box, which takes focus. A wrong code: said in the alert.
    const closing = section(page, 'Close account');
    await field(closing, 'Current password').fill(PASSWORD);
    await field(closing, 'Code from your app or a recovery code').fill('000000');
    await button(page, 'Close account for good').click();
    await page.getByText('Tick the box to confirm that you want to close your account.').waitFor();
    await expect.poll(() => page.evaluate<string>('document.activeElement.id')).toBe('close-account-understood');
    await checkScreen(page);
    await page.keyboard.press('Space');
    await page.keyboard.press('Enter');
    await page.getByRole('alert').filter({ hasText: 'This code is not right' }).waitFor();
    expect((await api(server, 'POST', '/api/auth/login', { email: 'ivy@example.com', password: PASSWORD })).body.two_factor_required).toBe(true);
    await field(closing, 'Code from your app or a recovery code').fill(recovery_codes[1]);
    await button(page, 'Close account for good').click();
    await page.waitForURL(`${server.baseUrl}/login`);
    await page.getByRole('status').filter({ hasText: 'Your account is closed and all its data is deleted.' }).waitFor();
    await expect.poll(() => focused(page)).toBe('Sign in');
    expect(await page.evaluate("localStorage.getItem('timetrack.token')")).toBeNull();
    await checkScreen(page);
    expect((await api(server, 'POST', '/api/auth/login', { email: 'ivy@example.com', password: PASSWORD })).body.code).toBe('INVALID_CREDENTIALS');
    expect(cspViolations).toEqual([]);
    await context.close();
  });

  it('without two-factor sign-in closing asks no code; Cancel closes the form and focus returns', { timeout: 120_000 }, async () => {
    await registered(server, 'jo@example.com');
    const { context } = await recordedContext(browser, { viewport: { width: 390, height: 800 }, bypassCSP: true });
    const page = await openSettings(context, server, 'jo@example.com');
    await press(button(page, 'Close my account…'));
    const closing = section(page, 'Close account');
    await field(closing, 'Current password').waitFor();
    expect(await closing.getByLabel('Code from your app or a recovery code').count()).toBe(0);
    await press(button(closing, 'Cancel'));
    await expect.poll(() => focused(page)).toBe('Close account');
    expect(await field(closing, 'Current password').count()).toBe(0);
    await context.close();
  });
});
