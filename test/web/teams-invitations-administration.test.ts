// Administration → Teams and → Invitations in the browser (docs/web-client.md, "Administration";
// docs/teams.md, "Administration in the browser"): an admin made with `timetrack user create --role
// admin` creates a team (a taken name is said beside the name field), renames it, adds a lead and a
// member from the accounts list, makes the member a lead, removes one (asked first), sees the teams in
// Accounts (and no Disable on their own row), and deletes the team after the question, the accounts
// staying. Then invites a person (dev mode: the link, copied), an address that has an account is said
// beside the e-mail field, resends (the old link refused, the new one makes the account) and withdraws
// another (asked first); a lead invites a member and withdraws it on the Team page. Every change is in
// the audit trail with the admin as its actor. Screenshots at 390 and 1280 px, light and dark, under
// /tmp/adminui-shots. Debian's Chromium against a real `serve --dev`.
import fs from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD } from '../support/app.js';
import { browserAvailable, launchBrowser, recordedContext } from '../support/browser.js';
import { createAccountWithCli, tempDb } from '../support/cli-accounts.js';
import { callJson, startServer, type RunningServer } from '../support/server.js';

const SHOTS = '/tmp/adminui-shots';
let browser: Browser;
let server: RunningServer;
let annToken: string;
let annId: number;

async function signIn(page: Page, email: string): Promise<void> {
  await page.goto(`${server.baseUrl}/login`);
  await page.locator('input[name=email]').fill(email);
  await page.locator('input[name=password]').fill(PASSWORD);
  await page.locator('form button[type=submit]').click();
  await page.locator('button.big').waitFor();
}

/** Full-page screenshots at 390 and 1280 px, light and dark; at neither width does the page scroll sideways. */
async function shots(page: Page, name: string): Promise<void> {
  for (const width of [390, 1280]) {
    await page.setViewportSize({ width, height: 900 });
    for (const colorScheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme });
      await page.screenshot({ path: `${SHOTS}/${name}-${width}-${colorScheme}.png`, fullPage: true });
    }
    expect(await page.evaluate<number>('document.documentElement.scrollWidth'), `${name} at ${width} px`).toBeLessThanOrEqual(width);
  }
  await page.emulateMedia({ colorScheme: 'light' });
}

const active = (page: Page) => page.evaluate<string>('document.activeElement?.outerHTML.slice(0, 120) ?? ""');
const status = (page: Page, text: string) => page.getByRole('status').filter({ hasText: text });
/** The actions of the audit trail done by the admin, through the API. */
async function auditedByAnn(action: string): Promise<number> {
  const events = (await callJson(server, 'GET', `/api/audit?action=${action}&actor=user:${annId}`, undefined, annToken)).body.events as unknown[];
  return events.length;
}

