// Two-factor sign-in and the session list in the browser client (docs/web-client.md): the code step of sign-in (one field
// with autocomplete="one-time-code", a recovery-code link) and, with REQUIRE_2FA, the set-up at sign-in
// (a QR code drawn in the page, the recovery codes with a download). Debian's Chromium against real
// `timetrack serve` processes; axe finds nothing, and the pages fit 320 px. Needs `npm run build`.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../support/app.js';
import { browserAvailable, launchBrowser, recordedContext } from '../support/browser.js';
import { startServer, type RunningServer } from '../support/server.js';
import { totpCode } from '../support/totp.js';

const PASSWORD = 'a quiet morning walk';
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');

async function api(server: RunningServer, method: string, url: string, body?: unknown, token?: string): Promise<any> {
  const response = await fetch(`${server.baseUrl}${url}`, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return response.json();
}

/** Every axe finding, whatever its impact. */
async function axeViolations(page: Page): Promise<string[]> {
  await page.addScriptTag({ path: AXE });
  return page.evaluate<string[]>(
    'axe.run(document).then((r) => r.violations.map((v) => `${v.id}: ${v.help} at ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`))',
  );
}

const fitsWidth = (page: Page) => page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth');
const button = (page: Page, name: string) => page.getByRole('button', { name, exact: true });
const field = (page: Page, label: string) => page.getByLabel(label, { exact: true });

describe.runIf(browserAvailable)('two-factor sign-in in the browser', () => {
  let browser: Browser;
  const servers: RunningServer[] = [];
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    for (const server of servers) await server.stop();
  });

  it(
    'signs in with the code from the app, or with a recovery code; the step is one field with autocomplete="one-time-code"',
    { timeout: 120_000 },
    async () => {
      const server = await startServer(path.join(makeTempDir('timetrack-web-'), 'timetrack.db'));
      servers.push(server);
      await api(server, 'POST', '/api/auth/register', { email: 'dana@example.com', password: PASSWORD, full_name: 'Dana' });
      const session = (await api(server, 'POST', '/api/auth/login', { email: 'dana@example.com', password: PASSWORD })).token;
      const { secret } = await api(server, 'POST', '/api/auth/2fa/setup', { password: PASSWORD }, session);
      const { recovery_codes } = await api(server, 'POST', '/api/auth/2fa/enable', { code: totpCode(secret, Date.now()) }, session);

      const { context, requests, cspViolations } = await recordedContext(browser, { viewport: { width: 320, height: 640 }, bypassCSP: false });
      const page = await context.newPage();
      await page.goto(`${server.baseUrl}/login`);
      await field(page, 'E-mail or username').fill('dana@example.com');
      await field(page, 'Password').fill(PASSWORD);
      await button(page, 'Sign in').click();
      await page.getByRole('heading', { name: 'Two-factor sign-in', level: 1 }).waitFor();
      const code = field(page, 'Code from your app');
      expect(await code.getAttribute('autocomplete')).toBe('one-time-code');
      expect(await code.getAttribute('inputmode')).toBe('numeric');
      expect(await page.locator('input').count()).toBe(1);
      expect(await fitsWidth(page)).toBe(true);
      expect(await page.evaluate("localStorage.getItem('timetrack.token')")).toBeNull();
      // A wrong code: said in words, beside nothing else.
      await code.fill('000000');
      await button(page, 'Verify').click();
      await page.getByRole('alert').filter({ hasText: 'This code is not right' }).waitFor();
      // The code of the next step (the one used to enable is spent).
      await code.fill(totpCode(secret, Date.now() + 30_000));
      await button(page, 'Verify').click();
      await page.waitForURL(`${server.baseUrl}/`);
      await button(page, 'Start').waitFor();

      // Signed out, the recovery-code link.
      await page.evaluate('localStorage.clear()');
      await page.goto(`${server.baseUrl}/login`);
      await field(page, 'E-mail or username').fill('dana@example.com');
      await field(page, 'Password').fill(PASSWORD);
      await button(page, 'Sign in').click();
      await button(page, 'Use a recovery code instead').click();
      const recovery = field(page, 'Recovery code');
      expect(await recovery.getAttribute('autocomplete')).toBe('off');
      await recovery.fill(recovery_codes[0]);
      await button(page, 'Verify').click();
      await page.waitForURL(`${server.baseUrl}/`);
      expect(requests.every((url) => url.startsWith(`${server.baseUrl}/`))).toBe(true);
      expect(cspViolations).toEqual([]);
      await context.close();
    },
  );

  it(
    'REQUIRE_2FA: sign-in leads to the set-up with a QR code drawn in the page and the recovery codes to download; axe finds nothing',
    { timeout: 120_000 },
    async () => {
      const server = await startServer(path.join(makeTempDir('timetrack-web-'), 'timetrack.db'), { REQUIRE_2FA: 'true' });
      servers.push(server);
      await api(server, 'POST', '/api/auth/register', { email: 'eli@example.com', password: PASSWORD, full_name: 'Eli' });
      const { context, requests, cspViolations } = await recordedContext(browser, {
        viewport: { width: 320, height: 640 },
        acceptDownloads: true,
        bypassCSP: true,
      });
      const page = await context.newPage();
      await page.goto(`${server.baseUrl}/login`);
      await field(page, 'E-mail or username').fill('eli@example.com');
      await field(page, 'Password').fill(PASSWORD);
      await button(page, 'Sign in').click();
      await page.getByRole('heading', { name: 'Set up two-factor sign-in', level: 1 }).waitFor();
      const qr = page.getByRole('img', { name: 'QR code for your authenticator app' });
      await qr.waitFor();
      expect(await qr.evaluate((node) => node.tagName.toLowerCase())).toBe('svg');
      const secret = ((await page.locator('code.secret').textContent()) ?? '').replace(/\s/g, '');
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      expect(await fitsWidth(page)).toBe(true);
      expect(await axeViolations(page)).toEqual([]);
      await field(page, 'Code from your app').fill(totpCode(secret, Date.now()));
      await button(page, 'Turn on').click();
      await page.getByRole('heading', { name: 'Recovery codes' }).waitFor();
      const codes = await page.locator('ul.codes code').allTextContents();
      expect(codes).toHaveLength(10);
      const [download] = await Promise.all([page.waitForEvent('download'), button(page, 'Download as a text file').click()]);
      expect(download.suggestedFilename()).toBe('timetrack-recovery-codes.txt');
      const file = fs.readFileSync(await download.path(), 'utf8');
      for (const code of codes) expect(file).toContain(code);
      expect(await axeViolations(page)).toEqual([]);
      expect(await fitsWidth(page)).toBe(true);
      await button(page, 'I have saved the codes').click();
      await page.waitForURL(`${server.baseUrl}/`);
      await button(page, 'Start').waitFor();
      // Settings does not offer to turn off what the server requires; it says why.
      await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Settings', exact: true }).click();
      await page.getByText('This server requires two-factor sign-in of every account, so it cannot be turned off here.').waitFor();
      await button(page, 'Make new recovery codes').waitFor();
      expect(await page.getByRole('button', { name: 'Turn off two-factor sign-in' }).count()).toBe(0);
      // The QR code was drawn here: the secret never went anywhere but this server.
      expect(requests.filter((url) => !url.startsWith(`${server.baseUrl}/`) && !url.startsWith('blob:'))).toEqual([]);
      expect(cspViolations).toEqual([]);
      await context.close();
    },
  );

  it(
    'Settings lists the sessions; "Sign out" ends another device at once, "Sign out all other devices" the rest; axe finds nothing at 320 px',
    { timeout: 120_000 },
    async () => {
      const server = await startServer(path.join(makeTempDir('timetrack-web-'), 'timetrack.db'));
      servers.push(server);
      await api(server, 'POST', '/api/auth/register', { email: 'fay@example.com', password: PASSWORD, full_name: 'Fay' });
      const phone = (await api(server, 'POST', '/api/auth/login', { email: 'fay@example.com', password: PASSWORD })).token;
      const script = (await api(server, 'POST', '/api/auth/login', { email: 'fay@example.com', password: PASSWORD })).token;
      const apiToken = (await api(server, 'POST', '/api/auth/api-tokens', { name: 'nightly', expires_in_days: 7, password: PASSWORD }, phone)).token;
      const { context, cspViolations } = await recordedContext(browser, { viewport: { width: 320, height: 640 }, bypassCSP: true });
      const page = await context.newPage();
      await page.goto(`${server.baseUrl}/login`);
      await field(page, 'E-mail or username').fill('fay@example.com');
      await field(page, 'Password').fill(PASSWORD);
      await button(page, 'Sign in').click();
      await button(page, 'Start').waitFor();
      await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Settings', exact: true }).click();
      await page.getByRole('heading', { name: 'Where you are signed in' }).waitFor();
      await button(page, 'Sign out this device').waitFor();
      expect(await page.locator('ul.sessions li').count()).toBe(3);
      expect(await page.locator('ul.sessions li', { hasText: 'this device' }).textContent()).toMatch(/Chrome on Linux/);
      expect(await fitsWidth(page)).toBe(true);
      expect(await axeViolations(page)).toEqual([]);
      // From here the list loads slowly: a sentence that came before the list it speaks of would fail below.
      await page.route('**/api/auth/sessions', async (route) => {
        await new Promise((resolve) => setTimeout(resolve, 700));
        await route.continue();
      });
      const others = page.getByRole('button', { name: /^Sign out curl|^Sign out Unknown device|^Sign out node/ });
      await others.first().click();
      await page.getByRole('status').filter({ hasText: 'is signed out' }).waitFor();
      expect(await page.locator('ul.sessions li').count()).toBe(2);
      const statuses = await Promise.all(
        [phone, script].map(async (token) => (await fetch(`${server.baseUrl}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } })).status),
      );
      expect(statuses.sort()).toEqual([200, 401]);
      // "Also revoke my API tokens" is ticked unless unticked: the API token ends too.
      // (The password change has one too: this one follows the session list.)
      const alsoTokens = page.locator('ul.sessions ~ div.check').getByLabel('Also revoke my API tokens', { exact: true });
      expect(await alsoTokens.isChecked()).toBe(true);
      await button(page, 'Sign out all other devices').click();
      await page.getByRole('status').filter({ hasText: '1 other device is signed out. 1 API token is revoked.' }).waitFor();
      for (const token of [phone, script, apiToken])
        expect((await fetch(`${server.baseUrl}/api/auth/me`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(401);
      expect(await page.locator('ul.sessions li').count()).toBe(1);
      await button(page, 'Sign out this device').click();
      await page.waitForURL(`${server.baseUrl}/login`);
      expect(cspViolations).toEqual([]);
      await context.close();
    },
  );
});
