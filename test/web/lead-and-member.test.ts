// The team layer walked as people use it (docs/teams.md; docs/web-client.md): an admin from the setup
// link `serve` printed, a team made in Administration, two invitations mailed (a real SMTP server); the
// lead accepts on a phone in German far west of UTC, the member on a laptop in English far east of it,
// side by side. The member starts the timer with the keyboard only; the lead sees it running in Team,
// at the lead's own clock time, and opens the member's week; the member reads nobody else. The admin
// makes the lead a member: the former lead's next load, still at #team, shows the team's calendar as a
// member sees it (test/web/teams-calendar.test.ts), and no week overview. axe
// finds nothing and no page scrolls sideways at any step. Screenshots in a temp folder.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, PASSWORD } from '../support/app.js';
import { accessibilityViolations, browserAvailable, browserRequired, launchBrowser, recordedContext } from '../support/browser.js';
import { tempDb } from '../support/cli-accounts.js';
import { callJson, startServer, type RunningServer } from '../support/server.js';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.js';

const SHOTS = makeTempDir('timetrack-team-walk-');
let browser: Browser;
let server: RunningServer;
let smtp: TestSmtpServer;

/** A screenshot, and what every page must be: no sideways scroll, nothing axe finds. */
async function shot(page: Page, name: string) {
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
  expect(await page.evaluate<number>('document.documentElement.scrollWidth'), name).toBeLessThanOrEqual(page.viewportSize()!.width);
  expect(await accessibilityViolations(page), name).toEqual([]);
}

async function device(width: number, locale: string, timezoneId: string): Promise<Page> {
  const { context } = await recordedContext(browser, { viewport: { width, height: 900 }, locale, timezoneId, bypassCSP: true });
  return context.newPage();
}

async function linkFromMail(n: number): Promise<string> {
  const mail = await smtp.waitForMessage(n);
  const text = mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const token = /https:\/\/time\.example\.org\/accept-invite\?token=([A-Za-z0-9_%-]+)/.exec(text)?.[1];
  expect(token).toBeDefined();
  return `${server.baseUrl}/accept-invite?token=${token}`;
}

