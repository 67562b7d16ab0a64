// Accessibility of every page of the browser client (docs/web-client.md): axe-core finds no violation of
// any impact on any page or state, at 390 and 1280 px, in light and dark (the emulated color scheme),
// in English and German (the browser's language). Debian's Chromium against a real `timetrack serve
// --dev`; needs `npm run build`. One test per language; each fails with the list of every finding, named
// by state, width and scheme.
import path from 'node:path';
import { DateTime } from 'luxon';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir } from '../support/app.js';
import { accessibilityViolations, browserAvailable, launchBrowser, recordedContext } from '../support/browser.js';
import { cli } from '../support/cli-accounts.js';
import { queryRows } from '../support/database.js';
import { startServer, type RunningServer } from '../support/server.js';
import { totpCode } from '../support/totp.js';

const TIMEOUT = 300_000;
const PASSWORD = 'a quiet morning walk';
const WIDTHS = [390, 1280] as const;
const SCHEMES = ['light', 'dark'] as const;

let browser: Browser;
let server: RunningServer;
let dbPath: string;

/** A button by its name in either language. */
const button = (page: Page, en: string, de: string) => page.getByRole('button', { name: new RegExp(`^(${escape(en)}|${escape(de)})$`) });
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** Every axe-core finding of the page as it is now, at each width and scheme. */
async function check(page: Page, state: string, findings: string[]): Promise<void> {
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 844 });
    for (const colorScheme of SCHEMES) {
      await page.emulateMedia({ colorScheme });
      for (const finding of await accessibilityViolations(page)) findings.push(`${state} (${width} px, ${colorScheme}): ${finding}`);
    }
  }
}

