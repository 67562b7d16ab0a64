// The invitation's page in Chromium (docs/web-client.md, "Accepting an invitation"; docs/teams.md,
// "Invitations"): an admin invites over the API, the link arrives by e-mail at a real SMTP server, and
// the invited person opens it on a phone (390 px): the token leaves the address, the page says who is
// invited into which team, the name is filled in, a password twice, and the new account is signed in
// and in the team. The same link again (1280 px) says it was used; a withdrawn and an expired link each
// say so in words. Needs `npm run build`.
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeTempDir, PASSWORD } from '../support/app.js';
import { browserAvailable, browserRequired, launchBrowser, recordedContext } from '../support/browser.js';
import { createAccountWithCli, tempDb } from '../support/cli-accounts.js';
import { callJson, startServer, type RunningServer } from '../support/server.js';
import { startSmtpServer, type TestSmtpServer } from '../support/smtp.js';

const run = browserAvailable || browserRequired;
const NEW_PASSWORD = 'a long new passphrase';
let browser: Browser;
let smtp: TestSmtpServer;
const servers: RunningServer[] = [];

beforeAll(async () => {
  if (!run) return;
  browser = await launchBrowser();
  smtp = await startSmtpServer();
});
afterAll(async () => {
  await browser?.close();
  for (const server of servers) await server.stop();
  await smtp?.close();
});

/** A server whose mail goes to the test's SMTP server, with an admin (Ann) and the team Kitchen; Ann's token and the team's id. */
async function serverWithTeam(env: Record<string, string> = {}) {
  const db = tempDb();
  await createAccountWithCli(db, 'ann@example.com', ['--role', 'admin']);
  const server = await startServer(db, {
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(smtp.port),
    SMTP_FROM: 'timetrack@example.org',
    PUBLIC_URL: 'https://time.example.org',
    ...env,
  });
  servers.push(server);
  const ann = (await callJson(server, 'POST', '/api/auth/login', { email: 'ann@example.com', password: PASSWORD })).body.token as string;
  const team = (await callJson(server, 'POST', '/api/teams', { name: 'Kitchen' }, ann)).body.team.id as number;
  return { server, ann, team };
}

/** Invites `email` into the team; the id of the invitation and the link's path (from the mail, its host replaced by the test server's). */
async function invite(server: RunningServer, ann: string, team: number, email: string, fullName: string) {
  const before = smtp.messages.length;
  const issued = await callJson(server, 'POST', '/api/invitations', { email, full_name: fullName, team_id: team, role: 'member' }, ann);
  expect(issued.status).toBe(201);
  const mail = await smtp.waitForMessage(before + 1);
  const text = mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const token = /https:\/\/time\.example\.org\/accept-invite\?token=([A-Za-z0-9_%-]+)/.exec(text)?.[1];
  expect(token).toBeDefined();
  return { id: issued.body.invitation.id as number, url: `${server.baseUrl}/accept-invite?token=${token}` };
}

async function open(url: string, width: number): Promise<Page> {
  const { context } = await recordedContext(browser, { viewport: { width, height: 844 } });
  const page = await context.newPage();
  await page.goto(url);
  return page;
}

describe.runIf(run)('accepting an invitation in the browser', () => {
  it('the mailed link makes the account and signs it in; used again it says so', { timeout: 180_000 }, async () => {
    const { server, ann, team } = await serverWithTeam();
    const { url } = await invite(server, ann, team, 'bea@example.com', 'Bea Berg');

    const phone = await open(url, 390);
    await phone.getByText('You are invited as a member of Kitchen, with the address bea@example.com.', { exact: false }).waitFor();
    // The token left the address (history, screenshots), and the name is the one the invitation gave.
    expect(new URL(phone.url()).search).toBe('');
    expect(await phone.getByLabel('Full name').inputValue()).toBe('Bea Berg');
    await phone.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
    await phone.getByLabel('New password again').fill(NEW_PASSWORD);
    await phone.getByRole('button', { name: 'Create my account' }).click();
    // Signed in: the client's first view, and the account is in the team.
    await phone.locator('#view-title').waitFor();
    await phone.screenshot({ path: path.join(makeTempDir('timetrack-invite-shots-'), 'accepted-390.png') });
    const login = await callJson(server, 'POST', '/api/auth/login', { email: 'bea@example.com', password: NEW_PASSWORD });
    expect(login.status).toBe(200);
    const me = await callJson(server, 'GET', '/api/auth/me', undefined, login.body.token as string);
    expect(me.body.teams).toEqual([expect.objectContaining({ name: 'Kitchen', role: 'member' })]);
    await phone.context().close();

    const laptop = await open(url, 1280);
    await expect.poll(() => laptop.getByRole('alert').textContent()).toBe('This invitation was already used. Sign in with the account it created.');
    expect(await laptop.locator('form').count()).toBe(0);
    await laptop.context().close();
  });

  it('a withdrawn link and an expired one each say what happened', { timeout: 180_000 }, async () => {
    const { server, ann, team } = await serverWithTeam({ INVITE_TTL: '2s' });
    const withdrawn = await invite(server, ann, team, 'carl@example.com', 'Carl');
    expect((await callJson(server, 'DELETE', `/api/invitations/${withdrawn.id}`, undefined, ann)).status).toBe(204);
    const page = await open(withdrawn.url, 1280);
    await expect.poll(() => page.getByRole('alert').textContent()).toBe('This invitation was withdrawn. Ask the person who invited you for a new one.');
    await page.context().close();

    const expired = await invite(server, ann, team, 'dora@example.com', 'Dora');
    await new Promise((resolve) => setTimeout(resolve, 2500));
    const late = await open(expired.url, 390);
    await expect.poll(() => late.getByRole('alert').textContent()).toBe('This invitation has expired. Ask the person who invited you to send it again.');
    expect(await late.locator('form').count()).toBe(0);
    await late.context().close();
  });
});