describe.runIf(browserAvailable || browserRequired)('a lead and a member side by side', () => {
  beforeAll(async () => {
    smtp = await startSmtpServer();
    server = await startServer(tempDb(), {
      REGISTRATION: 'invite',
      PUBLIC_URL: 'https://time.example.org',
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(smtp.port),
      SMTP_FROM: 'timetrack@example.org',
    });
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
    await smtp?.close();
  });

  it("setup link, team, invitations by mail, a keyboard timer, the lead's view, a demotion", { timeout: 300_000 }, async () => {
    while (!server.output().includes('timetrack started')) await new Promise((resolve) => setTimeout(resolve, 20));
    const setup = /https:\/\/time\.example\.org\/register\?setup=([A-Za-z0-9_-]+)/.exec(server.output())?.[1];
    expect(setup).toBeDefined();

    // The admin, on a laptop in Berlin.
    const ann = await device(1280, 'en-GB', 'Europe/Berlin');
    await ann.goto(`${server.baseUrl}/register?setup=${setup}`);
    await ann.getByRole('heading', { name: 'Set up timetrack' }).waitFor();
    await shot(ann, '01-admin-setup-1280');
    await ann.getByLabel('Full name').fill('Ann Admin');
    await ann.getByLabel('E-mail').fill('ann@example.com');
    await ann.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await ann.getByRole('button', { name: 'Create the admin account' }).click();
    await ann.locator('button.big').waitFor();

    await ann.getByRole('link', { name: 'Administration' }).click();
    await ann.locator('nav.sub-nav').getByRole('link', { name: 'Teams' }).click();
    const create = ann.locator('form.team-create');
    await create.getByLabel('Team name').fill('Pflege');
    await create.getByRole('button', { name: 'Create team' }).click();
    await ann.getByRole('status').filter({ hasText: 'The team Pflege is created.' }).waitFor();
    await shot(ann, '02-admin-teams-1280');

    await ann.locator('nav.sub-nav').getByRole('link', { name: 'Invitations' }).click();
    const invite = async (email: string, name: string, role: 'lead' | 'member') => {
      await ann.locator('input[name=email]').fill(email);
      await ann.locator('input[name=full_name]').fill(name);
      await ann.locator('select[name=role]').selectOption(role);
      await ann.getByRole('button', { name: 'Send invitation' }).click();
      await ann
        .getByRole('status')
        .filter({ hasText: `The invitation was mailed to ${email}.` })
        .waitFor();
    };
    await invite('lena@example.com', 'Lena Lead', 'lead');
    const lenaLink = await linkFromMail(1);
    await invite('max@example.com', 'Max Member', 'member');
    const maxLink = await linkFromMail(2);
    await shot(ann, '03-admin-invitations-1280');

    // The lead, on a phone in German, in Los Angeles.
    const lena = await device(390, 'de-DE', 'America/Los_Angeles');
    await lena.goto(lenaLink);
    await lena.locator('form').waitFor();
    await shot(lena, '04-lead-accept-390-de');
    await lena.locator('input[type=password]').nth(0).fill(PASSWORD);
    await lena.locator('input[type=password]').nth(1).fill(PASSWORD);
    await lena.getByRole('button', { name: 'Mein Konto anlegen' }).click();
    await lena.locator('button.big').waitFor();

    // The member, on a laptop in English, in Auckland; a few past days through the API, a timer by keyboard.
    const max = await device(1280, 'en-GB', 'Pacific/Auckland');
    await max.goto(maxLink);
    await max.locator('form').waitFor();
    await max.locator('input[type=password]').nth(0).fill(PASSWORD);
    await max.locator('input[type=password]').nth(1).fill(PASSWORD);
    await max.getByRole('button', { name: 'Create my account' }).click();
    await max.locator('button.big').waitFor();
    const maxLogin = await callJson(server, 'POST', '/api/auth/login', { email: 'max@example.com', password: PASSWORD });
    const maxToken = maxLogin.body.token as string;
    const maxId = maxLogin.body.user.id as number;
    for (const daysAgo of [1, 2]) {
      const start = new Date(Date.now() - daysAgo * 86_400_000);
      start.setUTCMinutes(0, 0, 0);
      const end = new Date(start.getTime() + 4 * 3_600_000);
      const made = await callJson(
        server,
        'POST',
        '/api/time-entries',
        { start_at: start.toISOString(), end_at: end.toISOString(), note: 'ward round' },
        maxToken,
      );
      expect(made.status).toBe(201);
    }
    await max.reload();
    await max.locator('button.big').waitFor();
    let onStart = false;
    for (let i = 0; i < 40 && !onStart; i++) {
      await max.keyboard.press('Tab');
      onStart = await max.evaluate<boolean>('document.activeElement?.classList.contains("big") ?? false');
    }
    expect(onStart).toBe(true);
    await max.keyboard.press('Enter');
    await max.locator('button.big.stop').waitFor();
    await shot(max, '05-member-today-running-1280');
    // A member of a team: Team is there, with the team's calendar only (test/web/teams-calendar.test.ts).
    expect(await max.locator('header nav a').allTextContents()).toEqual(['Today', 'Week', 'Entries', 'Absences', 'Settings', 'Team']);
    const running = (await callJson(server, 'GET', '/api/time-entries', undefined, maxToken)).body.entries.find(
      (entry: { end_at: string | null }) => entry.end_at === null,
    );
    const inLosAngeles = new Intl.DateTimeFormat('de-DE', { timeZone: 'America/Los_Angeles', hour: '2-digit', minute: '2-digit' }).format(
      new Date(running.start_at),
    );

    // The lead opens Team on the phone.
    await lena.reload();
    await lena.getByRole('link', { name: 'Team' }).first().click();
    const maxRow = lena.locator('table.team tbody tr', { hasText: 'Max Member' });
    // The member's timer, at the lead's clock time (the lead's account started in the zone of its browser).
    await expect.poll(() => maxRow.textContent()).toContain(inLosAngeles);
    await shot(lena, '06-lead-team-390-de');
    await maxRow.getByRole('button', { name: 'Woche' }).click();
    await lena.getByRole('heading', { name: 'Max Member: Woche' }).waitFor();
    // "today, so far" on the member's today (a day ahead of the lead's, in Auckland), as the member's own Week says it.
    const maxToday = (await callJson(server, 'GET', '/api/stats/today', undefined, maxToken)).body.date as string;
    const shownWeek = await lena.locator('.person-figures tbody tr th').allTextContents();
    const todayRow = lena.locator('.person-figures tbody tr').filter({ hasText: new RegExp(`\\b${Number(maxToday.slice(8))}\\. `) });
    // (On the lead's Sunday the member's today is already in the next week: nothing to look at then.)
    if (shownWeek.some((day) => new RegExp(`\\b${Number(maxToday.slice(8))}\\. `).test(day))) {
      await expect.poll(() => todayRow.textContent()).toContain('heute, bisher');
    }
    await shot(lena, '07-lead-member-week-390-de');
    await lena.setViewportSize({ width: 1280, height: 900 });
    await shot(lena, '08-lead-team-1280-de');

    // What the member can and cannot read.
    const lenaId = (await callJson(server, 'POST', '/api/auth/login', { email: 'lena@example.com', password: PASSWORD })).body.user.id as number;
    const teams = (await callJson(server, 'GET', '/api/auth/me', undefined, maxToken)).body.teams as Array<{ id: number }>;
    expect((await callJson(server, 'GET', `/api/users/${lenaId}/stats/week`, undefined, maxToken)).status).toBe(404);
    expect((await callJson(server, 'GET', `/api/teams/${teams[0]!.id}/overview`, undefined, maxToken)).status).toBe(403);
    expect((await callJson(server, 'GET', `/api/users/${maxId}/stats/week`, undefined, maxToken)).status).toBe(200);

    // The admin makes the lead a member; the lead's next load has no Team.
    await ann.locator('nav.sub-nav').getByRole('link', { name: 'Accounts' }).click();
    const row = ann.locator('li.admin-account', { hasText: 'lena@example.com' });
    await row.waitFor();
    await shot(ann, '09-admin-accounts-1280');
    await row.locator('select').first().selectOption('member');
    await row.getByRole('button', { name: 'Change role' }).click();
    await expect.poll(() => row.textContent()).toContain('Member · Active');
    await shot(ann, '10-admin-role-changed-1280');
    // The former lead's page, reloaded at #team: still in the team, so Team is its calendar, as a member
    // sees it (the others' absences as away), without the week overview.
    expect(new URL(lena.url()).hash).toBe('#team');
    await lena.reload();
    await lena.locator('table.calendar').waitFor();
    expect(new URL(lena.url()).hash).toBe('#team');
    expect(await lena.locator('table.team').count()).toBe(0);
    expect(await lena.locator('.view-switch').count()).toBe(0);
    await lena.locator('.team-calendar p.hint').waitFor();
    await shot(lena, '11-former-lead-1280-de');
  });
});
