// Invitations against a real `serve` and the built binary, on both engines (docs/teams.md,
// "Invitations"; docs/api.md "Invitations"): an admin invites into any team, a lead into its own team
// as member only; a lead of another team 404, a member 403, an API token 403
// FORBIDDEN_FOR_API_TOKEN; an address with an account 409 EMAIL_TAKEN. The link comes by e-mail (a
// real SMTP server), in the inviter's language; accepting signs in; a resent link voids the old one;
// used, withdrawn and expired links are each refused with their own code. Audited with the actor.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { PASSWORD } from '../support/app.js';
import { createAccountWithCli, tempDb } from '../support/cli-accounts.js';
import { cliInProcess } from '../support/cli-in-process.js';
import { callJson, startServer, type RunningServer } from '../support/server.js';
import { onPostgres } from '../support/database.js';
import { startSmtpServer, type ReceivedMail, type TestSmtpServer } from '../support/smtp.js';

let server: RunningServer | undefined;
let second: RunningServer | undefined;
let smtp: TestSmtpServer | undefined;
/** The server and SMTP server of the case, when they are its own (not the shared ones below). */
let own = false;
afterEach(async () => {
  await second?.stop();
  second = undefined;
  if (own) {
    await server?.stop();
    await smtp?.close();
  }
  own = false;
  server = undefined;
  smtp = undefined;
});

// One server (REGISTRATION=invite) for the cases that need no setting of their own (docs/testing.md,
// "How fast"), on a database with an admin, a lead and a member; each case invites addresses of its own.
let shared: Promise<{ db: string; server: RunningServer; smtp: TestSmtpServer }> | undefined;
afterAll(async () => {
  const running = await shared?.catch(() => undefined);
  await running?.server.stop();
  await running?.smtp.close();
});

/** Makes the shared server the case's `server` (and `smtp`); its database. */
async function useShared(): Promise<string> {
  shared ??= (async () => {
    const db = tempDb();
    await createAccountWithCli(db, 'ann@example.com', ['--role', 'admin']);
    await createAccountWithCli(db, 'lea@example.com', ['--role', 'lead']);
    await createAccountWithCli(db, 'max@example.com');
    const started = await serveWithMail(db, { REGISTRATION: 'invite' });
    return { db, server: started, smtp: smtp! };
  })();
  const running = await shared;
  server = running.server;
  smtp = running.smtp;
  return running.db;
}

/** The token of the invitation link in a mail (quoted-printable soft line breaks undone). */
function inviteTokenOf(mail: ReceivedMail): string {
  const text = mail.raw.replace(/=\r?\n/g, '').replace(/=3D/g, '=');
  const match = /https:\/\/time\.example\.org\/accept-invite\?token=([A-Za-z0-9_%-]+)/.exec(text);
  if (!match?.[1]) throw new Error(`no invitation link in:\n${mail.raw}`);
  return decodeURIComponent(match[1]);
}

/** The token of the newest invitation mail to `email` that was not read before (other mails, like the API-token notice, are skipped). */
const read = new Set<ReceivedMail>();
async function inviteTokenTo(email: string): Promise<string> {
  for (let n = 1; ; n += 1) {
    const mail = await smtp!.waitForMessage(n);
    if (!read.has(mail) && mail.to.includes(email) && mail.raw.includes('accept-invite')) {
      read.add(mail);
      return inviteTokenOf(mail);
    }
  }
}

/** A server with mail on `db`, and its SMTP server (`smtp`): the case's own unless `useShared` starts it. */
async function serveWithMail(db: string, env: Record<string, string> = {}): Promise<RunningServer> {
  smtp = await startSmtpServer();
  return startServer(db, {
    SMTP_HOST: '127.0.0.1',
    SMTP_PORT: String(smtp.port),
    SMTP_FROM: 'timetrack@example.org',
    PUBLIC_URL: 'https://time.example.org',
    ...env,
  });
}

async function signIn(email: string): Promise<{ token: string; id: number }> {
  const answer = await callJson(server!, 'POST', '/api/auth/login', { email, password: PASSWORD });
  expect(answer.status).toBe(200);
  return { token: answer.body.token as string, id: answer.body.user.id as number };
}

const api = (method: string, url: string, who: { token: string } | undefined, body?: unknown) => callJson(server!, method, url, body, who?.token);
const accept = (token: string, full_name = 'New Person') =>
  api('POST', '/api/invitations/accept', undefined, { token, password: 'a long new passphrase', full_name });

