// Administration in the browser (docs/web-client.md, "Administration"; docs/teams.md): an admin made with
// `timetrack user create --role admin` finds an account, changes its role with their own password,
// disables and enables it (each asked first, focus on "Keep it"), resets its two-factor sign-in, issues
// a reset link (shown in dev mode) and reads the audit trail, at 390 and 1280 px; a member sees no
// Administration and its address shows Today. Debian's Chromium against a real `serve --dev`.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD } from '../support/app.js';
import { browserAvailable, launchBrowser, recordedContext } from '../support/browser.js';
import { createAccountWithCli, tempDb } from '../support/cli-accounts.js';
import { callJson, startServer, type RunningServer } from '../support/server.js';
import { totpCode } from '../support/totp.js';

const SHOTS = '/tmp/admin-shots';
let browser: Browser;
let server: RunningServer;

async function signIn(page: Page, email: string): Promise<void> {
  await page.goto(`${server.baseUrl}/login`);
  await page.locator('input[name=email]').fill(email);
  await page.locator('input[name=password]').fill(PASSWORD);
  await page.locator('form button[type=submit]').click();
  await page.locator('button.big').waitFor();
}

/** An account with two-factor sign-in on, through the API. */
async function withTwoFactor(email: string): Promise<void> {
  const token = (await callJson(server, 'POST', '/api/auth/login', { email, password: PASSWORD })).body.token as string;
  const setup = await callJson(server, 'POST', '/api/auth/2fa/setup', { password: PASSWORD }, token);
  expect((await callJson(server, 'POST', '/api/auth/2fa/enable', { code: totpCode(setup.body.secret as string, Date.now()) }, token)).status).toBe(200);
}

const activeClass = (page: Page) => page.evaluate<string>('document.activeElement?.className ?? ""');