describe.runIf(browserAvailable)('Administration: teams and invitations', () => {
  const db = tempDb();
  beforeAll(async () => {
    fs.mkdirSync(SHOTS, { recursive: true });
    await createAccountWithCli(db, 'ann@example.com', ['--role', 'admin', '--name', 'Ann Admin']);
    await createAccountWithCli(db, 'lea@example.com', ['--name', 'Lea Lead']);
    await createAccountWithCli(db, 'max@example.com', ['--name', 'Max Member']);
    server = await startServer(db, {}, ['--dev']);
    browser = await launchBrowser();
    const login = await callJson(server, 'POST', '/api/auth/login', { email: 'ann@example.com', password: PASSWORD });
    annToken = login.body.token as string;
    annId = login.body.user.id as number;
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('an admin creates, renames, staffs and deletes a team', { timeout: 240_000 }, async () => {
    const { context } = await recordedContext(browser, { viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    await signIn(page, 'ann@example.com');
    await page.getByRole('link', { name: 'Administration' }).click();
    await page.locator('nav.sub-nav').getByRole('link', { name: 'Teams' }).click();
    await page.locator('#view-title', { hasText: 'Teams' }).waitFor();

    // Create; the same name again (another case) is said beside the name field, which takes focus.
    const create = page.locator('form.team-create');
    await create.getByLabel('Team name').fill('Kitchen');
    await create.getByRole('button', { name: 'Create team' }).click();
    await status(page, 'The team Kitchen is created.').waitFor();
    await expect.poll(() => active(page)).toContain('The team Kitchen is created.');
    await create.getByLabel('Team name').fill('kitchen');
    await create.getByRole('button', { name: 'Create team' }).click();
    await create.locator('.field-error', { hasText: 'Team name: a team with this name exists already' }).waitFor();
    await expect.poll(() => active(page)).toContain('name="name"');
    expect(await create.getByLabel('Team name').getAttribute('aria-invalid')).toBe('true');

    // Rename.
    const row = page.locator('li.admin-team', { hasText: 'Kitchen' });
    await row.getByRole('button', { name: 'Rename' }).click();
    await expect.poll(() => active(page)).toContain('name="name"');
    await row.getByLabel('New name for Kitchen').fill('Galley');
    await row.getByRole('button', { name: 'Save name' }).click();
    await status(page, 'The team Kitchen is now called Galley.').waitFor();
    const galley = page.locator('li.admin-team', { hasText: 'Galley' });

    // Open it; add Lea as lead and Max as member, picked from the accounts list.
    await galley.getByRole('button', { name: 'Members' }).click();
    const panel = page.locator('section.team-members');
    await expect.poll(() => active(page)).toContain('Members of Galley');
    await panel.getByLabel('Find an account (name or e-mail)').fill('lea');
    await panel.getByRole('button', { name: 'Find' }).click();
    await expect.poll(() => panel.locator('select[name=account] option').allTextContents()).toEqual(['Lea Lead (lea@example.com)']);
    await panel.getByLabel('Role in the team').selectOption('lead');
    await panel.getByRole('button', { name: 'Add to team' }).click();
    await status(page, 'Lea Lead is now a lead of Galley.').waitFor();
    await expect.poll(() => active(page)).toContain('Lea Lead is now a lead of Galley.');
    await panel.getByLabel('Find an account (name or e-mail)').fill('max');
    await panel.getByRole('button', { name: 'Find' }).click();
    await expect.poll(() => panel.locator('select[name=account] option').allTextContents()).toEqual(['Max Member (max@example.com)']);
    await panel.getByLabel('Role in the team').selectOption('member');
    await panel.getByRole('button', { name: 'Add to team' }).click();
    await status(page, 'Max Member is now a member of Galley.').waitFor();
    await galley.locator('.facts', { hasText: 'Leads: Lea Lead · 2 members' }).waitFor();

    // Member ↔ lead, then back.
    const max = panel.locator('li.team-member', { hasText: 'Max Member' });
    await max.getByRole('button', { name: 'Make lead' }).click();
    await status(page, 'Max Member is now a lead of Galley.').waitFor();
    await galley.locator('.facts', { hasText: 'Leads: Lea Lead, Max Member' }).waitFor();
    await max.getByRole('button', { name: 'Make member' }).click();
    await status(page, 'Max Member is now a member of Galley.').waitFor();
    await shots(page, 'teams-open');
    await page.setViewportSize({ width: 1280, height: 900 });

    // Remove: asked first, focus on Keep it, Escape keeps; then yes.
    await max.getByRole('button', { name: 'Remove' }).click();
    await expect.poll(() => active(page)).toContain('keep');
    await max.getByText('Remove Max Member from Galley? The account stays.').waitFor();
    await page.keyboard.press('Escape');
    await expect.poll(() => active(page)).toContain('ask-remove');
    await max.getByRole('button', { name: 'Remove' }).click();
    await max.getByRole('button', { name: 'Yes, remove' }).click();
    await status(page, 'Max Member is no longer in Galley. The account stays.').waitFor();
    await expect.poll(() => panel.locator('li.team-member').allTextContents()).toEqual([expect.stringContaining('Lea Lead')]);
    const teamId = ((await callJson(server, 'GET', '/api/teams', undefined, annToken)).body.teams[0] as { id: number }).id;
    const detail = (await callJson(server, 'GET', `/api/teams/${teamId}`, undefined, annToken)).body;
    expect(detail.team.name).toBe('Galley');
    expect(detail.members.map((member: { user: { email: string }; role: string }) => [member.user.email, member.role])).toEqual([['lea@example.com', 'lead']]);

    // Accounts shows each account's teams, and no Disable on the admin's own row.
    await page.locator('nav.sub-nav').getByRole('link', { name: 'Accounts' }).click();
    const lea = page.locator('li.admin-account', { hasText: 'lea@example.com' });
    await lea.locator('.teams', { hasText: 'Teams: Galley (lead)' }).waitFor();
    await page.locator('li.admin-account', { hasText: 'max@example.com' }).locator('.teams', { hasText: 'In no team' }).waitFor();
    const own = page.locator('li.admin-account', { hasText: 'ann@example.com' });
    await own.getByRole('button', { name: 'Issue a reset link' }).waitFor();
    expect(await own.getByRole('button', { name: 'Disable' }).count()).toBe(0);
    expect(await lea.getByRole('button', { name: 'Disable' }).count()).toBe(1);
    await shots(page, 'accounts-teams');
    await page.setViewportSize({ width: 1280, height: 900 });

    // Delete: the question names the team and its one member; the accounts stay.
    await page.locator('nav.sub-nav').getByRole('link', { name: 'Teams' }).click();
    await galley.getByRole('button', { name: 'Delete' }).click();
    await galley.getByText('Delete the team Galley? Its 1 member keeps the account; only the membership ends.').waitFor();
    await expect.poll(() => active(page)).toContain('keep');
    await shots(page, 'teams-delete-question');
    await page.setViewportSize({ width: 1280, height: 900 });
    await galley.getByRole('button', { name: 'Yes, delete' }).click();
    await status(page, 'The team Galley is deleted. Its members keep their accounts.').waitFor();
    await expect.poll(() => active(page)).toContain('The team Galley is deleted.');
    expect((await callJson(server, 'GET', '/api/teams', undefined, annToken)).body.teams).toEqual([]);
    expect((await callJson(server, 'POST', '/api/auth/login', { email: 'lea@example.com', password: PASSWORD })).status).toBe(200);

    // Each change was the route of its command, audited with the admin as the actor.
    for (const action of ['team_created', 'team_renamed', 'team_deleted']) expect(await auditedByAnn(action), action).toBe(1);
    expect(await auditedByAnn('team_member_added')).toBe(4);
    expect(await auditedByAnn('team_member_removed')).toBe(1);
    await context.close();
  });

  it('an admin invites, resends and withdraws', { timeout: 240_000 }, async () => {
    expect((await callJson(server, 'POST', '/api/teams', { name: 'Bar' }, annToken)).status).toBe(201);
    const { context } = await recordedContext(browser, { viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.baseUrl });
    const page = await context.newPage();
    await signIn(page, 'ann@example.com');
    await page.goto(`${server.baseUrl}/#invitations`);
    await page.locator('#view-title', { hasText: 'Invitations' }).waitFor();
    const form = page.locator('form.invite-form');
    const invite = async (email: string, name: string) => {
      await form.getByLabel('E-mail address').fill(email);
      await form.getByLabel('Full name').fill(name);
      await form.getByLabel('Team', { exact: true }).selectOption({ label: 'Bar' });
      await form.getByLabel('Role in the team').selectOption('member');
      await form.getByRole('button', { name: 'Send invitation' }).click();
    };

    // An address that has an account: said beside the e-mail field, focused; what was typed stays.
    await invite('max@example.com', 'Max again');
    await form.locator('.field-error', { hasText: 'E-mail address: an account with this address exists already' }).waitFor();
    await expect.poll(() => active(page)).toContain('name="email"');
    expect(await form.getByLabel('Full name').inputValue()).toBe('Max again');

    // Dev mode: the link is shown, and Copy link puts it on the clipboard.
    await invite('bea@example.com', 'Bea Berg');
    await status(page, 'The invitation for bea@example.com is made.').waitFor();
    await expect.poll(() => active(page)).toContain('The invitation for bea@example.com is made.');
    const first = (await form.locator('code.token').textContent()) ?? '';
    expect(first).toContain('/accept-invite?token=');
    await form.getByRole('button', { name: 'Copy link' }).click();
    await status(page, 'The link is copied.').waitFor();
    expect(await page.evaluate<string>('navigator.clipboard.readText()')).toBe(first);
    const bea = page.locator('li.admin-invitation', { hasText: 'bea@example.com' });
    await bea.locator('.facts', { hasText: 'Bea Berg · Member of Bar · link valid until' }).waitFor();
    await shots(page, 'invitations-issued');
    await page.setViewportSize({ width: 1280, height: 900 });

    // Resend: a new link; the old one is refused, the new one makes the account.
    await bea.getByRole('button', { name: 'Resend' }).click();
    await status(page, 'A new link for bea@example.com (dev mode, not mailed). The earlier link no longer works').waitFor();
    const second = (await bea.locator('code.token').textContent()) ?? '';
    expect(second).toContain('/accept-invite?token=');
    expect(second).not.toBe(first);
    const tokenOf = (url: string) => new URL(url).searchParams.get('token') as string;
    const old = await callJson(server, 'POST', '/api/invitations/preview', { token: tokenOf(first) });
    expect(old).toMatchObject({ status: 400, body: { code: 'INVALID_INVITATION' } });
    const accepted = await callJson(server, 'POST', '/api/invitations/accept', { token: tokenOf(second), password: PASSWORD, full_name: 'Bea Berg' });
    expect(accepted.status).toBe(200);

    // Withdraw another: asked first (Keep it focused, Escape keeps), then gone; its link says so.
    await invite('carl@example.com', 'Carl Cook');
    await status(page, 'The invitation for carl@example.com is made.').waitFor();
    const carlLink = (await form.locator('code.token').textContent()) ?? '';
    await page.reload();
    const carl = page.locator('li.admin-invitation', { hasText: 'carl@example.com' });
    await expect.poll(() => page.locator('li.admin-invitation').count()).toBe(1);
    await carl.getByRole('button', { name: 'Withdraw' }).click();
    await carl.getByText('Withdraw the invitation for carl@example.com? Its link stops working.').waitFor();
    await expect.poll(() => active(page)).toContain('keep');
    await shots(page, 'invitations-withdraw-question');
    await page.setViewportSize({ width: 1280, height: 900 });
    await page.keyboard.press('Escape');
    await expect.poll(() => active(page)).toContain('ask-withdraw');
    await carl.getByRole('button', { name: 'Withdraw' }).click();
    await carl.getByRole('button', { name: 'Yes, withdraw' }).click();
    await status(page, 'The invitation for carl@example.com is withdrawn; its link no longer works.').waitFor();
    await page.getByText('No pending invitation.').waitFor();
    const withdrawn = await callJson(server, 'POST', '/api/invitations/preview', { token: tokenOf(carlLink) });
    expect(withdrawn).toMatchObject({ status: 410, body: { code: 'INVITATION_WITHDRAWN' } });

    for (const [action, count] of [
      ['invitation_created', 2],
      ['invitation_resent', 1],
      ['invitation_withdrawn', 1],
    ] as const) {
      expect(await auditedByAnn(action), action).toBe(count);
    }
    await context.close();
  });

  it('a lead invites a member into the team it leads from the Team page, and withdraws it', { timeout: 120_000 }, async () => {
    const users = (await callJson(server, 'GET', '/api/users?q=lea@', undefined, annToken)).body.users as Array<{ id: number }>;
    const leaId = users[0]!.id;
    expect((await callJson(server, 'PATCH', `/api/users/${leaId}`, { role: 'lead' }, annToken)).status).toBe(200);
    const deck = (await callJson(server, 'POST', '/api/teams', { name: 'Deck' }, annToken)).body.team.id as number;
    expect((await callJson(server, 'PUT', `/api/teams/${deck}/members/${leaId}`, { role: 'lead' }, annToken)).status).toBe(200);
    const { context } = await recordedContext(browser, { viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await signIn(page, 'lea@example.com');
    await page.getByRole('link', { name: 'Team', exact: true }).click();
    const form = page.locator('form.invite-form');
    await form.getByText('As a lead you invite members into the teams you lead.').waitFor();
    // A lead invites members only: the form offers no role.
    expect(await form.locator('select[name=role]').count()).toBe(0);
    await form.getByLabel('E-mail address').fill('dan@example.com');
    await form.getByLabel('Full name').fill('Dan Deck');
    await form.getByRole('button', { name: 'Send invitation' }).click();
    await status(page, 'The invitation for dan@example.com is made.').waitFor();
    await form.locator('code.token').waitFor();
    await page.screenshot({ path: `${SHOTS}/team-lead-invite-390-light.png`, fullPage: true });
    expect(await page.evaluate<number>('document.documentElement.scrollWidth')).toBeLessThanOrEqual(390);
    const pending = (await callJson(server, 'GET', '/api/invitations', undefined, annToken)).body.invitations as Array<Record<string, unknown>>;
    expect(pending).toContainEqual(expect.objectContaining({ email: 'dan@example.com', team_name: 'Deck', role: 'member', invited_by: `user:${leaId}` }));
    // The lead's pending invitations are under the form: withdrawing one asks first.
    const dan = page.locator('li.admin-invitation', { hasText: 'dan@example.com' });
    await dan.locator('.facts', { hasText: 'Dan Deck · Member of Deck' }).waitFor();
    await dan.getByRole('button', { name: 'Withdraw' }).click();
    await dan.getByRole('button', { name: 'Yes, withdraw' }).click();
    await status(page, 'The invitation for dan@example.com is withdrawn; its link no longer works.').waitFor();
    expect((await callJson(server, 'GET', '/api/invitations', undefined, annToken)).body.invitations).toEqual([]);
    await context.close();
  });
});