describe('invitations', () => {
  it('who may invite, list, resend and withdraw; the mailed link signs in once', { timeout: 180_000 }, async () => {
    const db = await useShared();
    const [ann, lea, max] = [await signIn('ann@example.com'), await signIn('lea@example.com'), await signIn('max@example.com')];
    const kitchen = (await api('POST', '/api/teams', ann, { name: 'Kitchen' })).body.team.id as number;
    const garden = (await api('POST', '/api/teams', ann, { name: 'Garden' })).body.team.id as number;
    await api('PUT', `/api/teams/${kitchen}/members/${lea.id}`, ann, { role: 'lead' });
    await api('PUT', `/api/teams/${kitchen}/members/${max.id}`, ann, { role: 'member' });
    const invite = (who: { token: string }, email: string, team_id: number, role = 'member', language?: string) =>
      api('POST', '/api/invitations', who, { email, full_name: 'New Person', team_id, role, ...(language ? { language } : {}) });

    // Self-registration is closed with REGISTRATION=invite.
    const register = await api('POST', '/api/auth/register', undefined, { email: 'x@example.com', password: 'a long new passphrase', full_name: 'X' });
    expect(register.body).toMatchObject({ code: 'REGISTRATION_CLOSED' });
    // The client asks this to offer "Create an account" or not: not with REGISTRATION=invite.
    expect((await api('GET', '/api/auth/registration', undefined)).body).toEqual({ registration: 'closed' });

    // The lead invites a member into its team; the link goes by mail (German, as asked), never into the answer.
    const byLead = await invite(lea, 'Nia@Example.com', kitchen, 'member', 'de');
    expect(byLead).toMatchObject({ status: 201, body: { invitation: { email: 'nia@example.com', team_name: 'Kitchen', role: 'member' }, delivery: 'mail' } });
    expect(byLead.body.invite_url).toBeUndefined();
    const niaFirstToken = await inviteTokenTo('nia@example.com');
    expect(smtp!.messages.find((mail) => mail.to.includes('nia@example.com'))!.raw).toMatch(/Einladung/);

    // Not a lead into the team; not into another team (404); a member not at all (403); an API token never.
    expect((await invite(lea, 'leo@example.com', kitchen, 'lead')).body).toMatchObject({ statusCode: 403, code: 'FORBIDDEN' });
    expect((await invite(lea, 'leo@example.com', garden)).body).toMatchObject({ statusCode: 404 });
    expect((await invite(max, 'leo@example.com', kitchen)).body).toMatchObject({ statusCode: 403, code: 'FORBIDDEN' });
    expect((await invite(max, 'leo@example.com', garden)).body).toMatchObject({ statusCode: 404 });
    const apiToken = (await api('POST', '/api/auth/api-tokens', ann, { name: 'script', expires_in_days: 30, password: PASSWORD })).body.token as string;
    expect((await invite({ token: apiToken }, 'leo@example.com', kitchen)).body).toMatchObject({ statusCode: 403, code: 'FORBIDDEN_FOR_API_TOKEN' });
    expect((await api('GET', '/api/invitations', { token: apiToken })).body).toMatchObject({ statusCode: 403, code: 'FORBIDDEN_FOR_API_TOKEN' });
    // An address that has an account: 409.
    expect((await invite(ann, 'MAX@example.com', garden)).body).toMatchObject({ statusCode: 409, code: 'EMAIL_TAKEN' });

    // The admin invites a lead into another team (English).
    const leoInvite = await invite(ann, 'leo@example.com', garden, 'lead');
    expect(leoInvite.status).toBe(201);
    const leoToken = await inviteTokenTo('leo@example.com');
    expect(smtp!.messages.find((mail) => mail.to.includes('leo@example.com'))!.raw).toMatch(/invited to the team/);

    // Lists: the admin sees both, the lead its team's, a member nothing.
    expect((await api('GET', '/api/invitations', ann)).body.invitations.map((i: { email: string }) => i.email)).toEqual(['leo@example.com', 'nia@example.com']);
    expect((await api('GET', '/api/invitations', lea)).body.invitations).toMatchObject([{ email: 'nia@example.com', invited_by: `user:${lea.id}` }]);
    expect((await api('GET', '/api/invitations', max)).body.invitations).toEqual([]);

    // Resend: a new link; the old one no longer works. The lead may not touch the admin's invitation elsewhere (404).
    const niaId = byLead.body.invitation.id as number;
    expect((await api('POST', `/api/invitations/${niaId}/resend`, lea, {})).status).toBe(200);
    const niaToken = await inviteTokenTo('nia@example.com');
    expect(niaToken).not.toBe(niaFirstToken);
    expect((await accept(niaFirstToken)).body).toMatchObject({ statusCode: 400, code: 'INVALID_INVITATION' });
    expect((await api('DELETE', `/api/invitations/${leoInvite.body.invitation.id as number}`, lea)).status).toBe(404);
    expect((await api('POST', `/api/invitations/${niaId}/resend`, max, {})).body).toMatchObject({ statusCode: 403 });

    // Accepting: the registration checks, then the account, in the team with its role, signed in.
    expect((await api('POST', '/api/invitations/preview', undefined, { token: niaToken })).body).toEqual({
      email: 'nia@example.com',
      full_name: 'New Person',
      team_name: 'Kitchen',
      role: 'member',
    });
    expect((await api('POST', '/api/invitations/accept', undefined, { token: niaToken, password: 'password', full_name: 'Nia' })).status).toBe(400);
    // An unknown zone is refused naming the field, and the link still works; the account starts in the zone sent.
    const badZone = await api('POST', '/api/invitations/accept', undefined, {
      token: niaToken,
      password: 'a long new passphrase',
      full_name: 'Nia',
      timezone: 'Mars/Base',
    });
    expect(badZone.body).toMatchObject({ statusCode: 400, code: 'VALIDATION_ERROR', details: [{ field: 'timezone' }] });
    const accepted = await api('POST', '/api/invitations/accept', undefined, {
      token: niaToken,
      password: 'a long new passphrase',
      full_name: 'Nia Nowak',
      timezone: 'Pacific/Auckland',
    });
    expect(accepted).toMatchObject({ status: 200, body: { token_type: 'Bearer', user: { email: 'nia@example.com', full_name: 'Nia Nowak' } } });
    expect((await api('GET', '/api/settings', { token: accepted.body.token as string })).body).toMatchObject({ timezone: 'Pacific/Auckland' });
    const me = await api('GET', '/api/auth/me', { token: accepted.body.token as string });
    expect(me.body).toMatchObject({ role: 'member', teams: [{ id: kitchen, name: 'Kitchen', role: 'member' }] });
    expect((await accept(niaToken)).body).toMatchObject({ statusCode: 410, code: 'INVITATION_USED' });
    expect((await api('POST', '/api/invitations/preview', undefined, { token: niaToken })).body).toMatchObject({ code: 'INVITATION_USED' });

    // Withdrawn: the link is refused with its own code.
    expect((await api('DELETE', `/api/invitations/${leoInvite.body.invitation.id as number}`, ann)).status).toBe(204);
    expect((await accept(leoToken)).body).toMatchObject({ statusCode: 410, code: 'INVITATION_WITHDRAWN' });
    expect((await api('GET', '/api/invitations', ann)).body.invitations).toEqual([]);

    // The trail names the actor of each step.
    const trail = String((await cliInProcess(db, ['audit', 'list'])).stdout);
    for (const action of ['invitation_created', 'invitation_resent', 'invitation_withdrawn', 'invitation_accepted']) expect(trail).toContain(action);
    expect(trail).toContain(`user:${lea.id}`);
  });

  it('an expired link is refused with its own code; the admin invites a lead who then leads', { timeout: 120_000 }, async () => {
    const db = tempDb();
    await createAccountWithCli(db, 'ann@example.com', ['--role', 'admin']);
    own = true;
    server = await serveWithMail(db, { INVITE_TTL: '3s' });
    const ann = await signIn('ann@example.com');
    const team = (await api('POST', '/api/teams', ann, { name: 'Kitchen' })).body.team.id as number;
    await api('POST', '/api/invitations', ann, { email: 'old@example.com', full_name: 'Old', team_id: team, role: 'member' });
    const oldToken = await inviteTokenTo('old@example.com');
    await api('POST', '/api/invitations', ann, { email: 'lia@example.com', full_name: 'Lia', team_id: team, role: 'lead' });
    const liaToken = await inviteTokenTo('lia@example.com');
    const lia = await accept(liaToken, 'Lia');
    expect(lia.status).toBe(200);
    expect((await api('GET', '/api/auth/me', { token: lia.body.token as string })).body).toMatchObject({ role: 'lead', teams: [{ role: 'lead' }] });
    await new Promise((resolve) => setTimeout(resolve, 3_500));
    expect((await accept(oldToken)).body).toMatchObject({ statusCode: 410, code: 'INVITATION_EXPIRED' });
  });

  // SQLite allows one server per file: there the four accepts go to one process.
  it('two accepts of one link at once, through two serve processes on PostgreSQL: exactly one account', { timeout: 120_000 }, async () => {
    const db = await useShared();
    second = onPostgres ? await startServer(db, { PUBLIC_URL: 'https://time.example.org' }) : undefined;
    const other = second ?? server!;
    const ann = await signIn('ann@example.com');
    const team = (await api('POST', '/api/teams', ann, { name: 'Pantry' })).body.team.id as number;
    await api('POST', '/api/invitations', ann, { email: 'twin@example.com', full_name: 'Twin', team_id: team, role: 'member' });
    const token = await inviteTokenTo('twin@example.com');
    const body = { token, password: 'a long new passphrase', full_name: 'Twin' };
    const answers = await Promise.all([
      callJson(server!, 'POST', '/api/invitations/accept', body),
      callJson(other, 'POST', '/api/invitations/accept', body),
      callJson(server!, 'POST', '/api/invitations/accept', body),
      callJson(other, 'POST', '/api/invitations/accept', body),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 410, 410, 410]);
    for (const refused of answers.filter((answer) => answer.status !== 200)) expect(refused.body.code).toBe('INVITATION_USED');
    const members = (await api('GET', `/api/teams/${team}`, ann)).body.members as Array<{ user: { email: string } }>;
    expect(members.map((member) => member.user.email)).toEqual(['twin@example.com']);
  });
});
