// A server that takes no registration (REGISTRATION=closed) does not offer sign-up in the client: the
// sign-in page has no "Create an account" link, and /register (a link kept from elsewhere) says why
// instead of showing a form the server would refuse. Debian's Chromium against a real `timetrack
// serve`. Needs `npm run build`.
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../support/app.js';
import { browserAvailable, launchBrowser, recordedContext } from '../support/browser.js';
import { startServer, type RunningServer } from '../support/server.js';

describe.runIf(browserAvailable)('sign-up where registration is closed', () => {
  let browser: Browser;
  let closed: RunningServer;
  let open: RunningServer;
  beforeAll(async () => {
    browser = await launchBrowser();
    [closed, open] = await Promise.all([
      startServer(path.join(makeTempDir('timetrack-web-closed-'), 'timetrack.db'), { REGISTRATION: 'closed' }),
      startServer(path.join(makeTempDir('timetrack-web-open-'), 'timetrack.db')),
    ]);
  });
  afterAll(async () => {
    await browser?.close();
    await closed?.stop();
    await open?.stop();
  });

  it('offers no sign-up link and no form, and says to ask the administrator; an open server still offers both', async () => {
    const { context } = await recordedContext(browser);
    const page = await context.newPage();
    await page.goto(`${closed.baseUrl}/login`);
    await page.getByRole('link', { name: 'Forgot your password?' }).waitFor();
    // The answer of GET /api/auth/registration is in once the link is gone.
    await expect.poll(() => page.getByRole('link', { name: 'Create an account' }).count()).toBe(0);
    await page.goto(`${closed.baseUrl}/register`);
    await expect.poll(() => page.getByRole('status').textContent()).toBe('Registration is closed on this server. Ask the administrator for an account.');
    expect(await page.locator('form').count()).toBe(0);

    await page.goto(`${open.baseUrl}/login`);
    await page.getByRole('link', { name: 'Create an account' }).waitFor();
    await page.goto(`${open.baseUrl}/register`);
    await page.locator('form').waitFor();
    await context.close();
  });
});
