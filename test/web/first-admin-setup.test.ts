// The first admin's setup page in Chromium (docs/web-client.md, "The first admin"; docs/teams.md, "The
// first admin"): on a fresh server with sign-up closed, the link `serve` printed opens a page that says
// what the link does; the account it makes is signed in as an admin and sees Administration. The same
// link in a second browser says in words that it no longer works, and sign-up stays closed there.
// axe finds nothing on the page in English and German. Needs `npm run build`.
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, PASSWORD } from '../support/app.js';
import { accessibilityViolations, browserAvailable, browserRequired, launchBrowser, recordedContext } from '../support/browser.js';
import { tempDb } from '../support/cli-accounts.js';
import { callJson, startServer, type RunningServer } from '../support/server.js';

const run = browserAvailable || browserRequired;
let browser: Browser;
let server: RunningServer | undefined;
const shots = makeTempDir('timetrack-setup-shots-');

beforeAll(async () => {
  if (run) browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

async function open(url: string, width: number, locale = 'en-GB'): Promise<Page> {
  const { context } = await recordedContext(browser, { viewport: { width, height: 844 }, locale, bypassCSP: true });
  const page = await context.newPage();
  await page.goto(url);
  return page;
}

describe.runIf(run)('the first admin from the setup link', () => {
  it('the printed link makes a signed-in admin; used again it says so; axe in en and de', { timeout: 180_000 }, async () => {
    server = await startServer(tempDb(), { REGISTRATION: 'closed', PUBLIC_URL: 'https://time.example.org' });
    while (!server.output().includes('timetrack started')) await new Promise((resolve) => setTimeout(resolve, 20));
    const token = /https:\/\/time\.example\.org\/register\?setup=([A-Za-z0-9_-]+)/.exec(server.output())?.[1];
    expect(token).toBeDefined();
    const link = `${server.baseUrl}/register?setup=${token}`;

    // German first, on a laptop: the page reads in German and axe finds nothing (the link is only checked).
    const german = await open(link, 1280, 'de-DE');
    await german.getByRole('heading', { name: 'timetrack einrichten' }).waitFor();
    expect(await accessibilityViolations(german)).toEqual([]);
    await german.context().close();

    const phone = await open(link, 390);
    await phone.getByRole('heading', { name: 'Set up timetrack' }).waitFor();
    // The token left the address (history, screenshots).
    expect(new URL(phone.url()).search).toBe('');
    await phone.getByText('This one-time link makes the account you create now the first administrator', { exact: false }).waitFor();
    expect(await accessibilityViolations(phone)).toEqual([]);
    await phone.screenshot({ path: path.join(shots, 'setup-390.png'), fullPage: true });
    await phone.getByLabel('Full name').fill('Ann Admin');
    await phone.getByLabel('E-mail').fill('ann@example.com');
    await phone.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await phone.getByRole('button', { name: 'Create the admin account' }).click();
    await phone.locator('#view-title').waitFor();
    await phone.getByRole('link', { name: 'Administration' }).first().waitFor({ state: 'attached' });
    const login = await callJson(server, 'POST', '/api/auth/login', { email: 'ann@example.com', password: PASSWORD });
    expect((await callJson(server, 'GET', '/api/auth/me', undefined, login.body.token as string)).body.role).toBe('admin');
    await phone.context().close();

    // Another browser with the same link: it says why, and offers no form (sign-up is closed).
    const laptop = await open(link, 1280);
    await expect
      .poll(() => laptop.getByRole('alert').textContent())
      .toBe('This setup link is not valid, has expired, or an admin exists already. Restart the server for a new link, or sign up without it.');
    expect(await laptop.locator('form').count()).toBe(0);
    expect(await accessibilityViolations(laptop)).toEqual([]);
    await laptop.screenshot({ path: path.join(shots, 'setup-used-1280.png'), fullPage: true });
    await laptop.context().close();
  });
});