describe.runIf(browserAvailable)('Administration: accounts and the audit trail', () => {
  const db = tempDb();
  beforeAll(async () => {
    await createAccountWithCli(db, 'ann@example.com', ['--role', 'admin', '--name', 'Ann Admin']);
    await createAccountWithCli(db, 'mia@example.com', ['--name', 'Mia Member']);
    for (const width of [390, 1280]) await createAccountWithCli(db, `bob-${width}@example.com`, ['--name', `Bob ${width}`]);
    server = await startServer(db, {}, ['--dev']);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const width of [390, 1280]) {
    it(`an admin administers an account at ${width} px`, { timeout: 180_000 }, async () => {
      const email = `bob-${width}@example.com`;
      await withTwoFactor(email);
      const { context } = await recordedContext(browser, { viewport: { width, height: 900 } });
      const page = await context.newPage();
      await signIn(page, 'ann@example.com');
      await page.getByRole('link', { name: 'Administration' }).click();
      await page.locator('#view-title', { hasText: 'Accounts' }).waitFor();
      await page.locator('#account-search').fill(`bob-${width}`);
      await page.getByRole('button', { name: 'Search' }).click();
      const row = page.locator('li.admin-account', { hasText: email });
      await expect.poll(() => page.locator('li.admin-account').count()).toBe(1);
      await row.locator('.facts', { hasText: 'Two-factor on' }).waitFor();
      await page.screenshot({ path: `${SHOTS}/accounts-${width}.png`, fullPage: true });
      expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);

      // The role: granting admin asks for the admin's own password; a wrong one is refused, said in the row.
      await row.locator('select[name=role]').selectOption('admin');
      await row.locator('input[name=password]').fill('not my password');
      await row.locator('button.change-role').click();
      await row.locator('.notice.error', { hasText: 'The current password is not right.' }).waitFor();
      await row.locator('input[name=password]').fill(PASSWORD);
      await row.locator('button.change-role').click();
      await row
        .getByRole('status')
        .filter({ hasText: `Bob ${width} is now Admin.` })
        .waitFor();
      await row.locator('select[name=role]').selectOption('member');
      await row.locator('input[name=password]').fill(PASSWORD);
      await row.locator('button.change-role').click();
      await row
        .getByRole('status')
        .filter({ hasText: `Bob ${width} is now Member.` })
        .waitFor();

      // Disable: asked first, focus on "Keep it"; Escape keeps; then yes. Enable likewise.
      await row.getByRole('button', { name: 'Disable' }).click();
      await row.getByRole('button', { name: 'Keep it' }).waitFor();
      await expect.poll(() => activeClass(page)).toContain('keep');
      await page.screenshot({ path: `${SHOTS}/disable-question-${width}.png`, fullPage: true });
      await page.keyboard.press('Escape');
      await row.getByRole('button', { name: 'Disable' }).waitFor();
      await row.getByRole('button', { name: 'Disable' }).click();
      await row.getByRole('button', { name: 'Yes, disable' }).click();
      await row
        .getByRole('status')
        .filter({ hasText: `Bob ${width} is disabled.` })
        .waitFor();
      await row.locator('.facts', { hasText: 'Disabled' }).waitFor();
      expect((await callJson(server, 'POST', '/api/auth/login', { email, password: PASSWORD })).body).toMatchObject({ code: 'ACCOUNT_DISABLED' });
      await row.getByRole('button', { name: 'Enable' }).click();
      await row.getByRole('button', { name: 'Yes, enable' }).click();
      await row
        .getByRole('status')
        .filter({ hasText: `Bob ${width} is active again.` })
        .waitFor();

      // Two-factor: asked first, then off. A reset link: dev mode shows it.
      await row.getByRole('button', { name: 'Reset two-factor' }).click();
      await row.getByRole('button', { name: 'Yes, reset' }).click();
      await row
        .getByRole('status')
        .filter({ hasText: `Two-factor sign-in is off for Bob ${width}.` })
        .waitFor();
      await row.locator('.facts', { hasText: 'Two-factor off' }).waitFor();
      await row.getByRole('button', { name: 'Issue a reset link' }).click();
      await row.locator('code.token', { hasText: '/password-reset?token=' }).waitFor();
      await page.screenshot({ path: `${SHOTS}/accounts-after-${width}.png`, fullPage: true });

      // The audit trail of the account: each change, by the admin.
      await page.getByRole('link', { name: 'Audit trail' }).click();
      await page.locator('#view-title', { hasText: 'Audit trail' }).waitFor();
      await page.getByLabel('Account (e-mail, username or id)').fill(email);
      await page.getByRole('button', { name: 'Apply' }).click();
      const admins = ['reset_issued', 'two_factor_reset', 'account_enabled', 'account_disabled', 'role_changed', 'account_created'];
      await expect
        .poll(async () => (await page.locator('li.audit-event strong').allTextContents()).filter((action) => admins.includes(action)))
        .toEqual(['reset_issued', 'two_factor_reset', 'account_enabled', 'account_disabled', 'role_changed', 'role_changed', 'account_created']);
      const annId = ((await callJson(server, 'GET', '/api/users?q=ann', undefined, await apiToken())).body.users[0] as { id: number }).id;
      expect(await page.locator('li.audit-event', { hasText: 'account_disabled' }).textContent()).toContain(`by user:${annId}`);
      await page.screenshot({ path: `${SHOTS}/audit-${width}.png`, fullPage: true });
      expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(width);
      await context.close();
    });
  }

  it('a member sees no Administration; its address shows Today', { timeout: 60_000 }, async () => {
    const { context } = await recordedContext(browser);
    const page = await context.newPage();
    await signIn(page, 'mia@example.com');
    expect(await page.getByRole('link', { name: 'Administration' }).count()).toBe(0);
    await page.goto(`${server.baseUrl}/#accounts`);
    await page.locator('button.big').waitFor();
    await expect.poll(() => page.evaluate<string>('location.hash')).toBe('#today');
    expect(await page.locator('li.admin-account').count()).toBe(0);
    await context.close();
  });
});

async function apiToken(): Promise<string> {
  return (await callJson(server, 'POST', '/api/auth/login', { email: 'ann@example.com', password: PASSWORD })).body.token as string;
}