/** An account with two-factor sign-in on, made through the API: its sign-in asks for the code. */
async function twoFactorAccount(email: string): Promise<void> {
  const send = async (url: string, body: unknown, token?: string): Promise<any> => {
    const response = await fetch(`${server.baseUrl}${url}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(body),
    });
    expect(response.status, url).toBeLessThan(300);
    return response.json();
  };
  await send('/api/auth/register', { email, password: PASSWORD, full_name: 'Tom Two', timezone: 'Europe/Berlin' });
  const { token } = await send('/api/auth/login', { email, password: PASSWORD });
  const { secret } = await send('/api/auth/2fa/setup', { password: PASSWORD }, token);
  await send('/api/auth/2fa/enable', { code: totpCode(secret, Date.now()) }, token);
}

/** The signed-out pages and their states, and the unknown route (which lands on sign-in). */
async function signedOutPages(page: Page, email: string, team: string, visit: (state: string) => Promise<void>) {
  const base = server.baseUrl;
  await page.goto(`${base}/no-such-page`);
  await page.waitForURL(`${base}/login`);
  await page.locator('form button[type=submit]').waitFor();
  await visit('unknown-route-signed-out');
  await page.locator('input[name=email]').fill(email);
  await page.locator('input[name=password]').fill('not the password');
  await page.locator('form button[type=submit]').click();
  await page.getByRole('alert').waitFor();
  await visit('sign-in-refused');
  const withCode = email.replace('@', '-2fa@');
  await twoFactorAccount(withCode);
  await page.locator('input[name=email]').fill(withCode);
  await page.locator('input[name=password]').fill(PASSWORD);
  await page.locator('form button[type=submit]').click();
  await page.locator('input[autocomplete=one-time-code]').waitFor();
  await visit('sign-in-two-factor-code');
  await page.goto(`${base}/password-forgot`);
  await page.locator('input[name=email]').fill(email);
  await page.locator('form button[type=submit]').click();
  await page.locator('main a[href*="password-reset"]').waitFor();
  await visit('password-forgot-sent');
  for (const [state, url] of [
    ['register', '/register'],
    ['password-forgot', '/password-forgot'],
    ['password-reset', '/password-reset?token=example'],
    ['sign-in', '/login'],
  ] as const) {
    await page.goto(`${base}${url}`);
    await page.locator('form button[type=submit]').waitFor();
    await visit(state);
  }
  // An invitation's page: a link that works (made at the shell), and one that does not.
  const invited = await cli(dbPath, ['--json', 'user', 'invite', email.replace('@', '-invited@'), '--team', team]);
  const link = new URL((JSON.parse(invited.stdout as string) as { invite_url: string }).invite_url);
  await page.goto(`${base}/accept-invite${link.search}`);
  await page.locator('form button[type=submit]').waitFor();
  await visit('accept-invite');
  await page.goto(`${base}/accept-invite?token=example`);
  await page.getByRole('alert').filter({ hasText: /./ }).waitFor();
  await visit('accept-invite-refused');
  await page.goto(`${base}/login`);
  await page.locator('form button[type=submit]').waitFor();
}

/** The sections of `/`, with an entry's editor open and a field's error. */
async function sections(page: Page, visit: (state: string) => Promise<void>) {
  const base = server.baseUrl;
  await page.locator('button.big').waitFor();
  await visit('today');
  await page.locator('button.big.start').click();
  await page.locator('button.big.stop').waitFor();
  await visit('today-running');
  await page.locator('button.big.stop').click();
  await button(page, 'Undo', 'Rückgängig').waitFor();
  await visit('today-dropped');
  for (const [state, hash, ready] of [
    ['week', '#week', '#trend-summary'],
    ['month', '#month', 'table.month tfoot'],
    ['absences', '#absences', '#absence-type'],
  ] as const) {
    await page.goto(`${base}/${hash}`);
    await page.locator(ready).waitFor({ state: 'attached' });
    await visit(state);
  }
  await page.goto(`${base}/#entries`);
  await page
    .getByRole('button', { name: /^(Edit entry .*|Eintrag .* bearbeiten)$/ })
    .first()
    .click();
  await page.locator('li form.entry-form').waitFor();
  await visit('entries-editing');
  await page.keyboard.press('Escape');
  await page
    .getByRole('button', { name: /^(Delete entry .*|Eintrag .* löschen)$/ })
    .first()
    .click();
  await button(page, 'Keep it', 'Behalten').waitFor();
  await visit('entries-delete-question');
  await button(page, 'Keep it', 'Behalten').click();
  // A bare "45" as the duration asks whether minutes or hours were meant.
  const add = page.locator('form.entry-form').last();
  await add.locator('input[name=start_at]').fill('13:00');
  await add.locator('input[name=duration]').fill('45');
  await add.locator('button[type=submit]').click();
  await button(page, '45 minutes', '45 Minuten').waitFor();
  await visit('entries-plausibility-question');
  await page.goto(`${base}/#no-such-section`);
  await page.locator('button.big').waitFor();
  await visit('unknown-section');
}

/** Settings, with its account parts open: sessions, two-factor set-up, a new API token, closing the account. */
async function settings(page: Page, visit: (state: string) => Promise<void>) {
  await page.goto(`${server.baseUrl}/#settings`);
  await page.locator('#holiday-region option').nth(2).waitFor({ state: 'attached' });
  await page.locator('#two-factor-title').waitFor();
  // This device and the other one (signed in by a script), each with its sign-out button.
  await expect.poll(() => page.locator('ul.sessions li button').count()).toBe(2);
  await visit('settings-sessions-tokens');
  await page.locator('input[name="weekly_target_minutes.mon"]').fill('seven');
  await page.locator('form button.primary').first().click();
  await page.locator('.field-error').first().waitFor();
  await visit('settings-field-error');
  await button(page, 'Set up two-factor sign-in', 'Zwei-Faktor-Anmeldung einrichten').click();
  const twoFactor = page.locator('section[aria-labelledby=two-factor-title]');
  await twoFactor.locator('input[name=password]').fill(PASSWORD);
  await twoFactor.locator('button[type=submit]').click();
  await page.locator('code.secret').waitFor();
  await visit('two-factor-set-up');
  await page.locator('.token-form input[name=name]').fill('nightly export');
  await page.locator('.token-form input[name=password]').fill(PASSWORD);
  await page.locator('.token-form button[type=submit]').click();
  await page.locator('section.new-token').waitFor();
  await visit('api-token-new');
  await button(page, 'Close my account…', 'Mein Konto schließen …').click();
  await page.locator('#close-account-understood').waitFor();
  await visit('close-account');
}

/** Team (a lead's): the members' table, a member's Week and Month opened below it, the team's calendar with absences of each kind and portion, and Approvals. */
async function team(page: Page, visit: (state: string) => Promise<void>) {
  await page.goto(`${server.baseUrl}/#team`);
  await page.locator('table.team tbody tr').first().waitFor();
  await visit('team');
  await page
    .locator('table.team tbody tr')
    .first()
    .getByRole('button', { name: /^(Week|Woche)$/ })
    .click();
  await page.locator('.person-figures tfoot').waitFor();
  await visit('team-member-week');
  await page
    .locator('table.team tbody tr')
    .first()
    .getByRole('button', { name: /^(Month|Monat)$/ })
    .click();
  await page.locator('#person-month-state').waitFor();
  await page.locator('.person-figures tfoot').waitFor();
  await visit('team-member-month');
  const month = DateTime.now().setZone('Europe/Berlin').toFormat('yyyy-MM');
  for (const [day, type, portion] of [
    ['03', 'vacation', 'full'],
    ['04', 'sick', 'half'],
    ['05', 'holiday', 'full'],
  ]) {
    const status = await page.evaluate<number>(
      `fetch('/api/time-entries/absences', { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: 'Bearer ' + localStorage.getItem('timetrack.token') }, body: ${JSON.stringify(
        JSON.stringify({ date: `${month}-${day}`, type, portion }),
      )} }).then((response) => response.status)`,
    );
    expect(status).toBe(201);
  }
  await page.locator('.view-switch button').nth(1).click();
  await page.locator('table.calendar td.absent').first().waitFor();
  await visit('team-calendar');
  await page.locator('.view-switch button').nth(2).click();
  await page.locator('.approvals .hint').waitFor();
  await visit('team-approvals');
}

/** The bell's list open, with a notice in it (planted as the reminder job records one). */
async function bell(page: Page, email: string, visit: (state: string) => Promise<void>) {
  const data = JSON.stringify({ date: '2026-11-02', target_minutes: 480 });
  await queryRows(
    dbPath,
    "insert into notices (user_id, kind, key, data, created_at) select id, 'missing-day', ?, ?, '2026-11-03T07:00:00.000Z' from users where email = ?",
    [`axe:${email}`, data, email.toLowerCase()],
  );
  await page.reload();
  await page.locator('button.bell-button').click();
  await page.locator('#notices li').first().waitFor();
  await visit('notices-open');
  await page.keyboard.press('Escape');
}

/** Administration, once the account is an admin (`timetrack user role`): Accounts with a question open, and the audit trail. */
async function administration(page: Page, email: string, visit: (state: string) => Promise<void>) {
  expect((await cli(dbPath, ['user', 'role', email, 'admin'])).exitCode).toBe(0);
  // A fresh load reads the new role; then the navigation has Administration.
  await page.reload();
  await page.locator('header nav a[href="#accounts"]').click();
  await page.locator('li.admin-account').first().waitFor();
  await visit('admin-accounts');
  await button(page, 'Disable', 'Sperren').first().click();
  await button(page, 'Keep it', 'Behalten').waitFor();
  await visit('admin-accounts-question');
  await page.keyboard.press('Escape');
  await page.goto(`${server.baseUrl}/#audit`);
  await page.locator('li.audit-event').first().waitFor();
  await visit('admin-audit');
  await adminTeamsAndInvitations(page, visit);
}

/** Administration → Teams (a team open, the question before deleting, a taken name) and → Invitations (a link issued, the question before withdrawing). */
async function adminTeamsAndInvitations(page: Page, visit: (state: string) => Promise<void>) {
  await page.goto(`${server.baseUrl}/#teams`);
  await page.locator('li.admin-team button.open-team').first().click();
  await page.locator('section.team-members li.team-member').first().waitFor();
  await visit('admin-teams-open');
  await page.locator('li.admin-team button.ask-delete').first().click();
  await button(page, 'Keep it', 'Behalten').waitFor();
  await visit('admin-teams-delete-question');
  await page.keyboard.press('Escape');
  const create = page.locator('form.team-create');
  await create.locator('input[name=name]').fill((await page.locator('li.admin-team h4').first().textContent()) ?? '');
  await create.locator('button[type=submit]').click();
  await create.locator('.field-error').waitFor();
  await visit('admin-teams-name-taken');
  await page.goto(`${server.baseUrl}/#invitations`);
  const form = page.locator('form.invite-form');
  await form.locator('input[name=email]').fill(`axe-new-${process.pid}-${Date.now()}@example.com`);
  await form.locator('input[name=full_name]').fill('Nia New');
  await form.locator('button[type=submit]').click();
  await form.locator('code.token').waitFor();
  await visit('admin-invitations-issued');
  await page.locator('li.admin-invitation button.ask-withdraw').first().click();
  await button(page, 'Keep it', 'Behalten').waitFor();
  await visit('admin-invitations-withdraw-question');
  await page.keyboard.press('Escape');
}

describe.runIf(browserAvailable)('axe-core on every page: 390 and 1280 px, light and dark', () => {
  beforeAll(async () => {
    dbPath = path.join(makeTempDir('timetrack-axe-'), 'timetrack.db');
    server = await startServer(dbPath, {}, ['--dev']);
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  for (const [language, locale] of [
    ['English', 'en-GB'],
    ['German', 'de-DE'],
  ] as const) {
    it(`${language}: no violation of any impact on any page or state`, { timeout: TIMEOUT }, async () => {
      const email = `axe-${locale}-${process.pid}@example.com`;
      const registered = await fetch(`${server.baseUrl}/api/auth/register`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email, password: PASSWORD, full_name: 'Ada Axe', timezone: 'Europe/Berlin' }),
      });
      expect(registered.status).toBe(201);
      // A lead of a team (the Team page): the role and the team from the shell.
      for (const args of [
        ['user', 'role', email, 'lead'],
        ['team', 'create', `Team ${locale}`],
        ['team', 'add', `Team ${locale}`, email, '--lead'],
      ]) {
        expect((await cli(dbPath, args)).exitCode).toBe(0);
      }
      // Another device's session, for the list of sessions in Settings.
      const otherDevice = await fetch(`${server.baseUrl}/api/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:128.0) Gecko/20100101 Firefox/128.0' },
        body: JSON.stringify({ email, password: PASSWORD }),
      });
      expect(otherDevice.status).toBe(200);
      // axe-core is injected as a script, which the CSP forbids: this context bypasses it.
      const { context } = await recordedContext(browser, { bypassCSP: true, locale });
      const page = await context.newPage();
      const findings: string[] = [];
      const visit = (state: string) => check(page, state, findings);

      await signedOutPages(page, email, `Team ${locale}`, visit);
      await page.locator('input[name=email]').fill(email);
      await page.locator('input[name=password]').fill(PASSWORD);
      await page.locator('form button[type=submit]').click();
      await page.locator('button.big').waitFor();
      expect(await page.evaluate<string>('document.documentElement.lang')).toBe(locale.slice(0, 2));
      // An entry of an hour this morning (Berlin), for Entries' editor and the figures, ending before now:
      // Today's Start below is refused when an entry ends after now (docs/api.md, OVERLAP), as one of
      // 7:00-8:00 did when the suite ran between 7 and 8 in Berlin.
      const now = DateTime.now().setZone('Europe/Berlin');
      const start = DateTime.min(now.set({ hour: 8, minute: 0, second: 0, millisecond: 0 }), now.minus({ minutes: 5 })).minus({ hours: 1 });
      const status = await page.evaluate<number>(
        `fetch('/api/time-entries', { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: 'Bearer ' + localStorage.getItem('timetrack.token') }, body: ${JSON.stringify(
          JSON.stringify({ start_at: start.toUTC().toISO(), end_at: start.plus({ hours: 1 }).toUTC().toISO(), note: 'axe' }),
        )} }).then((response) => response.status)`,
      );
      expect(status).toBe(201);
      await page.reload();
      await sections(page, visit);
      await settings(page, visit);
      await team(page, visit);
      await bell(page, email, visit);
      await administration(page, email, visit);

      expect(findings).toEqual([]);
      await context.close();
    });
  }
});
